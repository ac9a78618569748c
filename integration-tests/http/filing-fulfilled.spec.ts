/**
 * Completion mode "fulfilled": filed at placement with completed=false; the first fulfilment sets
 * completedDate (PATCH); a second fulfilment changes nothing.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ADDRESSES, freshFilingStore, placeOrder, useSalesTaxSandbox } from "../helpers"
import { adminOrder, fulfil, waitForFiling } from "../filing-helpers/medusa"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

const env = useSalesTaxSandbox({ completionMode: "fulfilled" })

medusaIntegrationTestRunner({
  env: env.env,
  testSuite: ({ api, getContainer }) => {
    it("fulfilled: completed at the first fulfilment, once", async () => {
      const { store, auth } = await freshFilingStore(getContainer(), env.sandbox)
      const { order } = await placeOrder(api, store, ADDRESSES.sanFrancisco, [
        [store.products.general.variantId, 2],
        [store.products.shirt.variantId, 1],
      ])
      await waitForFiling(getContainer(), order.id, (r) => r.state === "filed", "filed")
      expect((await env.sandbox.client.getOrder(order.id)).completedDate).toBeNull()

      const o = await adminOrder(api, auth, order.id)
      const lamp = o.items.find((i: any) => i.quantity === 2)
      const shirt = o.items.find((i: any) => i.quantity === 1)
      await fulfil(api, auth, order.id, [{ id: lamp.id, quantity: 2 }])
      const done = await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
      const svc = await env.sandbox.client.getOrder(order.id)
      expect(svc.completedDate).not.toBeNull()
      expect(new Date(svc.completedDate!).toISOString()).toBe(new Date(done.completed_at!).toISOString())

      await fulfil(api, auth, order.id, [{ id: shirt.id, quantity: 1 }])
      // the second fulfilment's event is handled (record settles again) without another PATCH
      await new Promise((r) => setTimeout(r, 2000))
      await waitForFiling(getContainer(), order.id, (r) => r.state === "completed" && r.next_attempt_at === null, "settled")
      expect((await env.sandbox.counts()).updateOrder).toBe(1)
      expect((await env.sandbox.client.getOrder(order.id)).completedDate).toBe(svc.completedDate)
    })
  },
})
