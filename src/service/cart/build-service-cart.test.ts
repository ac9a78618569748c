import fc from "fast-check"
import { createHash } from "node:crypto"
import { CalculateCartsRequest, CartIn } from "../../../packages/contract/src/index"
import BigNumber from "bignumber.js"
import {
  buildServiceCart,
  canonicalCartJson,
  canonicalJson,
  cartHash,
  cartsRequest,
  itemFigures,
  itemTaxable,
  netUnitPrice,
  serviceCustomerId,
  sha256Hex,
  shippingFigures,
  shippingTaxable,
  taxableDestination,
} from "./build-service-cart"
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
    const cart = buildServiceCart({
      snapshot: snap({ customer_id: null }),
      origin,
      destination: dest,
      shippingTic: 11010,
      defaultTic: 0,
      exemptionId: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b",
    })
    expect(cart.exemption).toEqual({ exemptionId: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b" })
    expect(cart.customerId).toMatch(/^guest_[0-9a-f]{32}$/)
    expect(cart.customerId).toBe(serviceCustomerId(undefined, "cart_01ABC"))
    expect(serviceCustomerId("a@b.com", "cart_01ABC")).toBe(cart.customerId)
  })

  it("hash: equal carts hash equally whatever the key order; any change that moves tax changes it", () => {
    const a = buildServiceCart({ snapshot: snap(), origin, destination: dest, shippingTic: 11010, defaultTic: 0 })
    const reverseKeys = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverseKeys)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reverseKeys(x)]),
            )
          : v
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

