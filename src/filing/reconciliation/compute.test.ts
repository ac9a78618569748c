import fc from "fast-check"
import { cents, money, monthOf, monthRange } from "./amounts"
import { fullItemTax } from "../decisions"
import { monthCsv } from "./views"
import { csvField } from "../../core/csv"
import { attentionOf, attentionSummary, customerRefundedCents, lineRefundedCents, reconcileMonth, reconcileOrder } from "./compute"
import type { OrderFacts, RecordFacts } from "./compute"

const order = (over: Partial<OrderFacts> = {}): OrderFacts => ({
  orderId: "order_1",
  displayId: 1,
  createdAt: "2026-10-05T12:00:00.000Z",
  canceled: false,
  lines: [
    { id: "ordli_a", taxCents: 100, quantity: 3 },
    { id: "shipping:sm_1", taxCents: 45, quantity: 1 },
  ],
  refunds: [],
  ...over,
})

const record = (over: Partial<RecordFacts> = {}): RecordFacts => ({
  orderId: "order_1",
  parentOrderId: null,
  state: "completed",
  filed: true,
  filedCents: 145,
  voided: false,
  lastError: null,
  refunds: [],
  ...over,
})

describe("money and months", () => {
  it("cents rounds half away from zero without float drift; money prints exact dollars", () => {
    expect(cents("0.285")).toBe(29)
    expect(cents(1.005)).toBe(101) // 1.005 * 100 in floats is 100.49999…
    expect(cents({ toString: () => "12.345" } as unknown as string)).toBe(1235)
    expect(cents(null)).toBe(0)
    expect(money(-5)).toBe("-0.05")
    expect(money(123456)).toBe("1234.56")
  })

  it("monthRange is [first of month, first of next) in UTC; December rolls the year", () => {
    expect(monthRange("2026-12")).toEqual({ from: new Date("2026-12-01T00:00:00Z"), to: new Date("2027-01-01T00:00:00Z") })
    expect(() => monthRange("2026-13")).toThrow(/YYYY-MM/)
    expect(monthOf("2026-10-31T23:59:59.999Z")).toBe("2026-10")
    expect(monthOf(new Date("2026-11-01T00:00:00Z"))).toBe("2026-11")
  })
})

describe("fullItemTax: the tax charged for the whole quantity (Medusa's item tax_total shrinks after a return)", () => {
  it("rate % × (unit price × quantity − adjustments), over every tax line, exact", () => {
    // 3 × 49.99 at 6 %: 8.9982 → 9.00 charged; Medusa shows 6.00 once one unit came back
    expect(cents(fullItemTax({ unitPrice: "49.99", quantity: 3, adjustments: [], rates: ["6"] }))).toBe(900)
    expect(fullItemTax({ unitPrice: 10, quantity: 2, adjustments: ["1.5", "0.5"], rates: ["6", "1.25"] })).toBe("1.305")
    expect(fullItemTax({ unitPrice: 10, quantity: 2, adjustments: [], rates: [] })).toBe("0")
  })

  it("a tax-inclusive price: the tax inside it, price × rate ÷ (1 + rate), as Medusa computes it", () => {
    // $112 shown in Albany, NY: net 107.15 + 4.85 tax (the rate the provider hands Medusa for it)
    expect(cents(fullItemTax({ unitPrice: 112, quantity: 1, adjustments: [], rates: ["4.5263"], taxInclusive: true }))).toBe(485)
    expect(cents(fullItemTax({ unitPrice: 112, quantity: 1, adjustments: [], rates: ["4.5263"] }))).toBe(507)
  })
})

