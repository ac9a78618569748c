/**
 * Filing, end to end, on one Medusa boot (a filing store seeded once, restored before each test, an
 * emptied sandbox): storefront checkouts against the sandbox, Medusa's own order workflows (admin
 * API), the filing subscriber/workflows/job, and what the service holds afterwards; then, each group
 * under the options it needs (set on the running app: setOptions), the order lifecycle
 * (filing/lifecycle.ts), the completion modes (filing/completion.ts) and filing's edges and reports
 * (filing/edges.ts). Run one group with `-t`, e.g. `-t lifecycle`.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { dec, roundCents, sum } from "../../packages/contract/src/money"
import {
  ADDRESSES,
  Checkout,
  createExemptShopper,
  resetFiling,
  seedFilingStore,
  placeOrder as checkoutOrder,
  useSalesTaxSandbox,
  type SeededStore,
} from "../helpers"
import { adminOrder, claim, exchange, filingStore, fulfil, returnAndReceive, waitForFiling } from "../filing-helpers/medusa"
import { Modules } from "@medusajs/framework/utils"
import { TAX_LINE_CODE } from "../../src/constants"
import { processDueFilings, syncOrder } from "../../src/filing/events/orders"
import { onReturnReceived } from "../../src/filing/events/changes"
import { useOptions, type FilingBoot } from "../filing-helpers/kit"
import { completionTests } from "./filing/completion"
import { edgesTests } from "./filing/edges"
import { lifecycleTests } from "./filing/lifecycle"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

const env = useSalesTaxSandbox()

/** Medusa's charged tax of a line (unrounded BigNumber) to the cent. */
const charged = (v: unknown) =>
  roundCents(typeof v === "object" && v !== null && "value" in (v as object) ? String((v as any).value) : String(v))

const orderTax = (o: { lineItems: { tax: { amount: number } }[] }) => roundCents(sum(o.lineItems.map((l) => l.tax.amount)))

