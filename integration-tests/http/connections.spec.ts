/**
 * A connection per sales channel (issue 16), end to end: real Medusa and PostgreSQL, the sandbox
 * over HTTP serving two connections (A, the default; B, a second sales channel's). A second
 * channel's orders are quoted, filed, refunded and voided on B (the sandbox's counts per
 * connection), the default channel's on A; net filed = net charged per line across both. The
 * certificate lists are per connection. The admin lists the connections (keys as ****) and pings
 * each.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  linkProductsToSalesChannelWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/core-flows"
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../../src/client"
import {
  ADDRESSES,
  Checkout,
  createExemptShopper,
  freshFilingStore,
  placeOrder,
  salesTaxEnv,
  salesTaxProvider,
  sandboxCaller,
  TEST_API_KEY,
  TEST_CONNECTION_ID,
  type SeededStore,
  type TestSandbox,
} from "../helpers"
import { adminOrder, filingStore, fulfil, returnAndReceive, waitForFiling } from "../filing-helpers/medusa"
import { LifecycleModel, lineDiffs, netFiled, total } from "../filing-helpers/lifecycle"
import { toCents, roundCents } from "../../src/money"
import { checkConnectionChannels } from "../../src/modules/sales-tax/boot-check"
import { getPluginOptions } from "../../src/options"

jest.setTimeout(180_000)

const CONN_B = "bbbbbbbb-2222-4333-8444-555555555555"
const KEY_B = "sk_test_connection_b_0123456789-SECRET"
/** configured but unknown to the sandbox (its ping fails) and its channel never created (the boot warning) */
const CONN_C = "cccccccc-2222-4333-8444-555555555555"
const KEY_C = "sk_test_connection_c_0123456789-SECRET"
const CHANNEL_B = "sc_test_connection_b"
const CHANNEL_MISSING = "sc_test_never_created"

// the sandbox with two connections, started before the runner boots Medusa (env read by medusa-config.ts)
const holder = {
  env: {} as Record<string, string>,
  running: undefined as unknown as RunningSandbox,
  sandbox: undefined as unknown as TestSandbox,
}
beforeAll(async () => {
  holder.running = await startSandbox({
    port: 0,
    host: "127.0.0.1",
    apiKey: TEST_API_KEY,
    connectionId: TEST_CONNECTION_ID,
    connections: [{ connectionId: CONN_B, apiKey: KEY_B }],
  })
  const url = holder.running.url
  const call = sandboxCaller(url, TEST_API_KEY)
  holder.sandbox = {
    url,
    apiKey: TEST_API_KEY,
    connectionId: TEST_CONNECTION_ID,
    running: holder.running,
    client: new SalesTaxClient({ baseUrl: url, apiKey: TEST_API_KEY, connectionId: TEST_CONNECTION_ID, retry: false }),
    call,
    counts: async () => (await call("GET", "/_sandbox/counts")).counts ?? {},
    resetCounts: async () => void (await call("DELETE", "/_sandbox/counts")),
    fault: (spec) => call("POST", "/_sandbox/faults", spec),
    clearFaults: async () => void (await call("DELETE", "/_sandbox/faults")),
    reset: async () => void (await call("POST", "/_sandbox/reset")),
    setClock: async (now) => void (await call("PUT", "/_sandbox/clock", { now: now.toISOString() })),
    close: () => holder.running.close(),
  }
  const env = salesTaxEnv(holder.sandbox, {
    connections: [
      { salesChannelIds: [CHANNEL_B], connectionId: CONN_B, apiKey: KEY_B },
      { salesChannelIds: [CHANNEL_MISSING], connectionId: CONN_C, apiKey: KEY_C },
    ],
  })
  Object.assign(holder.env, env)
  Object.assign(process.env, env)
})
afterAll(async () => {
  await holder.running?.close()
})

/** Requests per operation on one connection (the sandbox's counts per connection). */
async function countsOn(connectionId: string): Promise<Record<string, number>> {
  return ((await holder.sandbox.call("GET", "/_sandbox/counts")).byConnection ?? {})[connectionId] ?? {}
}

/** A second sales channel (id CHANNEL_B) with its publishable key, the store's location and products. */
async function seedChannelB(container: MedusaContainer, store: SeededStore): Promise<SeededStore> {
  const sc = container.resolve(Modules.SALES_CHANNEL) as any
  await sc.createSalesChannels({ id: CHANNEL_B, name: "Wholesale" })
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Wholesale", type: "publishable", created_by: "test" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [CHANNEL_B] } })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: store.stockLocationId, add: [CHANNEL_B] } })
  await linkProductsToSalesChannelWorkflow(container).run({
    input: { id: CHANNEL_B, add: Object.values(store.products).map((p) => p.id) },
  })
  return { ...store, salesChannelId: CHANNEL_B, publishableKey: key.token }
}

