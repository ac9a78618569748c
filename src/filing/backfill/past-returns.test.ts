/** A historical order's plain returns as the refunds the backfill files (pure). */
import { pastReturns } from "./medusa"
import type { ReturnRow } from "../order-rows"

describe("pastReturns", () => {
  it("received plain returns only, oldest first, with their received quantities and the shipping of one that refunds it", () => {
    const rows: ReturnRow[] = [
      { id: "ret_late", order_id: "o", received_at: "2026-04-02T00:00:00Z", items: [{ item_id: "li_1", received_quantity: 1 }] },
      {
        id: "ret_early",
        order_id: "o",
        received_at: "2026-04-01T00:00:00Z",
        metadata: { refund_shipping: "true" },
        items: [
          { item_id: "li_1", received_quantity: "2" },
          { item_id: "li_2", received_quantity: 0 },
        ],
      },
      { id: "ret_claim", order_id: "o", claim_id: "claim_1", items: [{ item_id: "li_1", received_quantity: 1 }] },
      { id: "ret_exchange", order_id: "o", exchange_id: "exc_1", items: [{ item_id: "li_1", received_quantity: 1 }] },
      { id: "ret_canceled", order_id: "o", canceled_at: "2026-04-01T00:00:00Z", items: [{ item_id: "li_1", received_quantity: 1 }] },
      { id: "ret_none_received", order_id: "o", items: [{ item_id: "li_1", received_quantity: 0 }] },
    ]
    expect(pastReturns(rows, ["shipping:sm_1"])).toEqual([
      {
        key: "ret_early",
        items: [
          { itemId: "li_1", quantity: 2 },
          { itemId: "shipping:sm_1", quantity: 1 },
        ],
        returnedAt: "2026-04-01T00:00:00.000Z",
      },
      { key: "ret_late", items: [{ itemId: "li_1", quantity: 1 }], returnedAt: "2026-04-02T00:00:00.000Z" },
    ])
    expect(pastReturns(null, [])).toEqual([])
  })
})