describe("tax refunded to customers, rounded as the service does", () => {
  it("partial refunds round each refund; the one that completes the line takes the exact rest", () => {
    expect(lineRefundedCents(100, 3, [1])).toBe(33)
    expect(lineRefundedCents(100, 3, [1, 1])).toBe(66)
    expect(lineRefundedCents(100, 3, [1, 1, 1])).toBe(100)
    expect(lineRefundedCents(100, 3, [2, 5])).toBe(100) // over-return clamps to the line
    expect(lineRefundedCents(0, 0, [1])).toBe(0)
  })

  it("property: never above the line's tax, and a full return gives exactly the line's tax", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 8 }),
        (tax, qty, parts) => {
          const r = lineRefundedCents(tax, qty, parts)
          expect(r).toBeGreaterThanOrEqual(0)
          expect(r).toBeLessThanOrEqual(tax)
          if (parts.reduce((a, b) => a + b, 0) >= qty) expect(r).toBe(tax)
          expect(Number.isInteger(r)).toBe(true)
        },
      ),
    )
  })

  it("a canceled order refunded the customer everything; returns are applied in the order they happened", () => {
    expect(customerRefundedCents(order({ canceled: true }))).toBe(145)
    const o = order({
      refunds: [
        { key: "ret_2", at: "2026-10-09T00:00:00Z", items: [{ itemId: "ordli_a", quantity: 2 }] },
        {
          key: "ret_1",
          at: "2026-10-08T00:00:00Z",
          items: [
            { itemId: "ordli_a", quantity: 1 },
            { itemId: "shipping:sm_1", quantity: 1 },
          ],
        },
      ],
    })
    expect(customerRefundedCents(o)).toBe(145)
  })
})

describe("reconcileOrder", () => {
  it("filed as charged: no difference, no reason", () => {
    const r = reconcileOrder(order(), [record()])
    expect(r).toMatchObject({ chargedCents: 145, filedCents: 145, differenceCents: 0, reason: null, state: "completed" })
  })

  it("no record: not filed, the whole charged tax is the difference", () => {
    const r = reconcileOrder(order(), [])
    expect(r).toMatchObject({ state: "none", filedCents: 0, differenceCents: 145, reason: "not_filed" })
  })

  it("a return refunded to the customer but not at the service: refund_not_filed", () => {
    const o = order({ refunds: [{ key: "ret_1", at: null, items: [{ itemId: "ordli_a", quantity: 1 }] }] })
    expect(reconcileOrder(o, [record()])).toMatchObject({
      customerRefundedCents: 33,
      serviceRefundedCents: 0,
      differenceCents: -33,
      reason: "refund_not_filed",
    })
    const done = reconcileOrder(o, [record({ refunds: [{ key: "ret_1", state: "refunded", refundedCents: 33 }] })])
    expect(done).toMatchObject({ serviceRefundedCents: 33, differenceCents: 0, reason: null })
    // a pending refund row does not count as refunded
    expect(reconcileOrder(o, [record({ refunds: [{ key: "ret_1", state: "pending", refundedCents: 33 }] })]).reason).toBe(
      "refund_not_filed",
    )
  })

  it("a refund without a return: its tax part is refunded to the customer; filed as a credit it counts as refunded at the service", () => {
    const o = order({ manualRefunds: [{ refundId: "ref_1", taxCents: 20 }] })
    expect(reconcileOrder(o, [record()])).toMatchObject({ customerRefundedCents: 20, differenceCents: -20, reason: "refund_not_filed" })
    const credit = record({ orderId: "credit_ref_1", parentOrderId: "order_1", kind: "credit", filedCents: 20 })
    const m = reconcileMonth("2026-10", [o], [record(), credit])
    expect(m.rows[0]).toMatchObject({ filedCents: 145, serviceRefundedCents: 20, differenceCents: 0, reason: null })
  })

  it("a failed record is listed even when the amounts agree, with its last error", () => {
    const r = reconcileOrder(order(), [record({ state: "failed", lastError: "complete: HTTP 503" })])
    expect(r).toMatchObject({ differenceCents: 0, reason: "failed", detail: "complete: HTTP 503" })
  })

  it("filed ≠ charged (an edit raised the tax): amount_mismatch; a canceled, voided order balances", () => {
    expect(reconcileOrder(order(), [record({ filedCents: 120 })])).toMatchObject({ differenceCents: 25, reason: "amount_mismatch" })
    expect(reconcileOrder(order({ canceled: true }), [record({ voided: true, state: "voided" })])).toMatchObject({
      differenceCents: 0,
      reason: null,
      filedCents: 0,
    })
  })

  it("an exchange's own record (parent = the order) counts towards the order", () => {
    const o = order({ lines: [...order().lines, { id: "ordli_new", taxCents: 50, quantity: 1 }] })
    const m = reconcileMonth("2026-10", [o], [record(), record({ orderId: "oexc_1", parentOrderId: "order_1", filedCents: 50 })])
    expect(m.rows[0]).toMatchObject({ chargedCents: 195, filedCents: 195, differenceCents: 0 })
  })
})

