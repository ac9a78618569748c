/**
 * Completion modes "captured" and "fulfilled" (filing.spec.ts's boot; each mode set on the running app,
 * which every filing handler reads when its event arrives: setOptions):
 * - "captured": the order is filed at placement with completed=false and its completedDate is set
 *   (PATCH) when Medusa captures the payment;
 * - "fulfilled": filed at placement, completed at the first fulfilment, once.
 */
import { ADDRESSES, placeOrder, type SeededStore } from "../../helpers"
import { adminOrder, fulfil, waitForFiling } from "../../filing-helpers/medusa"
import { setCompletionMode, useOptions, type FilingBoot } from "../../filing-helpers/kit"

export function completionTests({ api, getContainer, env, seeded }: FilingBoot): void {
  let store: SeededStore
  let auth: { headers: Record<string, string> }
  beforeAll(() => ({ store, auth } = seeded))
  useOptions(getContainer, { completionMode: "captured" })

  it("captured: filed with completed=false at placement, completedDate = the capture time", async () => {
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

  describe('completionMode "fulfilled"', () => {
    let restore = () => {}
    beforeEach(() => {
      restore = setCompletionMode(getContainer(), "fulfilled")
    })
    afterEach(() => restore())

    it("fulfilled: completed at the first fulfilment, once", async () => {
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
  })
}