describe("hot-path shortcuts give the same answers", () => {
  /** canonicalJson as it was written first (filter, sort, map, join). */
  const reference = (v: unknown): string => {
    if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null"
    if (Array.isArray(v)) return `[${v.map(reference).join(",")}]`
    const o = v as Record<string, unknown>
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(o[k])}`).join(",")}}`
  }
  const address = fc.record(
    {
      line1: fc.string(),
      line2: fc.option(fc.string(), { nil: undefined }),
      city: fc.string(),
      state: fc.constantFrom("CA", "NY"),
      zip: fc.string(),
      countryCode: fc.constantFrom("US", undefined),
    },
    { requiredKeys: ["line1", "city", "state", "zip"] },
  )
  const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, 1e21, 1e-7, NaN, Infinity))
  const cart = fc.record(
    {
      cartId: fc.string(),
      customerId: fc.string(),
      currency: fc.record({ currencyCode: fc.string() }),
      deliveredBySeller: fc.boolean(),
      origin: address,
      destination: address,
      exemption: fc.record({ exemptionId: fc.option(fc.uuid()), isExempt: fc.option(fc.boolean()) }),
      lineItems: fc.array(
        fc.record(
          {
            index: fc.nat(),
            itemId: fc.string(),
            price: num,
            quantity: num,
            tic: fc.option(fc.nat(), { nil: undefined }),
            productId: fc.option(fc.string()),
          },
          { requiredKeys: ["index", "itemId", "price", "quantity"] },
        ),
      ),
    },
    { requiredKeys: ["customerId", "currency", "origin", "destination", "lineItems"] },
  )

  it("canonicalJson and the cart serializer write what the first canonicalJson wrote (random carts, any key order, unknown keys)", () => {
    fc.assert(
      fc.property(cart, fc.constantFrom("as built", "reversed", "sorted"), (c, order) => {
        const reorder = (f: (e: [string, unknown][]) => [string, unknown][]) =>
          JSON.parse(JSON.stringify(c), function (this: unknown, _k, x) {
            return x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(f(Object.entries(x))) : x
          })
        const v =
          order === "reversed"
            ? reorder((e) => e.reverse())
            : order === "sorted"
              ? reorder((e) => e.sort(([a], [b]) => (a < b ? -1 : 1)))
              : c
        expect(canonicalJson(v)).toBe(reference(v))
        expect(canonicalCartJson(v)).toBe(reference(v))
      }),
      { numRuns: 500 },
    )
    fc.assert(
      fc.property(fc.anything(), (v) => expect(canonicalCartJson(v)).toBe(reference(v))),
      { numRuns: 500 },
    )
    // keys outside the cart's own are not dropped: the slow path takes them
    expect(canonicalCartJson({ zz: 1, cartId: "a", extra: { b: 2, a: undefined } })).toBe('{"cartId":"a","extra":{"b":2},"zz":1}')
    expect(canonicalCartJson({ cartId: new Date(0) })).toBe('{"cartId":{}}')
  })

  it("buildServiceCart writes every key in sorted order (the cart hash's native path)", () => {
    for (const exemptionId of [null, "6f1c0d2e-8a4b-4c3d-9e2f-1a2b3c4d5e6f"]) {
      const c = buildServiceCart({
        snapshot: snap(),
        origin,
        destination: { ...dest, line2: undefined, countryCode: "US" },
        shippingTic: 11010,
        defaultTic: 0,
        exemptionId,
      })
      expect(JSON.stringify(c)).toBe(reference(c))
      expect(canonicalCartJson(c)).toBe(JSON.stringify(c))
    }
  })

  it("cartHash of a cart buildServiceCart made (hashed as JSON.stringify, unchecked) = the hash of its canonical JSON (random snapshots, addresses in any key order, exemption, a further origin's id)", () => {
    const sha = (conn: string, json: string) => createHash("sha256").update(conn).update("\0").update(json).digest("hex")
    const money = fc.integer({ min: 0, max: 10_000_000 }).map((c) => new BigNumber(c).shiftedBy(-2).toString())
    const addr = fc
      .record(
        {
          line1: fc.string({ maxLength: 20 }),
          line2: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
          city: fc.string({ maxLength: 12 }),
          state: fc.constantFrom("CA", "NY", "MN"),
          zip: fc.constantFrom("94105", "10118-1234", "55415"),
          countryCode: fc.constantFrom("US" as const, undefined),
        },
        { requiredKeys: ["line1", "city", "state", "zip"] },
      )
      .chain((a) =>
        fc
          .shuffledSubarray(Object.keys(a), { minLength: Object.keys(a).length })
          .map((keys) => Object.fromEntries(keys.map((k) => [k, a[k as keyof typeof a]]))),
      )
    const item = fc.record({
      id: fc.string({ minLength: 1, maxLength: 8 }),
      product_id: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }),
      quantity: fc.integer({ min: 0, max: 20 }).map(String),
      unit_price: money,
      discount: fc.constantFrom("0", "1", "0.333"),
      tic: fc.option(fc.constantFrom(0, 20010, 40030), { nil: null }),
    })
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 6 }),
        fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), amount: money, discount: fc.constantFrom("0", "2") }), {
          maxLength: 2,
        }),
        fc.option(fc.string({ maxLength: 60 }), { nil: null }),
        addr,
        addr,
        fc.option(fc.uuid(), { nil: null }),
        fc.option(fc.string({ minLength: 1, maxLength: 50 }), { nil: undefined }),
        (items, shipping_methods, customer_id, o, d, exemptionId, serviceCartId) => {
          const snapshot = CartSnapshot.parse({ v: 1, cart_id: "cart_01ABC", customer_id, currency_code: "usd", items, shipping_methods })
          const c = buildServiceCart({
            snapshot,
            origin: o as never,
            destination: d as never,
            shippingTic: 11010,
            defaultTic: 0,
            exemptionId,
            serviceCartId,
          })
          // createHash over the pieces, as cartHash hashed before (the one-shot hash gives the same digest)
          expect(cartHash(c, "conn-1")).toBe(sha("conn-1", reference(c)))
          // a copy (no longer the built object) takes the checked path: the same hash
          expect(cartHash({ ...c }, "conn-1")).toBe(cartHash(c, "conn-1"))
          if (serviceCartId !== undefined) expect(c.cartId).toBe(serviceCartId)
          // the provider sends its carts without the client's check (prepared): they satisfy the contract
          if (c.lineItems.length) expect(CalculateCartsRequest.safeParse({ items: [c, c] }).error?.issues ?? []).toEqual([])
          // a POST carts body: the JSON sent is the canonical JSON, built or not, and the hash is its own
          const want = `{"items":[${reference(c)},${reference(c)}]}`
          // a copy with its keys in another order (not the built object): checked and sorted
          const copy = Object.fromEntries(Object.entries(c).reverse()) as typeof c
          for (const carts of [
            [c, c],
            [c, copy],
            [copy, copy],
          ]) {
            const r = cartsRequest(carts, "conn-1")
            expect(r.json).toBe(want)
            expect(r.hash).toBe(sha("conn-1", want))
            expect(r.body.items).toBe(carts)
          }
        },
      ),
      // 400 carts (was 2,000): two paths of one serializer compared on random snapshots; key orders,
      // exemption, optional fields and the further origin's id each vary in every few draws
      { numRuns: 400 },
    )
  })

  it("sha256Hex (one-shot) = createHash's digest; a guest's service id is still the first 32 hex of its cart id's SHA-256", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (v) => {
        expect(sha256Hex(v)).toBe(createHash("sha256").update(v).digest("hex"))
        expect(serviceCustomerId(null, `cart_${v}`)).toBe(`guest_${createHash("sha256").update(`cart_${v}`).digest("hex").slice(0, 32)}`)
      }),
      // 500 strings (was 2,000) of up to 200 graphemes: UTF-8 of every plane is drawn from the first hundred
      { numRuns: 500 },
    )
  })

  it("itemFigures / shippingFigures (memoized) equal the decimal arithmetic they stand for", () => {
    const dec = (min: number, max: number, places: number) =>
      fc.integer({ min, max }).map((n) => new BigNumber(n).shiftedBy(-places).toString())
    fc.assert(
      fc.property(dec(0, 100_000, 2), dec(-2, 50, 0), dec(0, 5_000, 2), fc.boolean(), (unit_price, quantity, discount, again) => {
        const it = { unit_price, quantity, discount }
        if (again) itemFigures(it)
        const fig = itemFigures(it)
        if (!new BigNumber(quantity).gt(0)) return expect(fig).toBeNull()
        expect(fig!.taxable.toString()).toBe(itemTaxable(it).toString())
        expect(fig!.taxableKey).toBe(String(itemTaxable(it)))
        expect(fig!.quantity).toBe(Number(quantity))
        expect(fig!.price).toBe(netUnitPrice(itemTaxable(it), quantity))
        const sm = { amount: unit_price, discount }
        expect(shippingFigures(sm).taxable.toString()).toBe(shippingTaxable(sm).toString())
        expect(shippingFigures(sm).price).toBe(shippingTaxable(sm).toNumber())
        expect(shippingFigures(sm).taxableKey).toBe(String(shippingTaxable(sm)))
      }),
      // 1,000 draws (was 2,000) of four small numbers: zero and negative quantities, memo hits included
      { numRuns: 1000 },
    )
  })
})

