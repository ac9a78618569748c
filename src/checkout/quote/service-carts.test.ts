import { SalesTaxError } from "../../service/client"
import { CartSnapshot } from "../../service/cart/context"
import { originRefusals, quoteOfAnswer, serviceCarts } from "./service-carts"

const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const destination = { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" }
const o = { origin, shippingTic: 11010, defaultTic: 0 }
const portland = { name: "Portland DC", address_1: "1 Dock Rd", city: "Portland", country_code: "us", province: "OR", postal_code: "97201" }
const snap = (over: Record<string, unknown> = {}) =>
  CartSnapshot.parse({
    v: 1,
    cart_id: "cart_1",
    customer_id: null,
    currency_code: "usd",
    items: [
      { id: "a", quantity: "1", unit_price: "10", origin_location_id: "sloc_pdx" },
      { id: "b", quantity: "2", unit_price: "5" },
    ],
    shipping_methods: [{ id: "s1", amount: "8", origin_location_id: "sloc_pdx" }],
    ...over,
  })

describe("serviceCarts", () => {
  it("no locations: one cart from the `origin` option with every line; none when no line has a quantity", () => {
    const carts = serviceCarts(snap(), destination, "cert_1", o)
    expect(carts.map((c) => [c.key, c.cart.cartId, c.cart.origin, c.cart.exemption, c.cart.lineItems.map((l) => l.itemId)])).toEqual([
      ["", "cart_1", origin, { exemptionId: "cert_1" }, ["a", "b", "shipping:s1"]],
    ])
    const empty = snap({ items: [{ id: "a", quantity: "0", unit_price: "10" }], shipping_methods: [] })
    expect(serviceCarts(empty, destination, null, o)).toEqual([])
  })

  it("lines grouped by their stock location: the fallback origin's cart keeps the cart id, each location's its own", () => {
    const carts = serviceCarts(snap({ locations: { sloc_pdx: portland } }), destination, null, o)
    expect(carts.map((c) => [c.key, c.cart.origin.city, c.cart.lineItems.map((l) => l.itemId)])).toEqual([
      ["", "Seattle", ["b"]],
      ["sloc_pdx", "Portland", ["a", "shipping:s1"]],
    ])
    expect(carts[0]!.cart.cartId).toBe("cart_1")
    expect(carts[1]!.cart.cartId).toMatch(/^cart_1~[0-9a-f]{8}$/)
  })
})

describe("originRefusals", () => {
  const carts = serviceCarts(snap({ locations: { sloc_pdx: portland } }), destination, null, o)
  const refused = (status: number, ...locations: string[]) =>
    new SalesTaxError({
      operation: "calculateCarts",
      status,
      title: "Unprocessable",
      retryable: false,
      code: "http",
      errors: locations.map((location) => ({ location, message: "is not deliverable" })),
    })
  const now = new Date("2026-01-02T03:04:05.000Z")

  it("each stock location refused as an origin, once, with its name, address and reason", () => {
    const got = originRefusals(
      refused(422, "body.items[1].origin.zip", "body.items[1].origin", "body.items[0].origin.zip"),
      carts,
      snap({ locations: { sloc_pdx: portland } }),
      new Map(),
      now,
    )
    // items[0] is the fallback origin's cart: the shopper's error path, not a location's refusal
    expect(got).toEqual([
      {
        refusal: {
          locationId: "sloc_pdx",
          name: "Portland DC",
          address: carts[1]!.cart.origin,
          reason: "origin.zip: is not deliverable",
          at: "2026-01-02T03:04:05.000Z",
        },
        message: "is not deliverable",
      },
    ])
  })

  it("none for a location already refused, an outage, another field, or another error", () => {
    const s = snap({ locations: { sloc_pdx: portland } })
    expect(originRefusals(refused(422, "body.items[1].origin.zip"), carts, s, new Map([["sloc_pdx", {}]]), now)).toEqual([])
    expect(originRefusals(refused(503, "body.items[1].origin.zip"), carts, s, new Map(), now)).toEqual([])
    expect(originRefusals(refused(422, "body.items[1].destination.zip"), carts, s, new Map(), now)).toEqual([])
    expect(originRefusals(new Error("origin"), carts, s, new Map(), now)).toEqual([])
  })
})

const pdx = { line1: "1 Dock Rd", city: "Portland", state: "OR", zip: "97201" }
const cart = (cartId: string, o = origin) => ({ cartId, origin: o }) as never
const answered = (cartId: string, ...items: [string, number, number, number | null][]) =>
  ({ cartId, lineItems: items.map(([itemId, amount, rate, tic]) => ({ itemId, tic, tax: { amount, rate } })) }) as never

describe("quoteOfAnswer", () => {
  it("each line's tax, rate, TIC and the origin of its cart; carts matched by id, else by position", () => {
    const q = quoteOfAnswer(
      [
        { cart: cart("cart_1"), key: "" },
        { cart: cart("cart_1~abcd1234", pdx), key: "sloc_pdx" },
      ],
      // the answer lists the location's cart first
      { items: [answered("cart_1~abcd1234", ["a", 0.9, 0.09, 20010]), answered("cart_1", ["b", 1.5, 0.075, null])] },
      "hash_1",
      "cert_1",
    )
    expect(q).toEqual({
      hash: "hash_1",
      exemptionId: "cert_1",
      lines: {
        a: { amount: 0.9, rate: 0.09, tic: 20010, origin: { locationId: "sloc_pdx", address: pdx } },
        b: { amount: 1.5, rate: 0.075, tic: null, origin: { locationId: null, address: origin } },
      },
    })
    const byPosition = quoteOfAnswer([{ cart: cart("cart_2"), key: "" }], { items: [answered("other", ["c", 1, 0.1, 0])] }, "h", null)
    expect(byPosition.lines.c).toEqual({ amount: 1, rate: 0.1, tic: 0, origin: { locationId: null, address: origin } })
    expect(quoteOfAnswer([{ cart: cart("cart_3"), key: "" }], { items: [] }, "h", null).lines).toEqual({})
  })
})
