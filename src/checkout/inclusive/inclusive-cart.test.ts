import BigNumber from "bignumber.js"
import { CartSnapshot, type CartSnapshotInput } from "../../service/cart/context"
import { inclusiveLines, inclusiveMixRefusal, withNets } from "./inclusive-cart"
import { buildServiceCart } from "../../service/cart/build-service-cart"

const WA = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const snap = (over: Partial<CartSnapshotInput> = {}) =>
  CartSnapshot.parse({
    v: 1,
    cart_id: "cart_1",
    currency_code: "usd",
    items: [
      {
        id: "a",
        quantity: "2",
        unit_price: "30",
        discount: "5",
        is_tax_inclusive: true,
        has_tax_inclusive_discount: true,
        inclusive_discount: "5",
      },
      { id: "b", quantity: "0", unit_price: "10", is_tax_inclusive: true },
      { id: "c", quantity: "1", unit_price: "20" },
    ],
    shipping_methods: [{ id: "sm", amount: "8", is_tax_inclusive: true }],
    ...over,
  })

describe("tax-inclusive lines of a cart", () => {
  it("the shown price of each tax-inclusive line (quantity 0 left out), shipping by its service itemId", () => {
    expect(inclusiveLines(snap()).map((l) => [l.itemId, new BigNumber(l.gross as BigNumber.Value).toString()])).toEqual([
      ["a", "55"],
      ["shipping:sm", "8"],
    ])
  })

  it("withNets: the nets as unit prices (net ÷ quantity), the other lines untouched", () => {
    const cart = buildServiceCart({ snapshot: snap(), origin: WA, destination: WA, shippingTic: 11010, defaultTic: 0 })
    const out = withNets(cart, new Map([["a", new BigNumber("50.46")]]))
    expect(out.lineItems.map((l) => [l.itemId, l.price])).toEqual([
      ["a", 25.23],
      ["c", 20],
      ["shipping:sm", 8],
    ])
    expect(cart.lineItems[0].price).toBe(27.5)
  })

  it("refuses only a promotion of the other kind than its line's price; mixed carts pass", () => {
    expect(inclusiveMixRefusal(snap())).toBeNull()
    const exclOnIncl = snap()
    exclOnIncl.items[0].inclusive_discount = "2"
    expect(inclusiveMixRefusal(exclOnIncl)).toMatch(/tax-exclusive promotion on a tax-inclusive price/)
    const inclOnExcl = snap()
    inclOnExcl.items[2].discount = "1"
    inclOnExcl.items[2].has_tax_inclusive_discount = true
    expect(inclusiveMixRefusal(inclOnExcl)).toMatch(/tax-inclusive promotion on a tax-exclusive price/)
    // an older hook without inclusive_discount: the flag means all of the line's promotions
    const older = snap()
    delete older.items[0].inclusive_discount
    expect(inclusiveMixRefusal(older)).toBeNull()
  })
})
