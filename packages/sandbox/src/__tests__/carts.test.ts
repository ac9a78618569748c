import BigNumber from "bignumber.js"
import { CalculateCartsResponse, CartOut, OrderRecord } from "@medusa-sales-tax/contract"
import { C, NYC, PORTLAND, SEATTLE, call, cart, certBody, makeSandbox, setClock, type TestSandbox } from "./helpers"

let s: TestSandbox
beforeAll(async () => {
  s = await makeSandbox()
})
afterAll(() => s.close())

const post = (items: unknown[], extra: Record<string, unknown> = {}) => call(s, "POST", `${C()}/carts`, { body: { items, ...extra } })

describe("carts", () => {
  it("calculates tax per line, generates a cartId, and GET returns the same cart object", async () => {
    const r = await post([cart()])
    expect(r.status).toBe(200)
    const parsed = CalculateCartsResponse.parse(r.body)
    const c = parsed.items[0]!
    expect(c.cartId).toMatch(/^[0-9a-f-]{36}$/)
    expect(c.lineItems.map((l) => l.itemId)).toEqual(["sku-1", "sku-2"])
    for (const l of c.lineItems) {
      // amount is on the cent, rate is a fraction shown to 4 places, and they agree to within the
      // rounding of the rate (Seattle is taxable, so the amount is positive)
      expect(l.tax.amount).toBeGreaterThan(0)
      expect(new BigNumber(l.tax.amount).decimalPlaces()).toBeLessThanOrEqual(2)
      expect(new BigNumber(l.tax.rate).decimalPlaces()).toBeLessThanOrEqual(4)
      const base = new BigNumber(l.price).times(l.quantity)
      expect(base.times(l.tax.rate).minus(l.tax.amount).abs().toNumber()).toBeLessThanOrEqual(base.times(0.00005).plus(0.005).toNumber())
    }
    expect(r.body.connectionId).toBeDefined()
    const g = await call(s, "GET", `${C()}/carts/${c.cartId}`)
    expect(g.status).toBe(200)
    expect(CartOut.parse(g.body)).toEqual(c)
    expect(g.body.items).toBeUndefined()
  })

  it("writes transactionDate as the clock's ISO text, milliseconds included, within one second and across seconds", async () => {
    for (const now of ["2026-03-05T15:00:00.007Z", "2026-03-05T15:00:00.070Z", "2026-03-05T15:00:00.700Z", "2026-03-05T15:00:01.000Z"]) {
      await setClock(s, now)
      expect((await post([cart()])).body.transactionDate).toBe(now)
    }
    await call(s, "DELETE", "/_sandbox/clock")
  })

  it("upserts by cartId: the same cartId replaces the items", async () => {
    const first = await post([cart({ cartId: "cart-upsert" })])
    expect(first.body.items[0].cartId).toBe("cart-upsert")
    expect(first.body.items[0].lineItems).toHaveLength(2)
    const second = await post([cart({ cartId: "cart-upsert", lineItems: [{ index: 0, itemId: "only", price: 3, quantity: 1 }] })])
    expect(second.status).toBe(200)
    const g = await call(s, "GET", `${C()}/carts/cart-upsert`)
    expect(g.body.lineItems.map((l: { itemId: string }) => l.itemId)).toEqual(["only"])
    expect(g.body.lineItems[0].tic).toBeNull()
  })

  it("calculates several carts in one call, each with its cartId", async () => {
    const r = await post([cart({ cartId: "m-1" }), cart({ cartId: "m-2", destination: NYC })])
    expect(r.body.items.map((c: { cartId: string }) => c.cartId)).toEqual(["m-1", "m-2"])
  })

  it("refuses a repeated index or itemId, located at the repeat, in a small cart and in a large one", async () => {
    const line = (i: number, itemId = `sku-${i}`, index = i) => ({ index, itemId, price: 1, quantity: 1 })
    for (const n of [3, 40]) {
      const lines = Array.from({ length: n }, (_, i) => line(i))
      lines[n - 1] = line(n - 1, "sku-0")
      lines[1] = line(1, "sku-1", 0)
      const r = await post([cart({ lineItems: lines })])
      expect(r.status).toBe(422)
      expect(r.body.errors).toEqual([
        { location: "body.items[0].lineItems[1].index", message: "index appears twice in lineItems", value: 0 },
        { location: `body.items[0].lineItems[${n - 1}].itemId`, message: "itemId appears twice in lineItems", value: "sku-0" },
      ])
    }
  })

  it("refuses an origin whose ZIP lies in another state (located at the cart's origin), taxes the other carts of the call not", async () => {
    const bad = { line1: "1 Main St", city: "Austin", state: "TX", zip: "98109" }
    const r = await call(s, "POST", `${C()}/carts`, { body: { items: [cart({ cartId: "ok" }), cart({ cartId: "bad", origin: bad })] } })
    expect(r.status).toBe(422)
    expect(r.body.errors).toEqual([{ location: "body.items[1].origin.zip", message: "zip 98109 is in WA, not in TX", value: "98109" }])
    // a ZIP the database does not know is taken as sent
    const unknown = await call(s, "POST", `${C()}/carts`, { body: { items: [cart({ origin: { ...bad, zip: "00001" } })] } })
    expect(unknown.status).toBe(200)
  })

  it("ZIP+4 gives the same tax as the 5-digit ZIP", async () => {
    const a = await post([cart({ destination: { ...SEATTLE, zip: "98109" } })])
    const b = await post([cart({ destination: { ...SEATTLE, zip: "98109-1234" } })])
    expect(b.body.items[0].lineItems.map((l: any) => l.tax)).toEqual(a.body.items[0].lineItems.map((l: any) => l.tax))
  })

  it("a destination the sandbox does not tax gives 0 on every line", async () => {
    const r = await post([cart({ destination: { line1: "1 Calle", city: "San Juan", state: "PR", zip: "00901" } })])
    expect(r.status).toBe(200)
    expect(r.body.items[0].lineItems.every((l: any) => l.tax.amount === 0)).toBe(true)
    const or = await post([cart({ destination: PORTLAND })])
    expect(or.body.items[0].lineItems.every((l: any) => l.tax.amount === 0)).toBe(true)
  })

  it("rejects invalid content with located 422 errors and stores nothing", async () => {
    const cases: [unknown, string][] = [
      [{ ...cart(), customerId: undefined }, "body.items[0].customerId"],
      [{ ...cart(), lineItems: [] }, "body.items[0].lineItems"],
      [{ ...cart(), lineItems: undefined }, "body.items[0].lineItems"],
      [cart({ destination: { ...SEATTLE, state: "Washington" } }), "body.items[0].destination.state"],
      [cart({ destination: { ...SEATTLE, zip: "9810" } }), "body.items[0].destination.zip"],
      [cart({ destination: { ...SEATTLE, zip: "98109 1234" } }), "body.items[0].destination.zip"],
      [cart({ cartId: "x".repeat(51) }), "body.items[0].cartId"],
      [cart({ cartId: "" }), "body.items[0].cartId"],
      [cart({ customerId: "someone@example.com" }), "body.items[0].customerId"],
      [
        cart({
          lineItems: [
            { index: 0, itemId: "a", price: 1, quantity: 1 },
            { index: 1, itemId: "a", price: 1, quantity: 1 },
          ],
        }),
        "body.items[0].lineItems[1].itemId",
      ],
      [cart({ lineItems: [{ index: 0, itemId: "a", price: 1, quantity: 0 }] }), "body.items[0].lineItems[0].quantity"],
      [cart({ lineItems: [{ index: 0, itemId: "a", price: 1e300, quantity: 1 }] }), "body.items[0].lineItems[0].price"],
    ]
    const before = s.store.snapshot()
    for (const [c, loc] of cases) {
      const r = await post([c])
      expect([loc, r.status]).toEqual([loc, 422])
      expect(r.headers["content-type"]).toMatch(/problem\+json/)
      expect(r.body.errors.map((e: { location: string }) => e.location)).toContain(loc)
      expect(r.body.errors.every((e: object) => "message" in e)).toBe(true)
    }
    expect(s.store.snapshot()).toBe(before)
    const full = await post([cart({ destination: { ...SEATTLE, state: "Washington" } })])
    expect(full.body.errors[0]).toMatchObject({ location: "body.items[0].destination.state", value: "Washington" })
  })

  it("path cartId of 1..50 characters; longer is 422, unknown is 404", async () => {
    expect((await call(s, "GET", `${C()}/carts/${"c".repeat(50)}`)).status).toBe(404)
    const long = await call(s, "GET", `${C()}/carts/${"c".repeat(51)}`)
    expect(long.status).toBe(422)
    expect(long.body.errors[0].location).toBe("path.cartId")
  })

  describe("exemptions", () => {
    let certWa: string
    beforeAll(async () => {
      const c = await call(s, "POST", `${C()}/exemption-certificates`, {
        body: certBody({ customerId: "exempt-cust", states: [{ abbreviation: "WA" }] }),
      })
      certWa = c.body.certificateId
    })

    it("exemptionId of a certificate for the destination state zeroes the tax", async () => {
      const r = await post([cart({ customerId: "exempt-cust", exemption: { exemptionId: certWa } })])
      expect(r.status).toBe(200)
      expect(r.body.items[0].exemption.exemptionId).toBe(certWa)
      expect(r.body.items[0].lineItems.every((l: any) => l.tax.amount === 0)).toBe(true)
    })

    it("a certificate for another state does not exempt", async () => {
      const r = await post([cart({ customerId: "exempt-cust", destination: NYC, exemption: { exemptionId: certWa } })])
      expect(r.body.items[0].lineItems.some((l: any) => l.tax.amount > 0)).toBe(true)
    })

    it("isExempt auto-matches by customerId + connection + destination state", async () => {
      const r = await post([cart({ customerId: "exempt-cust", exemption: { isExempt: true } })])
      expect(r.body.items[0].exemption).toMatchObject({ exemptionId: certWa, isExempt: true })
      expect(r.body.items[0].exemption.flag ?? null).toBeNull()
      expect(r.body.items[0].lineItems.every((l: any) => l.tax.amount === 0)).toBe(true)
    })

    it('isExempt without a matching certificate is flagged "Exempt--No certificate"', async () => {
      for (const c of [
        cart({ customerId: "other-cust", exemption: { isExempt: true } }),
        cart({ customerId: "exempt-cust", destination: NYC, exemption: { isExempt: true } }),
      ]) {
        const r = await post([c])
        expect(r.body.items[0].exemption).toMatchObject({ exemptionId: null, isExempt: true, flag: "Exempt--No certificate" })
      }
      // the flag follows the cart into its order
      await post([cart({ cartId: "flag-cart", customerId: "other-cust", exemption: { isExempt: true } })])
      const o = await call(s, "POST", `${C()}/carts/orders`, { body: { cartId: "flag-cart", orderId: "flag-order", completed: false } })
      expect(o.body.exemption.flag).toBe("Exempt--No certificate")
    })

    it("unknown or disabled certificates are 422 at the exemptionId", async () => {
      const unknown = await post([cart({ customerId: "exempt-cust", exemption: { exemptionId: "7b0e9a6e-0000-4000-8000-000000000000" } })])
      expect(unknown.status).toBe(422)
      expect(unknown.body.errors[0].location).toBe("body.items[0].exemption.exemptionId")
      const other = await call(s, "POST", `${C()}/exemption-certificates`, { body: certBody({ customerId: "exempt-2" }) })
      expect((await call(s, "DELETE", `${C()}/exemption-certificates/${other.body.certificateId}`)).status).toBe(204)
      const disabled = await post([cart({ customerId: "exempt-2", exemption: { exemptionId: other.body.certificateId } })])
      expect(disabled.status).toBe(422)
      // a disabled certificate no longer auto-matches either
      const auto = await post([cart({ customerId: "exempt-2", exemption: { isExempt: true } })])
      expect(auto.body.items[0].exemption.flag).toBe("Exempt--No certificate")
    })
  })

  describe("carts/orders", () => {
    it("turns a cart into an order: lines and tax of the cart, transactionDate = call time", async () => {
      await setClock(s, "2026-03-05T15:00:00Z")
      const c = await post([cart({ cartId: "to-order" })])
      const r = await call(s, "POST", `${C()}/carts/orders`, { body: { cartId: "to-order", orderId: "from-cart-1", completed: true } })
      expect(r.status).toBe(201)
      const o = OrderRecord.parse(r.body)
      expect(o.transactionDate).toBe("2026-03-05T15:00:00.000Z")
      expect(o.completedDate).toBe("2026-03-05T15:00:00.000Z")
      expect(o.cartId).toBe("to-order")
      expect(o.lineItems).toEqual(c.body.items[0].lineItems)
      expect((await call(s, "GET", `${C()}/orders/from-cart-1`)).body).toEqual(r.body)
    })

    it("completed false leaves completedDate null; completedDate at or before now is kept; after now is 422", async () => {
      await setClock(s, "2026-03-05T15:00:00Z")
      await post([cart({ cartId: "to-order-2" })])
      const deferred = await call(s, "POST", `${C()}/carts/orders`, {
        body: { cartId: "to-order-2", orderId: "deferred", completed: false },
      })
      expect(deferred.body.completedDate).toBeNull()
      const exact = await call(s, "POST", `${C()}/carts/orders`, {
        body: { cartId: "to-order-2", orderId: "exact-now", completed: true, completedDate: "2026-03-05T10:00:00-05:00" },
      })
      expect(exact.status).toBe(201)
      expect(exact.body.completedDate).toBe("2026-03-05T15:00:00.000Z")
      const future = await call(s, "POST", `${C()}/carts/orders`, {
        body: { cartId: "to-order-2", orderId: "future", completed: true, completedDate: "2026-03-05T15:00:00.001Z" },
      })
      expect(future.status).toBe(422)
      expect(future.body.errors[0].location).toBe("body.completedDate")
      expect((await call(s, "GET", `${C()}/orders/future`)).status).toBe(404)
    })

    it("unknown cart is 404, duplicate orderId is 400", async () => {
      expect(
        (await call(s, "POST", `${C()}/carts/orders`, { body: { cartId: "no-such-cart", orderId: "x1", completed: true } })).status,
      ).toBe(404)
      await post([cart({ cartId: "dup-cart" })])
      expect(
        (await call(s, "POST", `${C()}/carts/orders`, { body: { cartId: "dup-cart", orderId: "dup-o", completed: true } })).status,
      ).toBe(201)
      const dup = await call(s, "POST", `${C()}/carts/orders`, { body: { cartId: "dup-cart", orderId: "dup-o", completed: true } })
      expect(dup.status).toBe(400)
      expect(dup.body.errors[0].location).toBe("body.orderId")
    })
  })
})
