import { callIds } from "./index"

describe("callIds: the Medusa ids of a call, for the service-call log", () => {
  it("POST carts names its Medusa cart by the first service cart's cartId", () => {
    expect(
      callIds(
        {},
        {
          items: [
            { cartId: "cart_01", customerId: "g", lineItems: [] },
            { cartId: "cart_01", lineItems: [] },
          ],
        },
      ),
    ).toEqual({ cartId: "cart_01" })
  })
  it("cart to order: cart and order; a refund: the order from the path and its idempotency key", () => {
    expect(callIds({}, { cartId: "cart_02", orderId: "order_02" })).toEqual({ cartId: "cart_02", orderId: "order_02" })
    expect(callIds({ orderId: "order_03" }, { idempotencyKey: "return_03", items: [] })).toEqual({
      orderId: "order_03",
      refundKey: "return_03",
    })
  })
  it("path parameters win; no ids, no keys", () => {
    expect(callIds({ cartId: "cart_04" }, { cartId: "cart_x" })).toEqual({ cartId: "cart_04" })
    expect(callIds({ connectionId: "c" }, undefined)).toEqual({})
  })
})
