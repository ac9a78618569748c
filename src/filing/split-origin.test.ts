import { splitByOrigin } from "./snapshot"
import { originServiceId } from "../service/origins/origins"
import type { FilingLine, FilingSnapshot } from "../modules/sales-tax-filing/types"

const OPTION = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const AUSTIN = { line1: "500 Congress Ave", city: "Austin", state: "TX", zip: "78701" }
const line = (itemId: string, index: number, kind: FilingLine["kind"] = "item"): FilingLine => ({
  index,
  itemId,
  kind,
  price: 10,
  quantity: 1,
  tic: 0,
  chargedTax: 1,
  chargedRate: 0.1,
  fallback: false,
})
const snapshot: FilingSnapshot = {
  orderId: "order_01",
  kind: "order",
  parentOrderId: null,
  cartId: "cart_01",
  customerId: "cus_1",
  currencyCode: "USD",
  placedAt: "2026-11-22T00:00:00.000Z",
  origin: OPTION,
  destination: AUSTIN,
  connectionId: "bbbbbbbb-2222-4333-8444-555555555555",
  lines: [line("lamp", 0), line("shirt", 1), line("shipping:sm_1", 2, "shipping"), line("shipping:sm_2", 3, "shipping")],
}

describe("filing: one service order per origin", () => {
  it("splits the lines by the origin recorded on their tax lines: the first keeps the Medusa ids, the others derived ids and the order as parent", () => {
    const origins: Record<string, { locationId: string | null; address: typeof OPTION }> = {
      lamp: { locationId: "sloc_a", address: OPTION },
      "shipping:sm_1": { locationId: "sloc_a", address: OPTION },
      shirt: { locationId: "sloc_b", address: AUSTIN },
      "shipping:sm_2": { locationId: "sloc_b", address: AUSTIN },
    }
    const parts = splitByOrigin(snapshot, (id) => origins[id] ?? null)
    expect(parts.map((p) => [p.orderId, p.cartId, p.parentOrderId, p.origin.state, p.lines.map((l) => [l.itemId, l.index])])).toEqual([
      [
        "order_01",
        "cart_01",
        null,
        "WA",
        [
          ["lamp", 0],
          ["shipping:sm_1", 1],
        ],
      ],
      [
        originServiceId("order_01", "sloc_b", false),
        originServiceId("cart_01", "sloc_b", false),
        "order_01",
        "TX",
        [
          ["shirt", 0],
          ["shipping:sm_2", 1],
        ],
      ],
    ])
    // everything else is the order's (the connection, the customer, the destination)
    for (const p of parts)
      expect(p).toMatchObject({ connectionId: snapshot.connectionId, customerId: "cus_1", destination: AUSTIN, kind: "order" })
  })

  it("an exchange's new items from two locations: the exchange keeps its id, the other origin's order is `<exchange id>~<8 hex>`, both with the Medusa order as parent", () => {
    const exchange: FilingSnapshot = { ...snapshot, orderId: "oexc_1", kind: "exchange", parentOrderId: "order_01", cartId: null }
    const at: Record<string, { locationId: string; address: typeof OPTION }> = {
      lamp: { locationId: "sloc_a", address: OPTION },
      shirt: { locationId: "sloc_b", address: AUSTIN },
    }
    const parts = splitByOrigin({ ...exchange, lines: [line("lamp", 0), line("shirt", 1)] }, (id) => at[id] ?? null)
    expect(parts.map((p) => [p.orderId, p.kind, p.parentOrderId, p.cartId, p.origin.state])).toEqual([
      ["oexc_1", "exchange", "order_01", null, "WA"],
      [originServiceId("oexc_1", "sloc_b", false), "exchange", "order_01", null, "TX"],
    ])
  })

  it("one origin, or none recorded (an order from before): one snapshot, unchanged ids", () => {
    const one = splitByOrigin(snapshot, () => ({ locationId: "sloc_b", address: AUSTIN }))
    expect(one).toHaveLength(1)
    expect(one[0]).toMatchObject({ orderId: "order_01", cartId: "cart_01", origin: AUSTIN })
    expect(one[0]!.lines).toEqual(snapshot.lines)
    const none = splitByOrigin(snapshot, () => null)
    expect(none).toEqual([snapshot])
  })
})

describe("filing: a line never quoted (a gift card) ships with the quoted lines", () => {
  it("a lamp and shipping quoted from a location, two gift cards never quoted: one service order under the Medusa ids, every line on it", () => {
    const s: FilingSnapshot = {
      ...snapshot,
      lines: [line("card_1", 0), line("lamp", 1), line("card_2", 2), line("shipping:sm_1", 3, "shipping")].map((l) =>
        l.itemId.startsWith("card") ? { ...l, tic: 10005, chargedTax: 0 } : l,
      ),
    }
    const quoted = { locationId: "sloc_a", address: AUSTIN }
    const parts = splitByOrigin(s, (id) => (id.startsWith("card") ? null : quoted))
    expect(parts.map((p) => [p.orderId, p.cartId, p.origin.state, p.lines.map((l) => l.itemId)])).toEqual([
      ["order_01", "cart_01", "TX", ["card_1", "lamp", "card_2", "shipping:sm_1"]],
    ])
  })
  it("two quoted origins: the never-quoted lines go with the first (the one keeping the Medusa ids)", () => {
    const at: Record<string, { locationId: string; address: typeof OPTION }> = {
      lamp: { locationId: "sloc_b", address: AUSTIN },
      shirt: { locationId: "sloc_a", address: OPTION },
    }
    const parts = splitByOrigin({ ...snapshot, lines: [line("card", 0), line("lamp", 1), line("shirt", 2)] }, (id) => at[id] ?? null)
    expect(parts.map((p) => [p.orderId, p.lines.map((l) => l.itemId)])).toEqual([
      ["order_01", ["card", "shirt"]],
      [originServiceId("order_01", "sloc_b", false), ["lamp"]],
    ])
  })
})
