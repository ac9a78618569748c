import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { mayEnterScope, rememberCartState, resyncTaxLinesAfter } from "./tax-resync"
import { salesTaxBeforeRefreshingPaymentCollection, salesTaxCartPromotionsValidate } from "./cart-refresh"
import { cartRefreshStorage, type CartRefreshScope } from "../hooks/request-actor"

let carts = 0
/** A new cart id (the middleware remembers what it saw of each cart). */
const newCart = () => `cart_t${++carts}`

/** A store request on `path` (`:id` = `cartId`) for a cart whose shipping address is in `country`; counts Query reads. */
function request(pathTemplate: string, country: string, body: unknown = {}, cartId = newCart()) {
  const path = pathTemplate.replace("cart_1", cartId)
  const reads: unknown[] = []
  const scope = {
    resolve(key: string) {
      if (key !== "query") throw new Error(`unexpected resolve ${key}`)
      return {
        async graph(input: unknown) {
          reads.push(input)
          return {
            data: [
              {
                id: cartId,
                region: { automatic_taxes: true },
                shipping_address: { country_code: country },
                items: [],
                shipping_methods: [],
              },
            ],
          }
        },
      }
    },
  }
  const req = { params: { id: cartId }, path, originalUrl: path, method: "POST", body, headers: {}, scope } as unknown as MedusaRequest
  const res = { statusCode: 200, json: (b: unknown) => b } as unknown as MedusaResponse
  return { req, res, reads, cartId }
}

/** The scope the refresh hook sees for this request (rememberCartState, then resyncTaxLinesAfter). */
async function scopeFor(path: string, country: string, body?: unknown): Promise<CartRefreshScope | undefined> {
  const { req, res } = request(path, country, body)
  await rememberCartState(req, res, (() => undefined) as MedusaNextFunction)
  let seen: CartRefreshScope | undefined
  resyncTaxLinesAfter(req, res, (() => {
    seen = cartRefreshStorage().getStore()
  }) as MedusaNextFunction)
  return seen
}

describe("the refresh hook's scope: the cart's taxability as read before the route", () => {
  it("a non-US cart on a route that cannot change its destination is known not US-taxed; a US one known US-taxed", async () => {
    for (const path of ["/store/carts/cart_1/line-items/li_1", "/store/carts/cart_1/line-items", "/store/carts/cart_1/promotions"]) {
      expect(await scopeFor(path, "ca")).toMatchObject({ knownUs: false, knownNotUs: true })
      expect(await scopeFor(path, "us")).toMatchObject({ knownUs: true, knownNotUs: false })
    }
  })

  it("POST /store/carts/:id may change the address or region: neither is known (the hook reads the cart)", async () => {
    expect(await scopeFor("/store/carts/cart_1", "ca")).toMatchObject({ knownUs: false, knownNotUs: false })
    expect(await scopeFor("/store/carts/cart_1", "ca", { shipping_address: { country_code: "US" } })).toMatchObject({
      knownUs: false,
      knownNotUs: false,
    })
    expect(await scopeFor("/store/carts/cart_1", "us")).toMatchObject({ knownUs: false, knownNotUs: false })
  })
})

describe("the refresh hook on a cart known not US-taxed", () => {
  it("does not read the cart and records that it computed nothing", async () => {
    const container = {
      resolve(key: string) {
        throw new Error(`the hook resolved ${key}`)
      },
    }
    const scope: CartRefreshScope = { cartId: "cart_1", knownUs: false, knownNotUs: true }
    await cartRefreshStorage().run(scope, () =>
      salesTaxBeforeRefreshingPaymentCollection({ input: { cart_id: "cart_1" } }, { container } as unknown as StepExecutionContext),
    )
    expect(scope.ran).toMatchObject({ taxed: false })
  })
})