describe("destination checks", () => {
  it("US with a state and a ZIP only", () => {
    expect(taxableDestination({ country_code: "us", province_code: "us-ca", postal_code: "94105" }).address?.state).toBe("CA")
    expect(taxableDestination({ country_code: "US", province_code: "ny", postal_code: "100011234" }).address?.zip).toBe("10001-1234")
    expect(taxableDestination({ country_code: "ca", province_code: "on", postal_code: "K1A 0B1" })).toEqual({
      address: null,
      reason: "not_us",
    })
    expect(taxableDestination({ country_code: "us", province_code: null, postal_code: "94105" })).toEqual({
      address: null,
      reason: "no_state",
      plan: { kind: "verify", state: "CA", zip: { zip: "94105" } },
    })
    expect(taxableDestination({ country_code: "us", province_code: "CA", postal_code: "9410" })).toEqual({
      address: null,
      reason: "no_zip",
      plan: { kind: "unresolved", field: "postal_code" },
    })
    expect(taxableDestination(undefined)).toEqual({ address: null, reason: "not_us" })
    expect(taxableDestination({ country_code: "us", province_code: "Texas", postal_code: "78701" }).address?.state).toBe("TX")
    // a state its ZIP disagrees with, or none: the provider verifies it (no address here)
    expect(taxableDestination({ country_code: "us", province_code: "CA", postal_code: "78701" })).toMatchObject({
      address: null,
      reason: "no_state",
      plan: { kind: "verify", state: "TX" },
    })
    expect(taxableDestination({ country_code: "us", province_code: "PR", postal_code: "00901" })).toMatchObject({ reason: "territory" })
  })
})
