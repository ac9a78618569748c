/** The order reader's pure part: each order with its own returns, claims and exchanges. */
import { withParts } from "./order-reader"
import type { ClaimRow, ExchangeRow, OrderRow, ReturnRow } from "./order-rows"

const order = (id: string): OrderRow => ({ id, created_at: "2026-03-01T00:00:00Z", currency_code: "usd" })

describe("withParts", () => {
  it("gives each order its own returns, claims and exchanges, in the orders' order; none: empty lists", () => {
    const returns: ReturnRow[] = [
      { id: "ret_1", order_id: "order_b" },
      { id: "ret_2", order_id: "order_a" },
      { id: "ret_3", order_id: "order_b" },
    ]
    const claims: ClaimRow[] = [{ id: "claim_1", order_id: "order_a", created_at: "2026-03-02T00:00:00Z" }]
    const exchanges: ExchangeRow[] = [{ id: "exc_1", order_id: "order_b", created_at: "2026-03-03T00:00:00Z" }]
    const out = withParts([order("order_a"), order("order_b"), order("order_c")], { returns, claims, exchanges })
    expect(out.map((o) => [o.id, o.returns!.map((r) => r.id), o.claims!.map((c) => c.id), o.exchanges!.map((x) => x.id)])).toEqual([
      ["order_a", ["ret_2"], ["claim_1"], []],
      ["order_b", ["ret_1", "ret_3"], [], ["exc_1"]],
      ["order_c", [], [], []],
    ])
  })
})
