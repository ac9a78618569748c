import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { rememberCartState, resyncTaxLinesAfter } from "./tax-resync"
import {
  cartRefreshStorage,
  salesTaxBeforeRefreshingPaymentCollection,
  type CartRefreshScope,
} from "../../workflows/hooks/cart-refresh-tax"

/** A store request on `path` for a cart whose shipping address is in `country`; counts Query reads. */
function request(path: string, country: string, body: unknown = {}) {
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
                id: "cart_1",
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
  const req = { params: { id: "cart_1" }, path, originalUrl: path, method: "POST", body, headers: {}, scope } as unknown as MedusaRequest
  const res = { statusCode: 200, json: (b: unknown) => b } as unknown as MedusaResponse
  return { req, res, reads }
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
      expect(await scopeFor(path, "ca")).toMatchObject({ cartId: "cart_1", knownUs: false, knownNotUs: true })
      expect(await scopeFor(path, "us")).toMatchObject({ cartId: "cart_1", knownUs: true, knownNotUs: false })
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
