/**
 * Issue 27, the checkout side's money edges, on one Medusa boot against the sandbox (faults
 * injected there, its requests counted):
 * - outage rates are conservative: a $100 shirt to a Massachusetts ZIP (clothing exempt up to $175)
 *   teaches 0 %, and in the next outage a $1,000 coat is charged the merchant's 6.25 %, not 0 %;
 *   once the coat itself was quoted, a later shirt does not lower what the outage charges it;
 * - X-Forwarded-For does not lift the verify-address limit (trustProxy false: the TCP peer), and
 *   requests without a cart (or with a made-up cart id) share one stricter budget;
 * - service 429s follow the failure policy but never open the circuit breaker (503s do);
 * - a 401 at checkout follows the failure policy and logs ONE error, not one per request;
 * - completion inside Medusa's lock refuses a cart changed after its tax was computed
 *   (400 sales_tax_cart_changed), and concurrent store changes of one cart both land.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createPromotionsWorkflow, completeCartWorkflow } from "@medusajs/core-flows"
import { Checkout, cents, resetCheckout, salesTaxProvider, storeHeaders, useSalesTaxSandbox, type ShopperAddress } from "../helpers"
import { seedStore as seedDevStore, TICS, type SeededStore } from "../../dev-store/seed"
import { SALES_TAX_PROVIDER_ID, TAX_LINE_CODE, TAX_LINE_CODE_FALLBACK } from "../../src/constants"
import { registeredRateMemory } from "../../src/service/last-known-rates"
import { runtimeOf, SALES_TAX_RUNTIME, salesTaxRuntime } from "../../src/runtime"
import {
  CART_CHANGED_ERROR_CODE,
  completionGuardStats,
  completionStorage,
  readCartFingerprint,
} from "../../src/checkout/hooks/complete-cart-guard"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

const st = useSalesTaxSandbox({
  failurePolicy: "fallback",
  fallbackRates: { MA: 6.25 },
  timeoutMs: 1500,
  circuitBreaker: { failures: 2, halfOpenAfterMs: 60_000 },
  // trustProxy left at its default (false): the client is the TCP peer
  verifyAddressRateLimit: 4,
  verifyAddressAnonymousRateLimit: 2,
})

const BOSTON: ShopperAddress = {
  first_name: "Ada",
  last_name: "L",
  address_1: "1 Beacon St",
  city: "Boston",
  province: "MA",
  postal_code: "02108",
  country_code: "us",
}

const PRODUCTS = {
  shirt: { title: "Oxford shirt", handle: "oxford-shirt", price: 100, tic: TICS.clothing, ticSource: "product", category: "clothing" },
  coat: { title: "Wool coat", handle: "wool-coat", price: 1000, tic: TICS.clothing, ticSource: "product", category: "clothing" },
  lamp: { title: "Floor lamp", handle: "floor-lamp", price: 40, tic: TICS.general, ticSource: "default", category: "general goods" },
} as const

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore<keyof typeof PRODUCTS>
    const provider = () => salesTaxProvider(getContainer())
    const h = () => storeHeaders(store)
    beforeAll(async () => {
      store = await seedDevStore(getContainer(), {
        providerId: SALES_TAX_PROVIDER_ID,
        channelName: "Money edges",
        createdBy: "test",
        products: PRODUCTS,
        shippingRegionPrice: false,
      })
    })
    beforeEach(() => resetCheckout(getContainer(), st.sandbox))

    /** A new Boston cart with one unit of `product` (its tax quoted, or fallen back, on the add). */
    async function bostonCart(product: keyof typeof PRODUCTS, shipping = false) {
      const co = new Checkout(api, store as never)
      await co.create()
      await co.setAddress(BOSTON)
      let cart = await co.addItem(store.products[product].variantId, 1)
      if (shipping) cart = await co.addShipping()
      return { co, cart, line: cart.items[0] }
    }
    /** The last-known rate kept for Boston and a TIC, once `ok` holds for it (the provider writes it after answering). */
    async function learned(tic: number, ok: (rate: string | undefined) => boolean): Promise<string | undefined> {
      let rate: string | undefined
      for (let i = 0; i < 200; i++) {
        rate = (await registeredRateMemory()!.knownRates("02108", [tic], new Date(0)))[0]?.rate
        if (ok(rate)) return rate
        await new Promise((r) => setTimeout(r, 25))
      }
      throw new Error(`last-known rate of 02108/${tic} never satisfied the test (last: ${rate})`)
    }

    it("one runtime per process (src/runtime.ts): the salesTax module's loader registered it in the module's container, Medusa's container reaches it through the module, and the provider reads the module's rate memory from it", () => {
      const container = getContainer()
      const svc = container.resolve<{ runtime: unknown; __container__: Record<string, unknown> }>("salesTax")
      // the module's container holds it (awilix throws on a key it does not hold: no loader, no key)
      expect(svc.__container__[SALES_TAX_RUNTIME]).toBe(salesTaxRuntime())
      expect(svc.runtime).toBe(salesTaxRuntime())
      expect(runtimeOf(container)).toBe(salesTaxRuntime())
      expect(registeredRateMemory()).toBe(svc)
    })

    it("outage rates are conservative: after a $100 shirt (0 %) the coat is charged the merchant's 6.25 %; after the coat itself, a later shirt does not lower the coat's outage rate", async () => {
      // the shirt, quoted: Massachusetts exempts clothing up to $175
      const shirt = await bostonCart("shirt")
      expect([shirt.line.tax_lines[0].code, cents(shirt.line.tax_total)]).toEqual([TAX_LINE_CODE, 0])
      expect(await learned(TICS.clothing, (r) => r !== undefined)).toBe("0")

      // the outage: the coat is not charged the shirt's 0 % (fallbackRates.MA wins over a learned 0 %)
      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      const outage1 = await bostonCart("coat")
      expect(outage1.line.tax_lines.map((t: any) => [t.code, t.rate])).toEqual([[TAX_LINE_CODE_FALLBACK, 6.25]])
      expect(cents(outage1.line.tax_total)).toBe(6250)

      // the service back: the coat is quoted (6.25 % of the $825 above $175 = $51.56, 5.156 % effective)
      await st.sandbox.clearFaults()
      provider().breaker.reset()
      const coat = await bostonCart("coat")
      expect([coat.line.tax_lines[0].code, cents(coat.line.tax_total)]).toEqual([TAX_LINE_CODE, 5156])
      expect(await learned(TICS.clothing, (r) => r !== "0")).toBe("5.156")
      // then a shirt again (with shipping: its TIC's row tells when this quote's rates were written)
      const shirt2 = await bostonCart("shirt", true)
      expect(cents(shirt2.line.tax_total)).toBe(0)
      await learned(TICS.shipping, (r) => r !== undefined)
      expect(await learned(TICS.clothing, () => true)).toBe("5.156")

      // the next outage charges the coat the highest rate the service charged for it, not the shirt's 0 %
      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      const outage2 = await bostonCart("coat")
      expect(outage2.line.tax_lines.map((t: any) => [t.code, t.rate])).toEqual([[TAX_LINE_CODE_FALLBACK, 5.156]])
      expect(cents(outage2.line.tax_total)).toBe(5156)
    })

    it("verify-address: X-Forwarded-For does not lift the per-client limit; requests without a real cart (a made-up cart id too) share one stricter budget", async () => {
      await st.sandbox.resetCounts()
      const address = { address_1: "350 S 5th St", city: "Minneapolis", province: "MN", postal_code: "55415" }
      const post = (body: object, xff: string) =>
        api.post("/store/sales-tax/verify-address", body, { headers: { ...h().headers, "x-forwarded-for": xff } }).then(
          (r: any) => ({ status: r.status, data: r.data, retryAfter: undefined as string | undefined }),
          (e: any) => ({ status: e.response.status, data: e.response.data, retryAfter: e.response.headers["retry-after"] }),
        )
      const real = new Checkout(api, store as never)
      await real.create()
      // no cart: 2 a minute for all such requests together, whatever address they claim to come from
      expect((await post(address, "203.0.113.1")).status).toBe(200)
      expect((await post(address, "203.0.113.2")).status).toBe(200)
      // a made-up cart id is no cart: the same shared budget (was a fresh budget per invented id)
      const anonymous = await post({ ...address, cart_id: "cart_01MADEUP" }, "203.0.113.3")
      expect(anonymous.status).toBe(429)
      expect(anonymous.data.message).toMatch(/requests without a cart of this store \(at most 2 a minute\)/)
      expect(Number(anonymous.retryAfter)).toBeGreaterThanOrEqual(1)
      // a real cart: the client's 4th request passes; its 5th is refused, from any claimed address
      expect((await post({ ...address, cart_id: real.cartId }, "198.51.100.1")).status).toBe(200)
      const spoofed = await post({ ...address, cart_id: real.cartId }, "198.51.100.2")
      expect(spoofed.status).toBe(429)
      expect(spoofed.data.message).toMatch(/for this client \(at most 4 a minute\)/)
      // one service call: the verdict is cached
      expect((await st.sandbox.counts()).verifyAddress).toBe(1)
    })

    it("service 429s follow the failure policy but never open the breaker (503s do)", async () => {
      // Retry-After 30 s is past timeoutMs (1.5 s): not waited for, a failure under the policy at once
      await st.sandbox.fault({ operation: "calculateCarts", status: 429, retryAfter: "30" })
      await st.sandbox.resetCounts()
      const { co, line } = await bostonCart("lamp")
      const states = [line]
      for (const q of [2, 3, 4]) states.push((await co.setQuantity(line.id, q)).items[0])
      for (const l of states) expect(l.tax_lines.map((t: any) => [t.code, t.rate])).toEqual([[TAX_LINE_CODE_FALLBACK, 6.25]])
      // each cart state was sent (none failed fast) and the breaker (2 failures) stayed closed
      expect((await st.sandbox.counts()).calculateCarts).toBeGreaterThanOrEqual(4)
      expect(provider().breaker.state).toBe("closed")
      expect(provider().breaker.consecutiveFailures).toBe(0)
      // the same with 503s opens it
      await st.sandbox.clearFaults()
      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      for (const q of [5, 6]) await co.setQuantity(line.id, q)
      expect(provider().breaker.state).toBe("open")
    })

    it("a 401 at checkout follows the failure policy and logs ONE error naming the problem, not one per request", async () => {
      const logger = (provider() as any).logger
      const error = jest.spyOn(logger, "error")
      const warn = jest.spyOn(logger, "warn")
      try {
        await st.sandbox.fault({ operation: "calculateCarts", status: 401 })
        const { co, line } = await bostonCart("lamp")
        const states = [line]
        for (const q of [2, 3, 4]) states.push((await co.setQuantity(line.id, q)).items[0])
        for (const l of states) expect(l.tax_lines.map((t: any) => [t.code, t.rate])).toEqual([[TAX_LINE_CODE_FALLBACK, 6.25]])
        const keyErrors = error.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("refused the API key"))
        expect(keyErrors).toHaveLength(1)
        expect(keyErrors[0]).toContain(`the service refused the API key for connection ${st.sandbox.connectionId} (401`)
        expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => /service unavailable/.test(m))).toEqual([])
        for (const c of [...error.mock.calls, ...warn.mock.calls]) expect(JSON.stringify(c)).not.toContain(st.sandbox.apiKey)
      } finally {
        error.mockRestore()
        warn.mockRestore()
      }
    })

    it("races: concurrent store changes of one cart both land; completion refuses a cart changed after its tax was computed (400 sales_tax_cart_changed), then completes", async () => {
      const { co } = await bostonCart("lamp", true)
      const [a, b] = await Promise.all([
        api.post(`/store/carts/${co.cartId}/line-items`, { variant_id: store.products.shirt.variantId, quantity: 1 }, h()),
        api.post(`/store/carts/${co.cartId}/line-items`, { variant_id: store.products.coat.variantId, quantity: 1 }, h()),
      ])
      expect([a.status, b.status]).toEqual([200, 200])
      const both = await co.get()
      expect(both.items).toHaveLength(3)

      // the tax as computed for the cart as it is now; then a promotion lands before the completion's lock
      const container = getContainer()
      const computed = (await readCartFingerprint(container, co.cartId))!
      const code = `EDGE${Date.now()}`
      await createPromotionsWorkflow(container).run({
        input: {
          promotionsData: [
            {
              code,
              type: "standard",
              status: "active",
              is_automatic: false,
              application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10, currency_code: "usd" },
            } as never,
          ],
        },
      })
      await api.post(`/store/carts/${co.cartId}/promotions`, { promo_codes: [code] }, h())
      // paid for the cart as it now is (the promotion changed the total: Medusa dropped any earlier session)
      const pc = await api.post(`/store/payment-collections`, { cart_id: co.cartId }, h())
      await api.post(
        `/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`,
        { provider_id: "pp_system_default" },
        h(),
      )
      // the completion as the middleware leaves it, with the fingerprint of before the promotion
      const { errors } = await completionStorage().run({ cartId: co.cartId, fingerprint: computed }, () =>
        completeCartWorkflow(container).run({ input: { id: co.cartId }, throwOnError: false }),
      )
      expect(errors[0]?.error?.code).toBe(CART_CHANGED_ERROR_CODE)
      // nothing was placed; the storefront completes again and the refresh takes the promotion in
      // (the route's completion went through the guard, in the request's scope, and passed)
      const { checked, refused } = completionGuardStats()
      const order = await co.complete()
      expect(completionGuardStats()).toEqual({ checked: checked + 1, refused })
      expect(order.id).toMatch(/^order_/)
      expect(cents(order.discount_total ?? 0)).toBeGreaterThan(0)
    })
  },
})