describe("reconcileMonth and CSV", () => {
  const orders = [
    order(),
    order({ orderId: "order_2", displayId: 2, createdAt: "2026-10-20T00:00:00Z" }),
    order({ orderId: "order_3", displayId: 3, createdAt: "2026-11-01T00:00:00Z" }),
  ]
  const records = [record(), record({ orderId: "order_3" })]

  it("sums the month's orders only, and lists each difference", () => {
    const m = reconcileMonth("2026-10", orders, records)
    expect(m).toMatchObject({ orders: 2, chargedCents: 290, filedCents: 145, differenceCents: 145 })
    expect(m.differences.map((d) => [d.orderId, d.reason])).toEqual([["order_2", "not_filed"]])
  })

  it("CSV: header, one row per order, a total; fields escaped, formulas defused, negatives kept", () => {
    const m = reconcileMonth("2026-10", orders, records)
    const csv = monthCsv(m).split("\r\n")
    expect(csv[0]).toBe(
      "order_id,display_id,created_at,filing_state,tax_charged,tax_filed,tax_refunded_to_customer,tax_refunded_at_service,difference,reason,detail",
    )
    expect(csv[2]).toMatch(
      /^order_2,2,2026-10-20T00:00:00Z,none,1\.45,0\.00,0\.00,0\.00,1\.45,not_filed,"Not filed: the order has no filing record \(event lost, or placed before filing started\)"$/,
    )
    expect(csv[3]).toBe("TOTAL,2,2026-10,,2.90,1.45,0.00,0.00,1.45,,1 differences")
    expect(csv).toHaveLength(5)
    expect(csvField('say "hi", ok')).toBe('"say ""hi"", ok"')
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)")
    expect(csvField("-0.33")).toBe("-0.33")
  })
})