medusaIntegrationTestRunner({
  env: holder.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let storeB: SeededStore
    let auth: { headers: Record<string, string> }
    const clientB = () => new SalesTaxClient({ baseUrl: holder.sandbox.url, apiKey: KEY_B, connectionId: CONN_B, retry: false })

    beforeEach(async () => {
      ;({ store, auth } = await freshFilingStore(getContainer(), holder.sandbox))
      storeB = await seedChannelB(getContainer(), store)
      salesTaxProvider(getContainer()).breaker.reset()
    })

    /** What Medusa charged per line (items and shipping), into the model. */
    async function charged(model: LifecycleModel, orderId: string) {
      const o = await adminOrder(api, auth, orderId)
      for (const l of [...o.items, ...o.shipping_methods]) {
        const id = o.items.includes(l) ? l.id : `shipping:${l.id}`
        model.file(id, o.items.includes(l) ? Number(l.quantity) : 1, roundCents(String(l.tax_total?.value ?? l.tax_total)))
      }
      return o
    }

    it("a second channel's orders are quoted, filed, refunded and voided on its own connection; the default channel's on the default; net filed = net charged per line across both", async () => {
      await holder.sandbox.resetCounts()
      const lines: [string, number][] = [
        [store.products.general.variantId, 3],
        [store.products.shirt.variantId, 1],
      ]
      const { order: a } = await placeOrder(api, store, ADDRESSES.louisville, lines)
      const { order: b1 } = await placeOrder(api, storeB, ADDRESSES.louisville, lines)
      const { order: b2 } = await placeOrder(api, storeB, ADDRESSES.minneapolis, lines)
      for (const id of [a.id, b1.id, b2.id]) await waitForFiling(getContainer(), id, (r) => r.state === "completed", "completed")

      // each order's tax was charged (the quotes were answered on its connection)
      const model = new LifecycleModel()
      const orders = new Map<string, any>()
      for (const id of [a.id, b1.id, b2.id]) orders.set(id, await charged(model, id))
      for (const o of orders.values()) expect(toCents(roundCents(String(o.tax_total)))).toBeGreaterThan(0)

      // B1: a return of one lamp (refund on B); B2: cancelled (void on B)
      const o1 = orders.get(b1.id)
      await fulfil(
        api,
        auth,
        b1.id,
        o1.items.map((i: any) => ({ id: i.id, quantity: i.quantity })),
      )
      const lamp = o1.items.find((i: any) => i.variant_id === store.products.general.variantId)
      await returnAndReceive(api, auth, b1.id, [{ id: lamp.id, quantity: 1 }])
      model.refund(lamp.id, 1)
      await api.post(`/admin/orders/${b2.id}/cancel`, {}, auth)
      const o2 = orders.get(b2.id)
      for (const id of [...o2.items.map((i: any) => i.id), ...o2.shipping_methods.map((s: any) => `shipping:${s.id}`)])
        model.lines.get(id)!.voided = true
      await waitForFiling(getContainer(), b1.id, (r) => r.state === "partially_refunded", "partially_refunded")
      await waitForFiling(getContainer(), b2.id, (r) => r.state === "voided", "voided")

      // the records keep the connection they were filed on (none = the default)
      const recs = await Promise.all([a.id, b1.id, b2.id].map((id) => filingStore(getContainer()).findRecord(id)))
      expect(recs.map((r) => r!.snapshot?.connectionId ?? null)).toEqual([null, CONN_B, CONN_B])

      // the sandbox's counts per connection: B filed two orders, refunded one, voided one; A filed one and nothing else
      const [onA, onB] = [await countsOn(TEST_CONNECTION_ID), await countsOn(CONN_B)]
      const filings = (c: Record<string, number>) => (c.cartToOrder ?? 0) + (c.createOrder ?? 0)
      expect({ filed: filings(onB), refunds: onB.refundOrder ?? 0, voids: onB.voidOrder ?? 0 }).toEqual({ filed: 2, refunds: 1, voids: 1 })
      expect({ filed: filings(onA), refunds: onA.refundOrder ?? 0, voids: onA.voidOrder ?? 0 }).toEqual({ filed: 1, refunds: 0, voids: 0 })
      expect(onB.calculateCarts).toBeGreaterThanOrEqual(2)
      expect(onA.calculateCarts).toBeGreaterThanOrEqual(1)

      // each connection holds its own orders only
      await expect(holder.sandbox.client.getOrder(b1.id)).rejects.toMatchObject({ status: 404 })
      await expect(clientB().getOrder(a.id)).rejects.toMatchObject({ status: 404 })

      // net filed = net charged per line, across both connections
      const filed = new Map([...(await netFiled(holder.sandbox.client, [a.id])), ...(await netFiled(clientB(), [b1.id, b2.id]))])
      const expected = model.net()
      expect(lineDiffs(expected, filed)).toEqual([])
      expect(total(filed)).toBe(total(expected))
      expect(total(filed)).toBeGreaterThan(0)
    })

    it("certificates are per connection: a certificate on the default connection exempts the default channel's cart, not the second channel's", async () => {
      const { shopper } = await createExemptShopper(api, store, holder.sandbox, "exempt-conn@example.com")
      const quoteFor = async (s: SeededStore) => {
        const co = new Checkout(api, s, shopper.token)
        await co.create()
        await co.setAddress(ADDRESSES.minneapolis, "exempt-conn@example.com")
        return co.addItem(store.products.general.variantId, 2)
      }
      await holder.sandbox.resetCounts()
      const onA = await quoteFor(store)
      const onB = await quoteFor(storeB)
      expect(toCents(roundCents(String(onA.tax_total)))).toBe(0)
      expect(toCents(roundCents(String(onB.tax_total)))).toBeGreaterThan(0)
      // each connection's list was asked on that connection (the cache is keyed by connection)
      expect((await countsOn(TEST_CONNECTION_ID)).listCertificates).toBe(1)
      expect((await countsOn(CONN_B)).listCertificates).toBe(1)
    })

    it("admin: the connections with their sales channels and keys as ****, a ping per connection; bad input located; unknown channels warned", async () => {
      const list = (await api.get("/admin/sales-tax/connections", auth)).data
      // the default connection: every channel no other connection names (Medusa's own default channel too)
      const defaultChannels = list.connections[0].salesChannels.map((c: any) => c.id)
      expect(defaultChannels).toContain(store.salesChannelId)
      expect(defaultChannels).not.toContain(CHANNEL_B)
      expect(list.connections).toEqual([
        {
          connectionId: TEST_CONNECTION_ID,
          apiKey: "****",
          isDefault: true,
          salesChannels: expect.arrayContaining([{ id: store.salesChannelId, name: "Webshop", exists: true }]),
        },
        { connectionId: CONN_B, apiKey: "****", isDefault: false, salesChannels: [{ id: CHANNEL_B, name: "Wholesale", exists: true }] },
        { connectionId: CONN_C, apiKey: "****", isDefault: false, salesChannels: [{ id: CHANNEL_MISSING, name: null, exists: false }] },
      ])
      const settings = (await api.get("/admin/sales-tax/settings", auth)).data
      const everything = JSON.stringify([list, settings])
      for (const key of [TEST_API_KEY, KEY_B, KEY_C]) expect(everything).not.toContain(key)

      await holder.sandbox.resetCounts()
      const ping = async (connection_id: string) => (await api.post("/admin/sales-tax/connections/ping", { connection_id }, auth)).data
      expect((await ping(CONN_B)).ping).toMatchObject({ ok: true, result: { message: "pong" } })
      expect((await ping(TEST_CONNECTION_ID)).ping).toMatchObject({ ok: true })
      const c = await ping(CONN_C)
      expect(c.ping).toMatchObject({ ok: false, status: 401 })
      expect(JSON.stringify(c)).not.toContain(KEY_C)
      expect((await countsOn(CONN_B)).ping).toBe(1)
      expect((await countsOn(TEST_CONNECTION_ID)).ping).toBe(1)

      const unknown = await api.post("/admin/sales-tax/connections/ping", { connection_id: "nope" }, auth).catch((e) => e.response)
      expect(unknown.status).toBe(404)
      const bad = await api.post("/admin/sales-tax/connections/ping", { connection: 1 }, auth).catch((e) => e.response)
      expect(bad.status).toBe(400)
      expect(bad.data.errors.map((e: any) => e.location)).toEqual(expect.arrayContaining(["body.connection_id"]))

      // the boot check: the configured channel that does not exist, named with its place in the options
      const warnings: string[] = []
      const w = await checkConnectionChannels(getPluginOptions(getContainer() as never), { warn: (m) => warnings.push(m) })
      expect(w).toMatch(/connections\[1\]\.salesChannelIds\[0\] = sc_test_never_created/)
      expect(w).not.toMatch(/sc_test_connection_b/)
      expect(warnings).toEqual([w])
    })
  },
})