medusaIntegrationTestRunner({
  env: env.env,
  testSuite: ({ api, getContainer }) => {
    const seeded = {} as FilingBoot["seeded"]
    beforeAll(async () => {
      Object.assign(seeded, await seedFilingStore(getContainer()))
    })
    beforeEach(() => resetFiling(env.sandbox))
    const boot: FilingBoot = { api, getContainer, env, seeded }

    describe("lifecycle", () => lifecycleTests(boot))
    describe("completion modes", () => completionTests(boot))
    describe("edges", () => edgesTests(boot))

    describe("orders", () => {
      let store: SeededStore
      let auth: { headers: Record<string, string> }
      beforeAll(() => ({ store, auth } = seeded))
      // a short background timeout so that injected delays time out quickly
      useOptions(getContainer, (o) => ({ filing: { ...o.filing, maxAttempts: 5 }, backgroundTimeoutMs: 3000 }))

      function placeOrder(address = ADDRESSES.sanFrancisco): Promise<{ order: any; cartId: string }> {
        return checkoutOrder(api, store, address, [
          [store.products.general.variantId, 3],
          [store.products.shirt.variantId, 2],
        ])
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

      it("an exempt customer's order: re-quoted and filed via carts/orders under the certificate, with zero tax", async () => {
        const { shopper, cert } = await createExemptShopper(api, store, env.sandbox, "exempt-buyer@example.com")
        const co = new Checkout(api, store, shopper.token)
        await co.create()
        await co.setAddress(ADDRESSES.minneapolis, "exempt-buyer@example.com")
        await co.addItem(store.products.general.variantId, 3)
        await co.addShipping()
        await env.sandbox.resetCounts()
        const order = await co.complete()
        const rec = await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        const counts = await env.sandbox.counts()
        expect(rec.filing_path).toBe("cart")
        expect(rec.charged_tax).toBe(0)
        expect(rec.filed_tax).toBe(0)
        expect(rec.tax_difference).toBe(0)
        expect(rec.snapshot?.exemptionId).toBe(cert.certificateId)
        // carts/orders, not a direct POST orders
        expect(counts.cartToOrder ?? 0).toBeGreaterThanOrEqual(1)
        expect(counts.createOrder ?? 0).toBe(0)
        const svc = await env.sandbox.client.getOrder(order.id)
        expect(svc.customerId).toBe(shopper.customerId)
        expect(svc.exemption.exemptionId).toBe(cert.certificateId)
        expect(orderTax(svc)).toBe(0)
        // the same order without the certificate would have been taxed (Minneapolis): the exemption is what makes it 0
        const plain = await env.sandbox.client.calculateCarts({
          items: [
            {
              customerId: svc.customerId,
              currency: svc.currency,
              origin: svc.origin,
              destination: svc.destination,
              lineItems: svc.lineItems.map((l) => ({ index: l.index, itemId: l.itemId, price: l.price, quantity: l.quantity, tic: l.tic })),
            },
          ],
        })
        expect(orderTax(plain.items[0]!)).toBeGreaterThan(0)
      })

      /** Fulfils every item (Medusa only returns fulfilled items). */
      async function fulfilAll(orderId: string) {
        const o = await adminOrder(api, auth, orderId)
        await fulfil(
          api,
          auth,
          orderId,
          o.items.map((i: any) => ({ id: i.id, quantity: i.quantity })),
        )
        return o
      }

      const serviceRefunds = async (orderId: string) => (await env.sandbox.client.getOrder(orderId, { expandRefunds: true })).refunds ?? []
      const qtyOf = (refund: { items: { itemId: string; quantity: number }[] }, itemId: string) =>
        Math.abs(refund.items.find((i) => i.itemId === itemId)?.quantity ?? 0)

      it("order.canceled before the cutoff: the order is voided at the service", async () => {
        const { order } = await placeOrder()
        await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        await api.post(`/admin/orders/${order.id}/cancel`, {}, auth)
        await waitForFiling(getContainer(), order.id, (r) => r.state === "voided", "voided")
        await expect(env.sandbox.client.getOrder(order.id)).rejects.toMatchObject({ status: 404 })
        expect((await env.sandbox.counts()).voidOrder).toBe(1)
      })

      it("order.canceled after the cutoff (sandbox clock): the whole order is refunded under cancel:<order id>", async () => {
        const { order } = await placeOrder()
        const rec = await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        await env.sandbox.setClock(new Date(Date.now() + 70 * 86_400_000))
        await api.post(`/admin/orders/${order.id}/cancel`, {}, auth)
        const done = await waitForFiling(getContainer(), order.id, (r) => r.state === "refunded", "refunded")
        const refunds = await serviceRefunds(order.id)
        expect(refunds).toHaveLength(1)
        expect(refunds[0]!.idempotencyKey).toBe(`cancel:${order.id}`)
        expect(roundCents(sum(refunds[0]!.items.map((i) => Math.abs(i.tax.amount))))).toBe(rec.charged_tax)
        expect(done.refunds?.[0]?.refunded_tax).toBe(rec.charged_tax)
      })

      it("two partial returns: exactly the returned items and quantities, one refund per return", async () => {
        const { order } = await placeOrder()
        await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        const o = await fulfilAll(order.id)
        const lamp = o.items.find((i: any) => i.quantity === 3)
        const shirt = o.items.find((i: any) => i.quantity === 2)
        const r1 = await returnAndReceive(api, auth, order.id, [{ id: lamp.id, quantity: 1 }])
        await waitForFiling(
          getContainer(),
          order.id,
          (r) => (r.refunds ?? []).some((x) => x.source_id === r1 && x.state === "refunded"),
          "first refund",
        )
        const r2 = await returnAndReceive(api, auth, order.id, [
          { id: lamp.id, quantity: 1 },
          { id: shirt.id, quantity: 2 },
        ])
        const rec = await waitForFiling(
          getContainer(),
          order.id,
          (r) => (r.refunds ?? []).filter((x) => x.state === "refunded").length === 2,
          "two refunds",
        )
        expect(rec.state).toBe("partially_refunded")
        const refunds = await serviceRefunds(order.id)
        expect(refunds.map((r) => r.idempotencyKey).sort()).toEqual([r1, r2].sort())
        const a = refunds.find((r) => r.idempotencyKey === r1)!
        const b = refunds.find((r) => r.idempotencyKey === r2)!
        expect([qtyOf(a, lamp.id), qtyOf(a, shirt.id)]).toEqual([1, 0])
        expect([qtyOf(b, lamp.id), qtyOf(b, shirt.id)]).toEqual([1, 2])
        // the refunded tax is the charged tax of what came back
        const lampTax = charged(lamp.tax_total),
          shirtTax = charged(shirt.tax_total)
        expect(roundCents(sum(b.items.map((i) => Math.abs(i.tax.amount))))).toBe(roundCents(dec(lampTax).div(3).plus(shirtTax)))
      })

      it("a claim refunds the claimed items (key = claim id); its return arriving later adds nothing", async () => {
        const { order } = await placeOrder()
        await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        const o = await fulfilAll(order.id)
        const shirt = o.items.find((i: any) => i.quantity === 2)
        const claimId = await claim(api, auth, order.id, [{ id: shirt.id, quantity: 1 }])
        await waitForFiling(
          getContainer(),
          order.id,
          (r) => (r.refunds ?? []).some((x) => x.idempotency_key === claimId && x.state === "refunded"),
          "claim refund",
        )
        // the claim's return is received later: order.return_received maps to the claim's key
        const q = getContainer().resolve("query") as any
        const {
          data: [c],
        } = await q.graph({ entity: "order_claim", fields: ["id", "return_id"], filters: { id: claimId } })
        expect(c.return_id).toBeTruthy()
        await api.post(`/admin/returns/${c.return_id}/receive`, {}, auth)
        await api.post(`/admin/returns/${c.return_id}/receive-items`, { items: [{ id: shirt.id, quantity: 1 }] }, auth)
        await api.post(`/admin/returns/${c.return_id}/receive/confirm`, {}, auth)
        const counts0 = (await env.sandbox.counts()).refundOrder
        await onReturnReceived(getContainer(), c.return_id)
        const refunds = await serviceRefunds(order.id)
        expect(refunds).toHaveLength(1)
        expect(refunds[0]!.idempotencyKey).toBe(claimId)
        expect(qtyOf(refunds[0]!, shirt.id)).toBe(1)
        expect((await env.sandbox.counts()).refundOrder).toBe(counts0)
        expect((await filingStore(getContainer()).findRecord(order.id))?.refunds).toHaveLength(1)
      })

      it("an exchange: returned items refunded (key = exchange id), new items filed as an order of their own", async () => {
        const { order } = await placeOrder()
        await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        const o = await fulfilAll(order.id)
        const lamp = o.items.find((i: any) => i.quantity === 3)
        const exchangeId = await exchange(
          api,
          auth,
          order.id,
          [{ id: lamp.id, quantity: 1 }],
          [{ variant_id: store.products.jacket.variantId, quantity: 1 }],
        )
        const xrec = await waitForFiling(getContainer(), exchangeId, (r) => r.state === "completed", "exchange filed")
        await waitForFiling(
          getContainer(),
          order.id,
          (r) => (r.refunds ?? []).some((x) => x.idempotency_key === exchangeId && x.state === "refunded"),
          "exchange refund",
        )
        const svcX = await env.sandbox.client.getOrder(exchangeId)
        expect(svcX.lineItems.filter((l) => !l.itemId.startsWith("shipping:"))).toHaveLength(1)
        expect(svcX.lineItems[0]!.tic).toBe(store.products.jacket.tic)
        expect(orderTax(svcX)).toBe(xrec.charged_tax)
        // the new item's charged tax, as Medusa holds it
        const after = await adminOrder(api, auth, order.id)
        const jacket = after.items.find((i: any) => i.variant_id === store.products.jacket.variantId)
        expect(svcX.lineItems.find((l) => l.itemId === jacket.id)?.tax.amount).toBe(charged(jacket.tax_total))
        // the new item is taxed by the service like a cart item: clothing is taxed in California, and
        // Medusa charged exactly the sandbox's own quote for that item (one jacket, its TIC, SF)
        const jx = (
          await api.get(`/admin/orders/${order.id}?fields=items.id,items.unit_price,items.tax_lines.code`, auth)
        ).data.order.items.find((i: any) => i.id === jacket.id)
        expect(Number(jacket.quantity)).toBe(1)
        expect(jx.tax_lines.map((t: any) => t.code)).toEqual([TAX_LINE_CODE])
        const quote = await env.sandbox.client.calculateCarts({
          items: [
            {
              customerId: svcX.customerId,
              currency: svcX.currency,
              origin: svcX.origin,
              destination: svcX.destination,
              lineItems: [{ index: 0, itemId: "jacket", price: Number(jx.unit_price), quantity: 1, tic: store.products.jacket.tic }],
            },
          ],
        })
        const quoted = quote.items[0]!.lineItems[0]!.tax.amount
        expect(quoted).toBeGreaterThan(0)
        expect(charged(jacket.tax_total)).toBe(quoted)
        expect(xrec.charged_tax).toBeGreaterThanOrEqual(quoted)
        expect(xrec.filed_tax).toBe(xrec.charged_tax)
        const refunds = await serviceRefunds(order.id)
        expect(refunds.map((r) => [r.idempotencyKey, qtyOf(r, lamp.id)])).toEqual([[exchangeId, 1]])
        // the original filing is untouched by the exchange's new item
        expect((await env.sandbox.client.getOrder(order.id)).lineItems.some((l) => l.itemId === jacket.id)).toBe(false)

        // returning the item that came with the exchange refunds it on the exchange's own filing
        await fulfil(api, auth, order.id, [{ id: jacket.id, quantity: 1 }])
        const retId = await returnAndReceive(api, auth, order.id, [{ id: jacket.id, quantity: 1 }])
        await waitForFiling(
          getContainer(),
          exchangeId,
          (r) => (r.refunds ?? []).some((x) => x.state === "refunded"),
          "exchange item refunded",
        )
        const xRefunds = await serviceRefunds(exchangeId)
        expect(xRefunds.map((r) => [r.idempotencyKey, qtyOf(r, jacket.id)])).toEqual([[`${retId}:${exchangeId}`, 1]])
        expect(await serviceRefunds(order.id)).toHaveLength(1)
      })

      it("duplicated events (sequential and concurrent): one filing and one refund per return", async () => {
        const { order } = await placeOrder()
        await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        const bus = getContainer().resolve(Modules.EVENT_BUS) as any
        await Promise.all([1, 2, 3].map(() => bus.emit({ name: "order.placed", data: { id: order.id } })))
        await syncOrder(getContainer(), order.id)
        const o = await fulfilAll(order.id)
        const lamp = o.items.find((i: any) => i.quantity === 3)
        const retId = await returnAndReceive(api, auth, order.id, [{ id: lamp.id, quantity: 2 }])
        await Promise.all([
          bus.emit({ name: "order.return_received", data: { order_id: order.id, return_id: retId } }),
          bus.emit({ name: "order.return_received", data: { order_id: order.id, return_id: retId } }),
          onReturnReceived(getContainer(), retId),
          onReturnReceived(getContainer(), retId),
        ])
        await waitForFiling(getContainer(), order.id, (r) => (r.refunds ?? []).some((x) => x.state === "refunded"), "refund")
        // exactly once, counted at the service: one write call per filing step of this order (the
        // sandbox was reset before the test, and this test places one order), whatever the
        // redeliveries: 3 extra order.placed + a direct run, 4 deliveries of the return
        const c = await env.sandbox.counts()
        expect({
          cartToOrder: c.cartToOrder,
          createOrder: c.createOrder,
          voidOrder: c.voidOrder,
          refundOrder: c.refundOrder,
          updateOrder: c.updateOrder,
        }).toEqual({ cartToOrder: 1, createOrder: 0, voidOrder: 0, refundOrder: 1, updateOrder: 0 })
        const rec0 = await filingStore(getContainer()).findRecord(order.id)
        expect(rec0?.filing_path).toBe("cart")
        expect(orderTax(await env.sandbox.client.getOrder(order.id))).toBe(rec0?.charged_tax)
        const refunds = await serviceRefunds(order.id)
        expect(refunds).toHaveLength(1)
        expect(qtyOf(refunds[0]!, lamp.id)).toBe(2)
        const rec = await filingStore(getContainer()).findRecord(order.id)
        expect(rec?.refunds).toHaveLength(1)
      })

      it.each([
        ["HTTP 500", { status: 500 }],
        ["HTTP 503", { status: 503, retryAfter: "1" }],
        ["HTTP 429", { status: 429, retryAfter: "1" }],
        // no answer within the 3 s timeout; the socket is then dropped without running the operation,
        // so the order cannot appear at the service behind the test's back (the app's own retry job
        // could otherwise reconcile it before the failed state is seen)
        ["timeouts", { delayMs: 8_000, drop: true }],
      ])("injected %s: recorded as failed, healed by the retry job", async (_n, spec) => {
        // the checkout itself is not faulted: the faults start once the cart is ready
        const co = new Checkout(api, store)
        await co.create()
        await co.setAddress(ADDRESSES.sanFrancisco)
        await co.addItem(store.products.general.variantId, 1)
        await co.addShipping()
        await env.sandbox.fault({ operation: "cartToOrder", ...spec })
        await env.sandbox.fault({ operation: "createOrder", ...spec })
        const order = await co.complete()
        const failed = await waitForFiling(getContainer(), order.id, (r) => r.state === "failed", "failed")
        expect(failed.attempts).toBeGreaterThanOrEqual(1)
        expect(failed.next_attempt_at).not.toBeNull()
        expect(failed.last_error).not.toContain(env.sandbox.apiKey)
        await env.sandbox.clearFaults()
        // the job's run once the attempt is due (the clock of the processor is moved, not the test's)
        const later = new Date(new Date(failed.next_attempt_at!).getTime() + 1000)
        await processDueFilings(getContainer(), 100, { now: () => later })
        const healed = await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        expect(healed.filed_tax).toBe(healed.charged_tax)
        expect(orderTax(await env.sandbox.client.getOrder(order.id))).toBe(healed.charged_tax)
      })

      it("the retry job workflow and the admin routes: list, get, retry on demand", async () => {
        await env.sandbox.fault({ operation: "cartToOrder", status: 500 })
        const { order } = await placeOrder()
        await waitForFiling(getContainer(), order.id, (r) => r.state === "failed", "failed")
        const list = await api.get(`/admin/sales-tax/filings?state=failed`, auth)
        expect(list.data.filings.map((f: any) => f.order_id)).toContain(order.id)
        const bad = await api.get(`/admin/sales-tax/filings?state=nonsense`, auth).catch((e: any) => e.response)
        expect(bad.status).toBe(400)
        expect(bad.data.errors[0].location).toBe("query.state")
        const one = await api.get(`/admin/sales-tax/filings/${order.id}`, auth)
        expect(one.data.filing.state).toBe("failed")
        expect(JSON.stringify(one.data)).not.toContain(env.sandbox.apiKey)
        const missing = await api.post(`/admin/sales-tax/filings/order_nope/retry`, {}, auth).catch((e: any) => e.response)
        expect(missing.status).toBe(404)
        const unauth = await api.post(`/admin/sales-tax/filings/${order.id}/retry`, {}).catch((e: any) => e.response)
        expect(unauth.status).toBe(401)
        // the job before the attempt is due changes nothing
        await processDueFilings(getContainer())
        await env.sandbox.clearFaults()
        const retried = await api.post(`/admin/sales-tax/filings/${order.id}/retry`, {}, auth)
        expect(retried.data.filing.state).toBe("completed")
        expect(retried.data.filing.attempts).toBe(0)
      })
    })
  },
})
