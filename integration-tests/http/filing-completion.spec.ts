/**
 * Completion mode "captured": the order is filed at placement with completed=false and its
 * completedDate is set (PATCH) when Medusa captures the payment. (Mode "fulfilled" is in
 * filing-fulfilled.spec.ts: the mode is an app option, one app boot per mode.)
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ADDRESSES, freshFilingStore, placeOrder, useSalesTaxSandbox } from "../helpers"
import { adminOrder, waitForFiling } from "../filing-helpers/medusa"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

const env = useSalesTaxSandbox({ completionMode: "captured" })

medusaIntegrationTestRunner({
  env: env.env,
  testSuite: ({ api, getContainer }) => {
    it("captured: filed with completed=false at placement, completedDate = the capture time", async () => {
      const { store, auth } = await freshFilingStore(getContainer(), env.sandbox)
      const { order } = await placeOrder(api, store, ADDRESSES.philadelphia, [[store.products.general.variantId, 2]])
      const filed = await waitForFiling(getContainer(), order.id, (r) => r.state === "filed", "filed")
      expect(filed.completed_at).toBeNull()
      expect((await env.sandbox.client.getOrder(order.id)).completedDate).toBeNull()

      const o = await adminOrder(api, auth, order.id)
      const payment = o.payment_collections[0].payments[0]
      await api.post(`/admin/payments/${payment.id}/capture`, {}, auth)
      const done = await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
      const captured = (await adminOrder(api, auth, order.id)).payment_collections[0].payments[0].captured_at
      expect(captured).toBeTruthy()
      const svc = await env.sandbox.client.getOrder(order.id)
      expect(new Date(svc.completedDate!).toISOString()).toBe(new Date(captured).toISOString())
      expect(new Date(done.completed_at!).toISOString()).toBe(new Date(captured).toISOString())
      expect((await env.sandbox.counts()).updateOrder).toBe(1)
    })
  },
})
