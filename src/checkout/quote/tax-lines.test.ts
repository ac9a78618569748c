/**
 * getTaxLines builds its tax lines in one pass (taxLines, tax-lines.ts: the snapshot's k-th line first, else by
 * id; each line's object written once). This property compares it with the loop it replaced (by id
 * through Maps, the line's fields spread together), kept here as it was, so that the rewrite gives
 * the same lines, in the same order, with the same keys in the same order.
 */
import fc from "fast-check"
import type { ItemTaxCalculationLine, ShippingTaxCalculationLine } from "@medusajs/framework/types"
import { taxLines } from "./tax-lines"
import type { Quote } from "./quote-types"
import { CartSnapshot } from "../../service/cart/context"
import {
  SALES_TAX_PROVIDER_IDENTIFIER,
  SHIPPING_ITEM_PREFIX,
  TAX_LINE_CODE,
  TAX_LINE_CODE_EXEMPT,
  TAX_LINE_NAME,
  TAX_LINE_NAME_EXEMPT,
} from "../../constants"
import { dec } from "../../../packages/contract/src/money"
import { itemFigures, itemTaxable, shippingFigures } from "../../service/cart/build-service-cart"
import { solvedRate } from "../inclusive/back-solve"
import { backSolveInclusiveRate } from "../inclusive/inclusive"

type QuoteLine = Quote["lines"][string]

/** The tax line's code, name, provider and data, as the replaced loop wrote them. */
function lineMeta(q: QuoteLine, exempt: boolean, quote: Quote) {
  const isExemptLine = exempt && q.amount === 0
  return {
    code: isExemptLine ? TAX_LINE_CODE_EXEMPT : TAX_LINE_CODE,
    name: isExemptLine ? TAX_LINE_NAME_EXEMPT : TAX_LINE_NAME,
    provider_id: SALES_TAX_PROVIDER_IDENTIFIER,
    data: {
      amount: q.amount,
      service_rate: q.rate,
      tic: q.tic,
      cart_hash: quote.hash,
      exemption_id: quote.exemptionId,
      ...(q.origin ? { origin_location_id: q.origin.locationId, origin: q.origin.address } : {}),
      ...(quote.exemptionId ? { exemption_basis: quote.exemptionBasis ?? null, exempt_customer_id: quote.exemptCustomerId ?? null } : {}),
    },
  }
}
function inclusiveLine(
  l: { price: ReturnType<typeof dec>; quantity: string; discount: string },
  q: QuoteLine,
  exempt: boolean,
  quote: Quote,
) {
  const solved = backSolveInclusiveRate({
    price: l.price,
    quantity: l.quantity,
    inclusiveDiscount: l.discount,
    amount: q.amount,
    displayRatePct: dec(q.rate).times(100).toNumber(),
  })
  const base = lineMeta(q, exempt, quote)
  return {
    ...base,
    rate: solved.rate,
    data: { ...base.data, tax_inclusive: true, net: q.net ?? null, inclusive_residual: q.residual ?? "0" },
  }
}
function line(fig: { taxable: ReturnType<typeof dec>; taxableKey?: string }, q: QuoteLine, exempt: boolean, quote: Quote) {
  const { taxable } = fig
  const solved = solvedRate(
    { taxable, amount: q.amount, displayRatePct: taxable.isZero() ? dec(q.rate).times(100).toNumber() : 0 },
    fig.taxableKey,
  )
  return { ...lineMeta(q, exempt, quote), rate: solved.rate }
}

/** The replaced loop (commit 18b65c5's, lines looked up by id). */
function before(snapshot: CartSnapshot, itemLines: ItemTaxCalculationLine[], shippingLines: ShippingTaxCalculationLine[], quote: Quote) {
  const lines: unknown[] = []
  const exempt = !!quote.exemptionId
  const items = new Map(snapshot.items.map((i) => [i.id, i]))
  for (const l of itemLines) {
    const it = items.get(l.line_item.id)
    const q = quote.lines[l.line_item.id]
    if (!it || !q) continue // quantity 0: no line
    const out = it.is_tax_inclusive
      ? inclusiveLine({ price: dec(it.unit_price).times(it.quantity), quantity: it.quantity, discount: it.discount }, q, exempt, quote)
      : line(itemFigures(it) ?? { taxable: itemTaxable(it) }, q, exempt, quote)
    lines.push({ ...out, line_item_id: l.line_item.id })
  }
  const ships = new Map(snapshot.shipping_methods.map((s) => [s.id, s]))
  for (const l of shippingLines) {
    const sm = ships.get(l.shipping_line.id)
    const q = quote.lines[`${SHIPPING_ITEM_PREFIX}${l.shipping_line.id}`]
    if (!sm || !q) continue
    const out = sm.is_tax_inclusive
      ? inclusiveLine({ price: dec(sm.amount), quantity: "1", discount: sm.discount }, q, exempt, quote)
      : line(shippingFigures(sm), q, exempt, quote)
    lines.push({ ...out, shipping_line_id: l.shipping_line.id })
  }
  return lines
}

