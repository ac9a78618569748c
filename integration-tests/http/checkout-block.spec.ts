import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { ADDRESSES, Checkout, cents, freshCheckoutStore, salesTaxProvider, useSalesTaxSandbox, type SeededStore } from "../helpers"
import { BLOCK_ERROR_CODE, BLOCK_ERROR_MESSAGE, TAX_LINE_CODE } from "../../src/providers/sales-tax/constants"

jest.setTimeout(120_000)

const st = useSalesTaxSandbox({ failurePolicy: "block", timeoutMs: 1500, circuitBreaker: { failures: 3, halfOpenAfterMs: 60_000 } })

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const provider = () => salesTaxProvider(getContainer())
    const h = () => ({ headers: { "x-publishable-api-key": store.publishableKey } })
    beforeEach(async () => {
      store = await freshCheckoutStore(getContainer(), st.sandbox)
    })

    /** The cart as stored (read server-side, not through the store routes under test). */
    async function stored(cartId: string) {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY) as any
      const { data: [c] } = await query.graph({
        entity: "cart",
        fields: ["id", "email", "items.id", "items.quantity", "shipping_methods.id", "shipping_address.postal_code", "items.tax_lines.code", "items.tax_lines.rate"],
        filters: { id: cartId },
      })
      return {
        items: (c.items ?? []).map((i: any) => `${i.id}x${i.quantity}`).sort(),
        shipping: (c.shipping_methods ?? []).map((s: any) => s.id).sort(),
        zip: c.shipping_address?.postal_code,
        taxLines: (c.items ?? []).flatMap((i: any) => (i.tax_lines ?? []).map((t: any) => `${i.id}:${t.code}:${t.rate}`)).sort(),
      }
    }
    const refused = (p: Promise<unknown>) => p.then((r) => ({ status: 200, data: r }) as any, (e: any) => e.response)

    it("block outage: every store cart mutation answers 400 sales_tax_unavailable and leaves the cart as it was; no cart response carries tax 0; completion refused; all works again once the service is back", async () => {
      const co = new Checkout(api, store)
      await co.create()
      await co.addItem(store.products.general.variantId, 2)
      await co.setAddress(ADDRESSES.minneapolis)
      let cart = await co.addShipping()
      expect(cart.items[0].tax_lines[0].code).toBe(TAX_LINE_CODE)
      const taxBefore = cents(cart.tax_total)
      expect(taxBefore).toBeGreaterThan(0)
      const line = cart.items[0]

      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      // the request that meets the outage first
      const first = await refused(co.addItem(store.products.coffee.variantId, 1))
      expect(first.status).toBe(400)
      expect(first.data.message).toBe(BLOCK_ERROR_MESSAGE)
      expect(first.data.code).toBe(BLOCK_ERROR_CODE)
      expect(JSON.stringify(first.data)).not.toContain(st.sandbox.apiKey)
      const asItWas = await stored(co.cartId)

      const mutations: [string, () => Promise<unknown>][] = [
        ["add item", () => co.addItem(store.products.coffee.variantId, 1)],
        ["quantity", () => co.setQuantity(line.id, 3)],
        ["address", () => co.setAddress(ADDRESSES.louisville)],
        ["shipping", () => co.addShipping()],
        ["delete line", () => api.delete(`/store/carts/${co.cartId}/line-items/${line.id}`, h())],
        ["promotion", () => api.post(`/store/carts/${co.cartId}/promotions`, { promo_codes: ["NOPE"] }, h())],
        ["taxes", () => co.calculateTaxes()],
      ]
      for (const [what, m] of mutations) {
        const r = await refused(m())
        expect([what, r.status, r.data?.code]).toEqual([what, 400, BLOCK_ERROR_CODE])
        expect(await stored(co.cartId)).toEqual(asItWas)
      }
      // a read never shows tax 0 for the taxable destination: refused too while tax is unknown
      const read = await refused(co.get())
      expect(read.status === 400 || cents(read.data.tax_total) > 0).toBe(true)

      const pc = await api.post(`/store/payment-collections`, { cart_id: co.cartId }, h())
      await api.post(`/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" }, h())
      // the unchanged cart still has a fresh cached quote; once that has expired, completion is refused
      ;(provider().cache.store as any).clear()
      const completion = await refused(api.post(`/store/carts/${co.cartId}/complete`, {}, h()))
      expect(completion.status).toBe(400)
      expect(completion.data.message).toBe(BLOCK_ERROR_MESSAGE)

      await st.sandbox.clearFaults()
      provider().breaker.reset()
      cart = await co.get()
      expect(cart.items.every((i: any) => i.tax_lines[0]?.code === TAX_LINE_CODE)).toBe(true)
      const svc = await st.sandbox.client.getCart(co.cartId)
      for (const item of cart.items) {
        expect(cents(item.tax_total)).toBe(cents(svc.lineItems.find((l) => l.itemId === item.id)!.tax.amount))
      }
      const order = await co.complete()
      expect(order.id).toMatch(/^order_/)
    })

    it("open breaker + block: the cart state already quoted is served from the cache; a new state is refused without a call", async () => {
      const co = new Checkout(api, store)
      await co.create()
      await co.addItem(store.products.general.variantId, 1)
      const quoted = await co.setAddress(ADDRESSES.minneapolis)
      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      for (let i = 0; i < 3; i++) await refused(co.setQuantity(quoted.items[0].id, 2 + i))
      expect(provider().breaker.state).toBe("open")
      await st.sandbox.resetCounts()
      // back to the quoted state is itself a mutation of a cart that cannot be priced now: refused
      const r = await refused(co.setQuantity(quoted.items[0].id, 5))
      expect(r.status).toBe(400)
      expect((await st.sandbox.counts()).calculateCarts ?? 0).toBe(0)
      // a cart whose state was quoted reads with its cached quote
      const other = new Checkout(api, store)
      await st.sandbox.clearFaults()
      provider().breaker.reset()
      await other.create()
      await other.addItem(store.products.general.variantId, 1)
      const ok = await other.setAddress(ADDRESSES.louisville)
      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      for (let i = 0; i < 3; i++) await refused(co.setQuantity(quoted.items[0].id, 7 + i))
      expect(provider().breaker.state).toBe("open")
      const read = await other.get()
      expect(cents(read.tax_total)).toBe(cents(ok.tax_total))
      expect(cents(read.tax_total)).toBeGreaterThan(0)
      await st.sandbox.clearFaults()
    })
  },
})
