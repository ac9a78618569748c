/** The exemption of a filing snapshot reaches both filing requests. */
import { directOrderRequest, requoteRequest } from "./decisions"
import type { FilingSnapshot } from "../modules/sales-tax-filing/types"

const CERT = "5f0c1a4e-0000-4000-8000-00000000000a"
describe("the snapshot's exemption reaches the service", () => {
  const snap: FilingSnapshot = {
    orderId: "order_1",
    kind: "order",
    cartId: "cart_1",
    customerId: "cus_1",
    currencyCode: "usd",
    placedAt: "2026-11-21T10:00:00.000Z",
    origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
    destination: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
    exemptionId: CERT,
    lines: [
      {
        index: 0,
        itemId: "item_1",
        kind: "item",
        price: 10,
        quantity: 2,
        tic: 0,
        productId: null,
        chargedTax: 0,
        chargedRate: 0,
        fallback: false,
      },
    ],
  }
  it("re-quote and direct order carry exemption.exemptionId; none without", () => {
    expect(requoteRequest(snap).items[0]!.exemption).toEqual({ exemptionId: CERT })
    expect(directOrderRequest(snap, { completed: true, completedDate: snap.placedAt }).exemption).toEqual({
      exemptionId: CERT,
    })
    expect(requoteRequest({ ...snap, exemptionId: null }).items[0]!.exemption).toBeUndefined()
  })
})
