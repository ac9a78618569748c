/**
 * getTaxLines builds its tax lines in two steps since issue 15: prepareLines (everything but the
 * quote, run while the service computes its answer) and taxLines (the quote's figures). This
 * property compares them with the single loop they replace, kept here as it was.
 */
import fc from "fast-check"
import type { ItemTaxCalculationLine, ShippingTaxCalculationLine } from "@medusajs/framework/types"
import { SalesTaxProviderService, type Quote } from "./service"
import { CartSnapshot } from "../../core/context"
import { SHIPPING_ITEM_PREFIX } from "../../core/constants"
import { dec } from "../../money"
import { itemFigures, itemTaxable, shippingFigures } from "../../core/build-service-cart"

class Probe extends SalesTaxProviderService {
  /** The new path: prepareLines, then taxLines. */
  split(snapshot: CartSnapshot, items: ItemTaxCalculationLine[], ships: ShippingTaxCalculationLine[], quote: Quote) {
    return this.taxLines(this.prepareLines(snapshot, items, ships), quote)
  }
  /** getTaxLines' loop before the split (commit 18b65c5), verbatim but for `this`. */
  before(snapshot: CartSnapshot, itemLines: ItemTaxCalculationLine[], shippingLines: ShippingTaxCalculationLine[], quote: Quote) {
    const lines: unknown[] = []
    const exempt = !!quote.exemptionId
    const items = new Map(snapshot.items.map((i) => [i.id, i]))
    for (const l of itemLines) {
      const it = items.get(l.line_item.id)
      const q = quote.lines[l.line_item.id]
      if (!it || !q) continue // quantity 0: no line
      const line = it.is_tax_inclusive
        ? this.inclusiveLine(
            { price: dec(it.unit_price).times(it.quantity), quantity: it.quantity, discount: it.discount },
            q,
            exempt,
            quote,
          )
        : this.line(itemFigures(it) ?? { taxable: itemTaxable(it) }, q, exempt, quote)
      lines.push({ ...line, line_item_id: l.line_item.id })
    }
    const ships = new Map(snapshot.shipping_methods.map((s) => [s.id, s]))
    for (const l of shippingLines) {
      const sm = ships.get(l.shipping_line.id)
      const q = quote.lines[`${SHIPPING_ITEM_PREFIX}${l.shipping_line.id}`]
      if (!sm || !q) continue
      const line = sm.is_tax_inclusive
        ? this.inclusiveLine({ price: dec(sm.amount), quantity: "1", discount: sm.discount }, q, exempt, quote)
        : this.line(shippingFigures(sm), q, exempt, quote)
      lines.push({ ...line, shipping_line_id: l.shipping_line.id })
    }
    return lines
  }
}

const silent = { info() {}, warn() {}, error() {}, debug() {} }
const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const probe = new Probe(
  { logger: silent as never },
  { connectionId: "00000000-0000-4000-8000-000000taxlines", apiKey: "k", baseUrl: "http://127.0.0.1:9", origin },
)

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

describe("prepareLines + taxLines", () => {
  it("give the tax lines getTaxLines' single loop gave (same lines, same order, same keys in the same order)", () => {
    fc.assert(
      fc.property(
        snapshotArb,
        // getTaxLines' lines: ids the snapshot may or may not hold, any order
        fc.uniqueArray(ids, { maxLength: 4 }),
        fc.uniqueArray(shipIds, { maxLength: 2 }),
        fc.dictionary(fc.constantFrom("a", "b", "c", "d", `${SHIPPING_ITEM_PREFIX}s1`, `${SHIPPING_ITEM_PREFIX}s2`), answer),
        fc.option(fc.constantFrom("cert_1"), { nil: null }),
        (snap, itemIds, shipLineIds, answers, exemptionId) => {
          const snapshot = CartSnapshot.parse({ v: 1, cart_id: "cart_p", customer_id: null, currency_code: "usd", ...snap })
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
          const got = probe.split(snapshot, itemLines, shippingLines, quote)
          const want = probe.before(snapshot, itemLines, shippingLines, quote)
          expect(got).toEqual(want)
          expect(JSON.stringify(got)).toBe(JSON.stringify(want))
        },
      ),
      { numRuns: 1_500 },
    )
  })
})