describe("US orders listed apart (issue 26, 27)", () => {
  const untaxed = (over: Partial<OrderFacts> = {}) =>
    order({
      lines: [{ id: "ordli_a", taxCents: 0, quantity: 2 }],
      usAddress: true,
      taxed: false,
      currencyCode: "usd",
      salesCents: 11000,
      ...over,
    })

  it("attentionOf: a US order without a tax line, or in another currency; canceled, taxed or not US: none", () => {
    expect(attentionOf(untaxed())).toBe("us_without_tax")
    expect(attentionOf(untaxed({ currencyCode: "EUR", taxed: true }))).toBe("currency_not_usd")
    expect(attentionOf(untaxed({ canceled: true }))).toBeNull()
    expect(attentionOf(untaxed({ taxed: true }))).toBeNull()
    expect(attentionOf(untaxed({ usAddress: false, currencyCode: "eur" }))).toBeNull()
    // facts from before these fields: nothing listed
    expect(attentionOf(order())).toBeNull()
  })

  it("the month: a line of each (count, sales; per currency for the others), their rows, and the CSV lists them", () => {
    const orders = [
      untaxed(),
      untaxed({ orderId: "order_2", displayId: 2, salesCents: 2550 }),
      untaxed({ orderId: "order_3", displayId: 3, currencyCode: "eur", salesCents: 999 }),
      order({ orderId: "order_4", displayId: 4, usAddress: true, taxed: true, currencyCode: "usd" }),
    ]
    const recs = [
      record({
        state: "needs_attention",
        filed: false,
        filedCents: 0,
        lastError: "US shipping address (TX 78701) but no tax was charged at checkout",
      }),
      record({ orderId: "order_4" }),
    ]
    const m = reconcileMonth("2026-10", orders, recs)
    expect(m.usWithoutTax).toMatchObject({ orders: 2, salesCents: 13550 })
    expect(m.usWithoutTax.rows.map((r) => [r.orderId, r.state, r.recordDetail])).toEqual([
      ["order_1", "needs_attention", "US shipping address (TX 78701) but no tax was charged at checkout"],
      ["order_2", "none", null],
    ])
    expect(m.nonUsd).toMatchObject({ orders: 1, byCurrency: [{ currency: "EUR", orders: 1, salesCents: 999 }] })
    expect(attentionSummary(m)).toEqual({
      usWithoutTax: "US orders without tax: 2, sales $135.50",
      nonUsd: "US orders not in USD: 1 (sales EUR 9.99)",
    })
    // nothing charged, nothing filed: not a difference
    expect(m.differences).toEqual([])
    const csv = monthCsv(m).split("\r\n")
    expect(csv[1]).toBe(
      "order_1,1,2026-10-05T12:00:00.000Z,needs_attention,0.00,0.00,0.00,0.00,0.00,us_without_tax,US order without tax: no tax was charged at checkout; US shipping address (TX 78701) but no tax was charged at checkout",
    )
    expect(csv[3]).toContain(",currency_not_usd,US order in a currency other than USD: the plugin files USD only")
    expect(csv.slice(-3)).toEqual([
      'US_WITHOUT_TAX,2,2026-10,,,,,,,,"US orders without tax: 2, sales $135.50"',
      "NOT_USD,1,2026-10,,,,,,,,US orders not in USD: 1 (sales EUR 9.99)",
      "",
    ])
  })

  it("a needs_attention record with tax charged is a difference of its own; a re-quoted filing's is 'requoted', not a mismatch", () => {
    const eur = order({ usAddress: true, taxed: true, currencyCode: "eur" })
    const waiting = record({ state: "needs_attention", filed: false, filedCents: 0, lastError: "currency EUR: the plugin files USD only" })
    expect(reconcileOrder(eur, [waiting])).toMatchObject({
      reason: "needs_attention",
      detail: "currency EUR: the plugin files USD only",
      attention: "currency_not_usd",
    })
    const requoted = record({ filedCents: 908, requoted: true })
    expect(reconcileOrder(untaxed(), [requoted])).toMatchObject({ differenceCents: -908, reason: "requoted", attention: "us_without_tax" })
    expect(reconcileOrder(untaxed(), [record({ filedCents: 908 })]).reason).toBe("amount_mismatch")
  })

  it("a record that filed other than its own lines, or a re-quote whose owed figure is not what is filed, is a mismatch even when the order's totals agree", () => {
    // an edit refiled a re-quoted order at Medusa's 0 while the record still says 11.70 owed: totals 0 = 0
    const stale = record({ filedCents: 0, linesCents: 0, owedCents: 1170, requoted: true })
    expect(reconcileOrder(untaxed(), [stale])).toMatchObject({
      differenceCents: 0,
      reason: "amount_mismatch",
      detail: "Tax filed differs from the tax charged: order_1 filed $0.00, its lines $0.00, owed after its re-quote $11.70",
    })
    const off = record({ filedCents: 145, linesCents: 100 })
    expect(reconcileOrder(order(), [off])).toMatchObject({ differenceCents: 0, reason: "amount_mismatch" })
    // consistent records: no reason (and a re-quote keeps its own reason)
    expect(reconcileOrder(order(), [record({ linesCents: 145 })]).reason).toBeNull()
    const owed = record({ filedCents: 908, linesCents: 908, owedCents: 908, requoted: true })
    expect(reconcileOrder(untaxed(), [owed]).reason).toBe("requoted")
    // not filed yet, voided, or a credit: nothing to compare
    expect(
      reconcileOrder(order(), [record(), record({ orderId: "x", parentOrderId: "order_1", voided: true, filedCents: 5, linesCents: 9 })])
        .reason,
    ).toBeNull()
  })
})
