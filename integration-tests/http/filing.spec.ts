/**
 * Filing, end to end: storefront checkouts against the sandbox, Medusa's own order workflows
 * (admin API), the filing subscriber/workflows/job, and what the service holds afterwards.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { dec, roundCents, sum } from "../../src/money"
import { ADDRESSES, Checkout, seedStore, useSalesTaxSandbox, type SeededStore } from "../helpers"
import {
  adminAuth, adminOrder, claim, exchange, filingStore, fulfil, returnAndReceive, waitForFiling,
} from "../filing-helpers/medusa"
import { processDueFilingsWorkflow } from "../../src/workflows/filing/workflows"

jest.setTimeout(120_000)

const env = useSalesTaxSandbox({ filing: { maxAttempts: 5 } })

/** Medusa's charged tax of a line (unrounded BigNumber) to the cent. */
const charged = (v: unknown) => roundCents(typeof v === "object" && v !== null && "value" in (v as object) ? String((v as any).value) : String(v))

medusaIntegrationTestRunner({
  env: env.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let auth: { headers: Record<string, string> }

    beforeEach(async () => {
      await env.sandbox.reset()
      store = await seedStore(getContainer())
      auth = await adminAuth(getContainer())
    })

    async function placeOrder(address = ADDRESSES.sanFrancisco): Promise<{ order: any; cartId: string }> {
      const co = new Checkout(api, store)
      await co.create()
      await co.setAddress(address)
      await co.addItem(store.products.general.variantId, 3)
      await co.addItem(store.products.shirt.variantId, 2)
      await co.addShipping()
      const order = await co.complete()
      return { order, cartId: co.cartId }
    }

    it("order.placed: filed under the Medusa order id from the Medusa cart, with the tax the shopper paid", async () => {
      const { order, cartId } = await placeOrder(ADDRESSES.louisville)
      const rec = await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
      const o = await adminOrder(api, auth, order.id)
      const svc = await env.sandbox.client.getOrder(order.id)
      expect(svc.cartId).toBe(cartId)
      expect(svc.customerId).not.toContain("@")
      const lines = [
        ...o.items.map((i: any) => ({ id: i.id, tax: charged(i.tax_total) })),
        ...o.shipping_methods.map((s: any) => ({ id: `shipping:${s.id}`, tax: charged(s.tax_total) })),
      ]
      expect(lines.some((l: any) => l.tax > 0)).toBe(true)
      for (const l of lines) expect(svc.lineItems.find((x) => x.itemId === l.id)?.tax.amount).toBe(l.tax)
      const total = roundCents(sum(lines.map((l: any) => l.tax)))
      expect(rec.filed_tax).toBe(total)
      expect(rec.charged_tax).toBe(total)
      expect(rec.filing_path).toBe("cart")
      expect(svc.completedDate).not.toBeNull()
    })
  },
})