const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const deps = { providerId: SALES_TAX_PROVIDER_IDENTIFIER, warn() {} }

const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => (c / 100).toFixed(2))
const ids = fc.constantFrom("a", "b", "c", "d")
const shipIds = fc.constantFrom("s1", "s2")
const snapshotArb = fc.record({
  items: fc.uniqueArray(
    fc.record({
      id: ids,
      quantity: fc.constantFrom("0", "1", "2", "3", "1.5"),
      unit_price: cents(50_000),
      discount: cents(500),
      is_tax_inclusive: fc.boolean(),
      tic: fc.option(fc.constantFrom(0, 20010), { nil: null }),
    }),
    { selector: (i) => i.id, maxLength: 4 },
  ),
  shipping_methods: fc.uniqueArray(fc.record({ id: shipIds, amount: cents(5_000), discount: cents(300), is_tax_inclusive: fc.boolean() }), {
    selector: (s) => s.id,
    maxLength: 2,
  }),
})
const answer = fc.record({
  amount: fc.integer({ min: 0, max: 5_000 }).map((c) => c / 100),
  rate: fc.integer({ min: 0, max: 1_200 }).map((r) => r / 10_000),
  tic: fc.option(fc.constantFrom(0, 11010, 20010), { nil: null }),
  withOrigin: fc.boolean(),
})

describe("taxLines", () => {
  it("gives the tax lines the replaced loop gave (same lines, same order, same keys in the same order)", () => {
    fc.assert(
      fc.property(
        snapshotArb,
        // getTaxLines' lines: ids the snapshot may or may not hold, any order, or (as Medusa passes
        // them) the snapshot's own lines in its order
        fc.uniqueArray(ids, { maxLength: 4 }),
        fc.uniqueArray(shipIds, { maxLength: 2 }),
        fc.boolean(),
        fc.dictionary(fc.constantFrom("a", "b", "c", "d", `${SHIPPING_ITEM_PREFIX}s1`, `${SHIPPING_ITEM_PREFIX}s2`), answer),
        fc.option(fc.constantFrom("cert_1"), { nil: null }),
        (snap, anyItemIds, anyShipIds, asMedusa, answers, exemptionId) => {
          const snapshot = CartSnapshot.parse({ v: 1, cart_id: "cart_p", customer_id: null, currency_code: "usd", ...snap })
          const itemIds = asMedusa ? snapshot.items.map((i) => i.id) : anyItemIds
          const shipLineIds = asMedusa ? snapshot.shipping_methods.map((m) => m.id) : anyShipIds
          const itemLines = itemIds.map((id) => ({ line_item: { id, product_id: "p", quantity: 1, unit_price: 1 }, rates: [] })) as never
          const shippingLines = shipLineIds.map((id) => ({ shipping_line: { id, unit_price: 1 }, rates: [] })) as never
          const lines: Quote["lines"] = {}
          for (const [k, a] of Object.entries(answers))
            lines[k] = {
              amount: a.amount,
              rate: a.rate,
              tic: a.tic,
              ...(a.withOrigin ? { origin: { locationId: "sloc_1", address: origin } } : {}),
            }
          const quote: Quote = {
            hash: "h",
            exemptionId,
            lines,
            ...(exemptionId ? { exemptionBasis: "authenticated_customer", exemptCustomerId: "cus_1" } : {}),
          }
          const got = taxLines(snapshot, itemLines, shippingLines, quote, deps)
          const want = before(snapshot, itemLines, shippingLines, quote)
          expect(got).toEqual(want)
          expect(JSON.stringify(got)).toBe(JSON.stringify(want))
        },
      ),
      // 500 (was 1,500): up to 4 items and 2 shipping lines, ids present or not, Medusa's order or any:
      // each combination of the small domains above is drawn many times over
      { numRuns: 500 },
    )
  })
})
