/**
 * Refunds without a return (issue 13): the part of each refund Medusa books as a credit line, in
 * any order with returns, claims, exchanges and edits, and the tax kept once a credit is filed.
 */
import fc from "fast-check"
import { dec, roundCents } from "../../packages/contract/src/money"
import { creditTax, refundCreditParts, type CreditLineFact, type RefundFact } from "./refunds"

const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString()

type Ev =
  | { kind: "owe"; cents: number } // a return received, a refund claim, an edit that lowered the order: the store owes more
  | { kind: "charge"; cents: number } // an edit that added a line, a dearer exchange or replacement: the customer owes more
  | { kind: "refund"; cents: number; reason: string | null }
  | { kind: "storeCredit"; cents: number } // a credit line some other flow made (not a refund's)

/**
 * Medusa 2.21's books over a life (the order paid in full first, pending_difference 0), as
 * refundPaymentWorkflow and OrderChangeProcessing keep them: a refund pays back what is owed
 * (-pending) first and the rest becomes a credit line; the refund's transaction raises pending by
 * its amount, the credit line lowers current_order_total (pending) by its own.
 */
function medusaBooks(events: Ev[]) {
  let pending = dec(0)
  let version = 2 // placed, captured
  const refunds: RefundFact[] = []
  const lines: CreditLineFact[] = []
  const credit = new Map<string, number>()
  events.forEach((e, i) => {
    const amount = dec(e.cents).div(100)
    // every order change (a return, an edit, an exchange, a credit line) makes a new order version; a refund does not
    if (e.kind === "owe") {
      pending = pending.minus(amount)
      version++
    } else if (e.kind === "charge") {
      pending = pending.plus(amount)
      version++
    } else if (e.kind === "storeCredit") {
      lines.push({ id: `cl_${i}`, amount: amount.toNumber(), version: ++version, reference: "store-credit" })
      pending = pending.minus(amount)
    } else {
      const id = `ref_${i}`
      refunds.push({ id, amount: amount.toNumber(), createdAt: at(i), version, reasonLabel: e.reason })
      const owed = pending.lt(0) ? pending.negated() : dec(0)
      const part = pending.lt(0) ? (amount.gt(owed) ? amount.minus(owed) : dec(0)) : amount
      pending = pending.plus(amount)
      credit.set(id, part.toNumber())
      if (part.gt(0)) {
        // the credit line is the same workflow's next write: an order change, in the next version
        lines.push({ id: `cl_${i}`, amount: part.toNumber(), version: ++version, reference: e.reason ?? "payment_collection" })
        pending = pending.minus(part)
      }
    }
  })
  return { refunds, lines, credit }
}

const evArb: fc.Arbitrary<Ev> = fc.oneof(
  fc.record({ kind: fc.constant("owe" as const), cents: fc.integer({ min: 1, max: 6000 }) }),
  fc.record({ kind: fc.constant("charge" as const), cents: fc.integer({ min: 1, max: 6000 }) }),
  fc.record({
    kind: fc.constant("refund" as const),
    cents: fc.integer({ min: 1, max: 6000 }),
    reason: fc.constantFrom(null, null, "Goodwill"),
  }),
  fc.record({ kind: fc.constant("storeCredit" as const), cents: fc.integer({ min: 1, max: 3000 }) }),
)

