import fc from "fast-check"
import { CartIn } from "../../contract"
import { buildServiceCart, cartHash, normalizeState, normalizeZip, serviceCustomerId, taxableDestination } from "./build-service-cart"
import { CartSnapshot } from "./context"

const origin = { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" }
const dest = { line1: "2 Market St", city: "San Francisco", state: "CA", zip: "94105" }

function snap(over: Partial<Record<string, unknown>> = {}) {
  return CartSnapshot.parse({
    v: 1,
    cart_id: "cart_01ABC",
    customer_id: "cus_1",
    currency_code: "usd",
    items: [
      { id: "item_1", product_id: "prod_1", quantity: 3, unit_price: "10", discount: "1", tic: 20010 },
      { id: "item_2", quantity: "2", unit_price: 5.5, tic: null },
    ],
    shipping_methods: [{ id: "sm_1", amount: "8", discount: "2" }],
    ...over,
  })
}

describe("buildServiceCart", () => {
  it("one service cart: items net of discounts, shipping as a line with the shipping TIC, cartId = Medusa cart id", () => {
    const cart = buildServiceCart({ snapshot: snap(), origin, destination: dest, shippingTic: 11010, defaultTic: 0, exemptionId: null })
    expect(CartIn.safeParse(cart).success).toBe(true)
    expect(cart.cartId).toBe("cart_01ABC")
    expect(cart.customerId).toBe("cus_1")
    expect(cart.currency.currencyCode).toBe("USD")
    expect(cart.exemption).toBeUndefined()
    expect(cart.lineItems).toEqual([
      { index: 0, itemId: "item_1", price: 9.666667, quantity: 3, tic: 20010, productId: "prod_1" },
      { index: 1, itemId: "item_2", price: 5.5, quantity: 2, tic: 0 },
      { index: 2, itemId: "shipping:sm_1", price: 6, quantity: 1, tic: 11010 },
    ])
  })

  it("sends the exemption id and a non-personal customer id for guests", () => {
    const cart = buildServiceCart({ snapshot: snap({ customer_id: null }), origin, destination: dest, shippingTic: 11010, defaultTic: 0, exemptionId: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b" })
    expect(cart.exemption).toEqual({ exemptionId: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b" })
    expect(cart.customerId).toMatch(/^guest_[0-9a-f]{32}$/)
    expect(cart.customerId).toBe(serviceCustomerId(undefined, "cart_01ABC"))
    expect(serviceCustomerId("a@b.com", "cart_01ABC")).toBe(cart.customerId)
  })

  it("hash: equal carts hash equally whatever the key order; any change that moves tax changes it", () => {
    const a = buildServiceCart({ snapshot: snap(), origin, destination: dest, shippingTic: 11010, defaultTic: 0 })
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(reverseKeys) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)])) : v
    const b = reverseKeys(a) as typeof a
    expect(JSON.stringify(b)).not.toBe(JSON.stringify(a))
    expect(cartHash(a, "c")).toBe(cartHash(b, "c"))
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 1, max: 1000 }), (i, cents) => {
        const c = structuredClone(a)
        c.lineItems[i].price = c.lineItems[i].price + cents / 100
        expect(cartHash(c, "c")).not.toBe(cartHash(a, "c"))
      }),
    )
    expect(cartHash({ ...a, destination: { ...dest, zip: "94103" } }, "c")).not.toBe(cartHash(a, "c"))
    expect(cartHash(a, "other-connection")).not.toBe(cartHash(a, "c"))
  })
})

describe("destination checks", () => {
  it("US with a state and a ZIP only", () => {
    expect(taxableDestination({ country_code: "us", province_code: "us-ca", postal_code: "94105" }).address?.state).toBe("CA")
    expect(taxableDestination({ country_code: "US", province_code: "ny", postal_code: "100011234" }).address?.zip).toBe("10001-1234")
    expect(taxableDestination({ country_code: "ca", province_code: "on", postal_code: "K1A 0B1" })).toEqual({ address: null, reason: "not_us" })
    expect(taxableDestination({ country_code: "us", province_code: null, postal_code: "94105" })).toEqual({ address: null, reason: "no_state" })
    expect(taxableDestination({ country_code: "us", province_code: "CA", postal_code: "9410" })).toEqual({ address: null, reason: "no_zip" })
    expect(taxableDestination(undefined)).toEqual({ address: null, reason: "not_us" })
    expect(normalizeState("California")).toBeNull()
    expect(normalizeZip("94105 1234")).toBe("94105-1234")
  })
})