describe("the read before the route: only for a cart the provider may quote", () => {
  /** Query reads of one change of `cartId` (its shipping address in `country`) on `path` with `body`. */
  async function readsOf(path: string, country: string, cartId: string, body: unknown = {}): Promise<number> {
    const { req, res, reads } = request(path, country, body, cartId)
    await rememberCartState(req, res, (() => undefined) as MedusaNextFunction)
    return reads.length
  }

  it("a cart read once as not US-taxed is not read again, unless the change may move it into the US", async () => {
    const id = newCart()
    expect(await readsOf("/store/carts/cart_1/line-items/li_1", "ca", id)).toBe(1)
    expect(await readsOf("/store/carts/cart_1/line-items/li_1", "ca", id)).toBe(0)
    expect(await readsOf("/store/carts/cart_1/promotions", "ca", id)).toBe(0)
    expect(await readsOf("/store/carts/cart_1", "ca", id, { email: "a@b.test" })).toBe(0)
    expect(await readsOf("/store/carts/cart_1", "ca", id, { shipping_address: { country_code: "ca", city: "Ottawa" } })).toBe(0)
    expect(await readsOf("/store/carts/cart_1", "ca", id, { shipping_address: { country_code: "US" } })).toBe(1)
    expect(await readsOf("/store/carts/cart_1", "ca", id, { region_id: "reg_us" })).toBe(1)
  })

  it("a US-taxed cart is read before every change", async () => {
    const id = newCart()
    for (let i = 0; i < 3; i++) expect(await readsOf("/store/carts/cart_1/line-items/li_1", "us", id)).toBe(1)
  })

  it("mayEnterScope: a region, or a shipping address in (or maybe in) the US, on POST /store/carts/:id only", () => {
    const cart = "/store/carts/cart_9"
    expect(mayEnterScope(cart, { region_id: "reg_1" })).toBe(true)
    expect(mayEnterScope(cart, { shipping_address: { country_code: "us" } })).toBe(true)
    expect(mayEnterScope(cart, { shipping_address: { city: "Austin" } })).toBe(true)
    expect(mayEnterScope(cart, { shipping_address: "addr_1" })).toBe(true)
    expect(mayEnterScope(cart, { shipping_address: { country_code: "CA" } })).toBe(false)
    expect(mayEnterScope(cart, { email: "a@b.test", shipping_address: null })).toBe(false)
    expect(mayEnterScope(cart, undefined)).toBe(false)
    expect(mayEnterScope(`${cart}/line-items`, { region_id: "reg_1" })).toBe(false)
  })
})

describe("the cart's destination as Medusa's refresh read it (updateCartPromotionsWorkflow validate)", () => {
  const cart = (country: string | null, automatic = true) => ({
    id: "cart_1",
    region: { automatic_taxes: automatic },
    shipping_address: country === null ? null : { country_code: country },
  })
  const seen = (c: unknown, scopeCart = "cart_1") => {
    const scope: CartRefreshScope = { cartId: scopeCart, knownUs: false }
    cartRefreshStorage().run(scope, () => salesTaxCartPromotionsValidate({ cart: c as never }))
    return scope.destination
  }

  it("notes whether the provider quotes the request's cart", () => {
    expect(seen(cart("us"))).toEqual({ usTaxed: true })
    expect(seen(cart("US"))).toEqual({ usTaxed: true })
    expect(seen(cart("ca"))).toEqual({ usTaxed: false })
    expect(seen(cart(null))).toEqual({ usTaxed: false })
    expect(seen(cart("us", false))).toEqual({ usTaxed: false })
  })

  it("says nothing of another cart, of a cart read without region or address, or outside a request", () => {
    expect(seen(cart("us"), "cart_2")).toBeUndefined()
    expect(seen({ id: "cart_1", shipping_address: { country_code: "us" } })).toBeUndefined()
    expect(() => salesTaxCartPromotionsValidate({ cart: cart("us") })).not.toThrow()
  })

  it("the hook then neither reads the cart nor computes tax for a cart outside the scope", async () => {
    const container = {
      resolve(key: string) {
        throw new Error(`the hook resolved ${key}`)
      },
    }
    const scope: CartRefreshScope = { cartId: "cart_1", knownUs: false, destination: { usTaxed: false } }
    await cartRefreshStorage().run(scope, () =>
      salesTaxBeforeRefreshingPaymentCollection({ input: { cart_id: "cart_1" } }, { container } as unknown as StepExecutionContext),
    )
    expect(scope.ran).toEqual({ taxed: false })
  })
})