describe("refunds without a return: Medusa's credit line of each refund", () => {
  it("a refund without a return, then a return and its refund: the first stays a credit, the second pays the return back", () => {
    // $9 goodwill (nothing owed: a credit line of 9), a $20 return received (owed 20 in full: the credit
    // line lowered the order), the $20 refund of it (pays what is owed: no credit line)
    const b = medusaBooks([
      { kind: "refund", cents: 900, reason: null },
      { kind: "owe", cents: 2000 },
      { kind: "refund", cents: 2000, reason: null },
    ])
    expect([...b.credit.entries()]).toEqual([
      ["ref_0", 9],
      ["ref_2", 0],
    ])
    expect([...refundCreditParts(b.refunds, b.lines).entries()]).toEqual([
      ["ref_0", 9],
      ["ref_2", 0],
    ])
  })

  it("a return, then a larger refund: the part beyond what is owed is the refund without a return", () => {
    const b = medusaBooks([
      { kind: "owe", cents: 2000 },
      { kind: "refund", cents: 2500, reason: null },
    ])
    expect([...refundCreditParts(b.refunds, b.lines).entries()]).toEqual([["ref_1", 5]])
  })

  it("Medusa 2.21's own books (filing.spec, lifecycle): credit lines copied into every version, matched by the version they were created in", () => {
    // as read from a real order: $9 refunded in version 3 (credit line created in 4), a lamp returned (versions 5, 6),
    // $54.99 refunded in version 6 of which $52.99 paid the return back (credit line of 2.00000012 created in 7)
    const refunds: RefundFact[] = [
      { id: "ref_9", amount: 9, createdAt: "2026-11-22T22:15:34.700Z", version: 3 },
      { id: "ref_54", amount: 54.99, createdAt: "2026-11-22T22:15:40.500Z", version: 6 },
    ]
    const lines: CreditLineFact[] = [
      { id: "ordcl_1", amount: 9, version: 4, reference: "payment_collection" },
      { id: "ordcl_2", amount: 2.00000012, version: 7, reference: "payment_collection" },
    ]
    expect([...refundCreditParts(refunds, lines).entries()]).toEqual([
      ["ref_9", 9],
      ["ref_54", 2],
    ])
  })

  it("a refund the order's books never saw (the Payment Module called directly: no order transaction) is wholly without a return", () => {
    const refunds: RefundFact[] = [
      { id: "ref_direct", amount: 5, createdAt: at(1), version: null },
      { id: "ref_flow", amount: 3, createdAt: at(2), version: 4 },
    ]
    const lines: CreditLineFact[] = [{ id: "cl_1", amount: 3, version: 5, reference: "payment_collection" }]
    expect([...refundCreditParts(refunds, lines).entries()]).toEqual([
      ["ref_direct", 5],
      ["ref_flow", 3],
    ])
  })

  it("a credit line another flow made is nobody's refund; a refund reason is matched by its label", () => {
    const refunds: RefundFact[] = [
      { id: "ref_a", amount: 5, createdAt: at(1), version: 3, reasonLabel: "Goodwill" },
      { id: "ref_b", amount: 3, createdAt: at(2), version: 4, reasonLabel: null },
    ]
    const lines: CreditLineFact[] = [
      { id: "cl_x", amount: 4, version: 3, reference: "payment_collection" }, // before any refund
      { id: "cl_a", amount: 5, version: 4, reference: "Goodwill" },
      { id: "cl_y", amount: 2, version: 5, reference: "store-credit" },
    ]
    expect([...refundCreditParts(refunds, lines).entries()]).toEqual([
      ["ref_a", 5],
      ["ref_b", 0],
    ])
  })

  it("property: over any order of refunds, returns, edits, exchanges and other credit lines, each refund's part is Medusa's credit line, and a later event never changes an earlier refund's part", () => {
    fc.assert(
      fc.property(fc.array(evArb, { minLength: 1, maxLength: 12 }), (events) => {
        const b = medusaBooks(events)
        const parts = refundCreditParts(b.refunds, b.lines)
        expect([...parts.entries()]).toEqual([...b.credit.entries()])
        // stability: what was decided when a refund was made (and maybe filed) is what is decided after anything else
        for (let n = 1; n < events.length; n++) {
          const early = medusaBooks(events.slice(0, n))
          for (const [id, part] of refundCreditParts(early.refunds, early.lines)) expect([id, parts.get(id)]).toEqual([id, part])
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe("the tax of a refund without a return", () => {
  it("before it is filed: the part × tax ÷ total before credit lines; once filed: what was filed, whatever the order became", () => {
    expect(creditTax(7, 13.2, 233, null)).toBe(0.4)
    expect(creditTax(7, 9.1, 180, 0.4)).toBe(0.4)
    expect(creditTax(0, 13.2, 233, null)).toBe(0)
    expect(creditTax(7, 13.2, 0, null)).toBe(0)
    expect(roundCents(dec(7).times(9.1).div(180))).toBe(0.35) // what recomputing after a return would have said
  })
})
