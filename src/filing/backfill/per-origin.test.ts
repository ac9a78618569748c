/**
 * Backfill of an order shipped from several stock locations (issue 16): one service order per
 * origin, each refunded for its own lines under the keys the live filing uses.
 */
import type { FilingLine, FilingSnapshot } from "../../modules/sales-tax-filing/types"
import { originServiceId } from "../../checkout/origins/origins"
import { perOrigin } from "./core"

const line = (itemId: string, index: number, kind: FilingLine["kind"] = "item"): FilingLine => ({
  index,
  itemId,
  kind,
  price: 10,
  quantity: 2,
  tic: 0,
  chargedTax: 1.8,
  chargedRate: 0.09,
  fallback: false,
})
const SEATTLE = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const AUSTIN = { line1: "500 Congress Ave", city: "Austin", state: "TX", zip: "78701" }
const base: FilingSnapshot = {
  orderId: "order_1",
  kind: "order",
  parentOrderId: null,
  cartId: "cart_1",
  customerId: "cus_1",
  currencyCode: "USD",
  placedAt: "2026-03-14T15:00:00.000Z",
  origin: SEATTLE,
  destination: AUSTIN,
  lines: [line("lamp", 0), line("shipping:sm_1", 1, "shipping")],
}
const SIB = originServiceId("order_1", "sloc_austin", false)
const sibling: FilingSnapshot = { ...base, orderId: SIB, parentOrderId: "order_1", origin: AUSTIN, lines: [line("shirt", 0)] }

describe("backfill: an order shipped from several locations", () => {
  it("one order per origin with the same completion; each return split by the origin holding its lines, keyed as the live filing keys it", () => {
    const out = perOrigin("order_1", [base, sibling], "2026-03-16T10:00:00.000Z", [
      {
        key: "ret_1",
        items: [
          { itemId: "lamp", quantity: 1 },
          { itemId: "shirt", quantity: 2 },
        ],
        returnedAt: "2026-04-01T00:00:00.000Z",
      },
      { key: "ret_2", items: [{ itemId: "lamp", quantity: 1 }], returnedAt: null },
    ])
    expect(out.map((o) => [o.snapshot.orderId, o.snapshot.origin.state, o.completedAt])).toEqual([
      ["order_1", "WA", "2026-03-16T10:00:00.000Z"],
      [SIB, "TX", "2026-03-16T10:00:00.000Z"],
    ])
    expect(out[0]!.refunds).toEqual([
      { key: "ret_1", items: [{ itemId: "lamp", quantity: 1 }], returnedAt: "2026-04-01T00:00:00.000Z" },
      { key: "ret_2", items: [{ itemId: "lamp", quantity: 1 }], returnedAt: null },
    ])
    // on the other origin's order: the live filing's key `<return id>:<order id>`, the return id as source
    expect(out[1]!.refunds).toEqual([
      { key: `ret_1:${SIB}`, sourceId: "ret_1", items: [{ itemId: "shirt", quantity: 2 }], returnedAt: "2026-04-01T00:00:00.000Z" },
    ])
  })

  it("one origin: the order as before", () => {
    const r = [{ key: "ret_1", items: [{ itemId: "lamp", quantity: 1 }], returnedAt: null }]
    expect(perOrigin("order_1", [base], null, r)).toEqual([{ snapshot: base, completedAt: null, refunds: r }])
  })
})
