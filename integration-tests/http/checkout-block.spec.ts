import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ADDRESSES, Checkout, cents, freshCheckoutStore, salesTaxProvider, useSalesTaxSandbox, type SeededStore } from "../helpers"
import { BLOCK_ERROR_MESSAGE, TAX_LINE_CODE } from "../../src/providers/sales-tax/constants"

jest.setTimeout(120_000)

const st = useSalesTaxSandbox({ failurePolicy: "block", timeoutMs: 1500 })

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    const provider = () => salesTaxProvider(getContainer())
    beforeEach(async () => {
      store = await freshCheckoutStore(getContainer(), st.sandbox)
    })

    it("outage under failurePolicy block: the cart update fails with a clear shopper-facing message, completion is refused, and the cart works again once the service is back", async () => {
      const co = new Checkout(api, store)
      await co.create()
      await co.addItem(store.products.general.variantId, 2)
      let cart = await co.setAddress(ADDRESSES.minneapolis)
      cart = await co.addShipping()
      expect(cart.items[0].tax_lines[0].code).toBe(TAX_LINE_CODE)
      const taxBefore = cents(cart.tax_total)
      expect(taxBefore).toBeGreaterThan(0)

      await st.sandbox.fault({ operation: "calculateCarts", status: 503 })
      const failed = await co.addItem(store.products.coffee.variantId, 1).then(
        () => undefined,
        (e: any) => e.response,
      )
      expect(failed).toBeDefined()
      expect(failed.status).toBe(400)
      expect(failed.data.message).toBe(BLOCK_ERROR_MESSAGE)
      expect(JSON.stringify(failed.data)).not.toContain(st.sandbox.apiKey)

      // a quantity change: Medusa does not recompute tax lines for it, the plugin's refresh after
      // the route fails quietly (the change is made), and completion re-checks the tax: refused
      const line = cart.items[0]
      await co.setQuantity(line.id, 3)
      const h = { headers: { "x-publishable-api-key": store.publishableKey } }
      const pc = await api.post(`/store/payment-collections`, { cart_id: co.cartId }, h)
      await api.post(`/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" }, h)
      const completion = await api.post(`/store/carts/${co.cartId}/complete`, {}, h).then((r: any) => r, (e: any) => e.response)
      expect(completion.status).toBe(400)
      expect(completion.data.message).toBe(BLOCK_ERROR_MESSAGE)

      await st.sandbox.clearFaults()
      provider().breaker.reset()
      cart = await co.calculateTaxes()
      expect(cart.items.every((i: any) => i.tax_lines[0]?.code === TAX_LINE_CODE)).toBe(true)
      const svc = await st.sandbox.client.getCart(co.cartId)
      for (const item of cart.items) {
        expect(cents(item.tax_total)).toBe(cents(svc.lineItems.find((l) => l.itemId === item.id)!.tax.amount))
      }
      const order = await co.complete()
      expect(order.id).toMatch(/^order_/)
    })
  },
})
