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
import {
  createShippingProfilesWorkflow,
  updateProductsWorkflow,
  linkProductsToSalesChannelWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/core-flows"
import { addSalesChannel, addWarehouse } from "../../dev-store/seed"
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../../src/service/client"
import {
  ADDRESSES,
  Checkout,
  createExemptShopper,
  resetFiling,
  seedFilingStore,
  placeOrder,
  salesTaxEnv,
  salesTaxProvider,
  sandboxCaller,
  storeHeaders,
  TEST_API_KEY,
  TEST_CONNECTION_ID,
  type SeededStore,
  type TestSandbox,
} from "../helpers"
import { adminOrder, editOrder, exchange, filingStore, fulfil, returnAndReceive, waitForFiling } from "../filing-helpers/medusa"
import { LifecycleModel, lineDiffs, netFiled, total } from "../filing-helpers/lifecycle"
import { toCents, roundCents } from "../../packages/contract/src/money"
import { checkConnectionChannels } from "../../src/medusa/boot-check"
import { getPluginOptions } from "../../src/options"
import { originServiceId } from "../../src/service/origins/origins"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { TAX_LINE_CODE, TAX_LINE_CODE_FALLBACK } from "../../src/constants"
import { SALES_TAX_FILING_MODULE } from "../../src/modules/sales-tax-filing/types"
import backfillSalesTax from "../../src/scripts/backfill-sales-tax"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

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
    // two failing quotes open a connection's circuit (the breaker-per-connection test)
    circuitBreaker: { failures: 2, halfOpenAfterMs: 600_000 },
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
  const { salesChannelId, publishableKey } = await addSalesChannel(container, {
    id: CHANNEL_B,
    name: "Wholesale",
    publishableKey: { title: "Wholesale", createdBy: "test" },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: store.stockLocationId, add: [salesChannelId] } })
  await linkProductsToSalesChannelWorkflow(container).run({
    input: { id: salesChannelId, add: Object.values(store.products).map((p) => p.id) },
  })
  return { ...store, salesChannelId, publishableKey }
}

const AUSTIN = { address_1: "500 Congress Ave", city: "Austin", country_code: "us", province: "TX", postal_code: "78701" }

/**
 * A second stock location (Austin, TX) with its own fulfillment set, shipping profile and option
 * (dev-store's addWarehouse); the T-shirt moves to that profile, so a cart with a lamp and a shirt
 * ships from Seattle and Austin.
 */
async function seedAustin(container: MedusaContainer, store: SeededStore, address: typeof AUSTIN = AUSTIN) {
  const {
    result: [profile],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "From Austin", type: "austin" }] } })
  const { stockLocationId, shippingOptionId } = await addWarehouse(container, {
    name: "Austin warehouse",
    address,
    salesChannelIds: [store.salesChannelId],
    shippingProfileId: profile.id,
    zone: "US from Austin",
    option: {
      name: "Austin ground",
      type: { label: "Austin ground", description: "from Texas", code: "austin" },
      price: 6,
      regionId: store.regionId,
    },
  })
  await updateProductsWorkflow(container).run({
    input: { selector: { id: store.products.shirt.id }, update: { shipping_profile_id: profile.id } },
  })
  return { locationId: stockLocationId, optionId: shippingOptionId, profileId: profile.id }
}

medusaIntegrationTestRunner({
  env: holder.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let storeB: SeededStore
    let auth: { headers: Record<string, string> }
    const clientB = () => new SalesTaxClient({ baseUrl: holder.sandbox.url, apiKey: KEY_B, connectionId: CONN_B, retry: false })

    // seeded once: Medusa's runner restores this seeded database before every test
    beforeAll(async () => {
      ;({ store, auth } = await seedFilingStore(getContainer()))
      storeB = await seedChannelB(getContainer(), store)
    })
    beforeEach(async () => {
      await resetFiling(holder.sandbox)
      salesTaxProvider(getContainer()).breaker.reset()
      salesTaxProvider(getContainer()).breakerFor(CONN_B).reset()
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

    it("a circuit breaker per connection: the wholesale account's outage opens its breaker only; the default channel still quotes live", async () => {
      const provider = salesTaxProvider(getContainer())
      // the sandbox fails every quote on connection B only
      await holder.sandbox.fault({ operation: "calculateCarts", status: 503, connectionId: CONN_B })
      try {
        const b = new Checkout(api, storeB)
        await b.create()
        await b.setAddress(ADDRESSES.minneapolis)
        await b.addItem(store.products.general.variantId, 1)
        await b.addItem(store.products.coffee.variantId, 1)
        expect(provider.breakerFor(CONN_B).state).toBe("open")
        expect(provider.breaker.state).toBe("closed")
        // B's open circuit: its next quote makes no call and falls back
        const callsB = (await countsOn(CONN_B)).calculateCarts ?? 0
        const cartB = await b.addItem(store.products.general.variantId, 1)
        expect((await countsOn(CONN_B)).calculateCarts ?? 0).toBe(callsB)
        expect(cartB.items[0].tax_lines[0].code).toBe(TAX_LINE_CODE_FALLBACK)

        // the default channel's carts are quoted live on A meanwhile
        await holder.sandbox.resetCounts()
        const a = new Checkout(api, store)
        await a.create()
        await a.setAddress(ADDRESSES.minneapolis)
        await a.addItem(store.products.general.variantId, 2)
        const cartA = await a.addItem(store.products.coffee.variantId, 1)
        expect((await countsOn(TEST_CONNECTION_ID)).calculateCarts).toBe(2)
        expect(cartA.items.map((i: any) => i.tax_lines[0].code)).toEqual([TAX_LINE_CODE, TAX_LINE_CODE])
        expect(toCents(roundCents(String(cartA.tax_total)))).toBeGreaterThan(0)
        expect(provider.breaker.state).toBe("closed")
      } finally {
        await holder.sandbox.clearFaults()
        provider.breakerFor(CONN_B).reset()
      }
    })

    it("certificates are per connection: a certificate on the default connection exempts the default channel's cart, not the second channel's; one submitted from the second channel's storefront is created on its connection", async () => {
      const { shopper } = await createExemptShopper(api, store, holder.sandbox, "exempt-conn@example.com")
      const quoteFor = async (s: SeededStore) => {
        const co = new Checkout(api, s, shopper.token)
        await co.create()
        await co.setAddress(ADDRESSES.minneapolis, "exempt-conn@example.com")
        return co.addItem(store.products.general.variantId, 2)
      }
      await holder.sandbox.resetCounts()
      const refusedBefore = salesTaxProvider(getContainer()).stats.refusedCertificates
      const onA = await quoteFor(store)
      const onB = await quoteFor(storeB)
      // the second channel's cart never offered connection A's certificate to connection B
      expect(salesTaxProvider(getContainer()).stats.refusedCertificates).toBe(refusedBefore)
      expect(toCents(roundCents(String(onA.tax_total)))).toBe(0)
      expect(toCents(roundCents(String(onB.tax_total)))).toBeGreaterThan(0)
      // each connection's list was asked on that connection (the cache is keyed by connection)
      expect((await countsOn(TEST_CONNECTION_ID)).listCertificates).toBe(1)
      expect((await countsOn(CONN_B)).listCertificates).toBe(1)

      // the shopper submits a certificate from the second channel's storefront: created on ITS
      // connection, and from the next refresh the second channel's cart is exempt too
      const submitted = await api.post(
        "/store/sales-tax/certificates",
        {
          customerName: "Buyer Inc",
          address: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
          reason: "Resale",
          customerBusinessType: "RetailTrade",
          states: [{ abbreviation: "MN", identificationNumber: "MN-RESALE-1" }],
        },
        storeHeaders(storeB, shopper.token),
      )
      expect(submitted.status).toBe(201)
      const id = submitted.data.certificate.certificateId
      await expect(clientB().getCertificate(id)).resolves.toMatchObject({ customerId: shopper.customerId })
      await expect(holder.sandbox.client.getCertificate(id)).rejects.toMatchObject({ status: 404 })
      // pending until staff approve it (shopperCertificates: "review", the default), on its connection
      expect(toCents(roundCents(String((await quoteFor(storeB)).tax_total)))).toBeGreaterThan(0)
      const approved = await api.post(`/admin/sales-tax/certificates/${id}/review?connection_id=${CONN_B}`, { decision: "approve" }, auth)
      expect(approved.status).toBe(200)
      const again = await quoteFor(storeB)
      expect(toCents(roundCents(String(again.tax_total)))).toBe(0)
    })

    it("admin certificates on a chosen connection (?connection_id=, validated against the configured ones; default: the default connection); the storefront's address verification on its channel's connection", async () => {
      const { shopper, cert } = await createExemptShopper(api, store, holder.sandbox, "admin-conn@example.com")
      const path = `/admin/sales-tax/customers/${shopper.customerId}/certificates`
      const body = {
        customerName: "Wholesale Buyer",
        address: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
        reason: "Resale",
        customerBusinessType: "RetailTrade",
        states: [{ abbreviation: "MN", identificationNumber: "MN-RESALE-2" }],
      }
      // created on B: at B's service only
      const created = await api.post(`${path}?connection_id=${CONN_B}`, body, auth)
      expect(created.status).toBe(201)
      const onB = created.data.certificate.certificateId
      await expect(clientB().getCertificate(onB)).resolves.toMatchObject({ customerId: shopper.customerId })
      await expect(holder.sandbox.client.getCertificate(onB)).rejects.toMatchObject({ status: 404 })
      // listed per connection: the default lists A's, ?connection_id=B lists B's
      const ids = async (q: string) => (await api.get(`${path}${q}`, auth)).data.certificates.map((c: any) => c.certificateId)
      expect(await ids("")).toEqual([cert.certificateId])
      expect(await ids(`?connection_id=${TEST_CONNECTION_ID}`)).toEqual([cert.certificateId])
      expect(await ids(`?connection_id=${CONN_B}`)).toEqual([onB])
      // read and disabled on B
      expect((await api.get(`/admin/sales-tax/certificates/${onB}?connection_id=${CONN_B}`, auth)).data.certificate.certificateId).toBe(onB)
      const missing = await api.get(`/admin/sales-tax/certificates/${onB}`, auth).catch((e: any) => e.response)
      expect(missing.status).toBe(404)
      const disabled = await api.delete(`/admin/sales-tax/certificates/${onB}?connection_id=${CONN_B}`, auth)
      expect(disabled.data.certificate.disabledAt).not.toBeNull()
      expect((await clientB().getCertificate(onB)).disabledAt).not.toBeNull()
      // an id that is not a configured connection: a located 400, nothing asked
      await holder.sandbox.resetCounts()
      for (const bad of ["nope", ""]) {
        const r = await api.get(`${path}?connection_id=${bad}`, auth).catch((e: any) => e.response)
        expect(r.status).toBe(400)
        expect(r.data.errors.map((e: any) => e.location)).toEqual(["query.connection_id"])
      }
      expect((await holder.sandbox.counts()).listCertificates ?? 0).toBe(0)

      // address verification: the wholesale storefront's on B, the webshop's on A
      await holder.sandbox.resetCounts()
      const address = { address_1: "350 S 5th St", city: "Minneapolis", province: "MN", postal_code: "55415" }
      expect((await api.post("/store/sales-tax/verify-address", address, storeHeaders(storeB))).data.valid).toBe(true)
      expect(
        (await api.post("/store/sales-tax/verify-address", { ...address, address_1: "351 S 5th St" }, storeHeaders(store))).data.valid,
      ).toBe(true)
      expect((await countsOn(CONN_B)).verifyAddress).toBe(1)
      expect((await countsOn(TEST_CONNECTION_ID)).verifyAddress).toBe(1)
    })

    /** A lamp (Seattle) and a shirt (Austin) to Louisville, both shipping methods; the order. */
    async function twoLocationOrder(austinOptionId: string) {
      const co = new Checkout(api, store)
      await co.create()
      await co.setAddress(ADDRESSES.louisville)
      await co.addItem(store.products.general.variantId, 2)
      await co.addItem(store.products.shirt.variantId, 1)
      await co.addShipping()
      await holder.sandbox.resetCounts()
      const cart = await co.addShipping(austinOptionId)
      const quoted = (await holder.sandbox.counts()).calculateCarts
      const order = await co.complete()
      return { cartId: co.cartId, cart, order, quoted }
    }

    it("origin per stock location: a two-location cart is priced in one service call with each line's origin, filed as one order per origin; a return refunds on the line's origin, net filed = net charged; a cancel voids both", async () => {
      const austin = await seedAustin(getContainer(), store)
      const seattle = store.stockLocationId
      const { cartId, cart, order, quoted } = await twoLocationOrder(austin.optionId)
      // the mutation's state was quoted in ONE POST carts holding both carts
      expect(quoted).toBe(1)
      const [first, second] = [seattle, austin.locationId].sort()
      const idOf = (base: string, loc: string) => originServiceId(base, loc === first ? "" : loc, loc === first)
      const shirtLine = cart.items.find((i: any) => i.variant_id === store.products.shirt.variantId)
      const lampLine = cart.items.find((i: any) => i.variant_id === store.products.general.variantId)
      const svcCart = async (loc: string) =>
        await holder.sandbox.call("GET", `/tax/connections/${TEST_CONNECTION_ID}/carts/${idOf(cartId, loc)}`)
      const [cs, ca] = [await svcCart(seattle), await svcCart(austin.locationId)]
      expect(cs.origin).toMatchObject({ line1: "400 Broad St", state: "WA", zip: "98109" })
      expect(ca.origin).toMatchObject({ line1: "500 Congress Ave", state: "TX", zip: "78701" })
      expect(cs.lineItems.map((l: any) => l.itemId)).toContain(lampLine.id)
      expect(ca.lineItems.map((l: any) => l.itemId)).toEqual(expect.arrayContaining([shirtLine.id]))
      expect(cs.lineItems.map((l: any) => l.itemId)).not.toContain(shirtLine.id)
      // the tax lines record the origin each line was quoted from
      expect(shirtLine.tax_lines[0].data?.origin_location_id ?? null).toBe(austin.locationId === first ? null : austin.locationId)

      // filed: one service order per origin, the lines of each origin on it
      const sibling = idOf(order.id, second!)
      await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
      const sib = await waitForFiling(getContainer(), sibling, (r) => r.state === "completed", "completed")
      expect(sib.parent_order_id).toBe(order.id)
      const [os, oa] = [
        await holder.sandbox.client.getOrder(idOf(order.id, seattle)),
        await holder.sandbox.client.getOrder(idOf(order.id, austin.locationId)),
      ]
      expect(os.origin.state).toBe("WA")
      expect(oa.origin.state).toBe("TX")
      const o = await adminOrder(api, auth, order.id)
      const shirt = o.items.find((i: any) => i.variant_id === store.products.shirt.variantId)
      const lamp = o.items.find((i: any) => i.variant_id === store.products.general.variantId)
      expect(oa.lineItems.map((l) => l.itemId)).toContain(shirt.id)
      expect(os.lineItems.map((l) => l.itemId)).toContain(lamp.id)
      expect(os.lineItems.map((l) => l.itemId)).not.toContain(shirt.id)

      // a return of the shirt: refunded on Austin's order only
      const model = new LifecycleModel()
      await charged(model, order.id)
      // each item fulfilled from its own location with its own shipping option
      await api.post(
        `/admin/orders/${order.id}/fulfillments`,
        { items: [{ id: lamp.id, quantity: lamp.quantity }], location_id: seattle, shipping_option_id: store.shippingOptionId },
        auth,
      )
      await api.post(
        `/admin/orders/${order.id}/fulfillments`,
        { items: [{ id: shirt.id, quantity: shirt.quantity }], location_id: austin.locationId, shipping_option_id: austin.optionId },
        auth,
      )
      await holder.sandbox.resetCounts()
      await returnAndReceive(api, auth, order.id, [{ id: shirt.id, quantity: 1 }])
      model.refund(shirt.id, 1)
      await waitForFiling(getContainer(), sibling, (r) => r.state === "refunded" || r.state === "partially_refunded", "refunded")
      expect((await holder.sandbox.counts()).refundOrder).toBe(1)
      const ids = [idOf(order.id, seattle), idOf(order.id, austin.locationId)]
      const filed = await netFiled(holder.sandbox.client, ids)
      expect(lineDiffs(model.net(), filed)).toEqual([])
      expect(total(filed)).toBe(total(model.net()))

      // a second two-location order, cancelled: both origins' orders voided
      const { order: other } = await twoLocationOrder(austin.optionId)
      const otherSibling = idOf(other.id, second!)
      await waitForFiling(getContainer(), otherSibling, (r) => r.state === "completed", "completed")
      await waitForFiling(getContainer(), other.id, (r) => r.state === "completed", "completed")
      await api.post(`/admin/orders/${other.id}/cancel`, {}, auth)
      await waitForFiling(getContainer(), other.id, (r) => r.state === "voided", "voided")
      await waitForFiling(getContainer(), otherSibling, (r) => r.state === "voided", "voided")
      for (const id of [other.id, otherSibling]) await expect(holder.sandbox.client.getOrder(id)).rejects.toMatchObject({ status: 404 })
    })

    /** Every service order of a Medusa order: its own, its other origins', its edits', exchanges' and claims'. */
    async function serviceOrders(orderId: string): Promise<string[]> {
      return [orderId, ...(await filingStore(getContainer()).listChildren(orderId)).map((c) => c.order_id)]
    }

    it("a two-location order's lifecycle: an edit (quantity change on the second origin's line, an added item from there) files each origin's delta from its origin; an exchange's new item ships from the second location; the lost order backfilled one order per origin; net filed = net charged per line", async () => {
      const austin = await seedAustin(getContainer(), store)
      // the jacket ships from Austin too (an item the edit adds)
      await updateProductsWorkflow(getContainer()).run({
        input: { selector: { id: store.products.jacket.id }, update: { shipping_profile_id: austin.profileId } },
      })
      const { order } = await twoLocationOrder(austin.optionId)
      const [first, second] = [store.stockLocationId, austin.locationId].sort()
      const sibling = originServiceId(order.id, second!, false)
      await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
      await waitForFiling(getContainer(), sibling, (r) => r.state === "completed", "completed")
      expect(first).toBe(store.stockLocationId)
      const placed = await adminOrder(api, auth, order.id)
      const shirt = placed.items.find((i: any) => i.variant_id === store.products.shirt.variantId)
      const lamp = placed.items.find((i: any) => i.variant_id === store.products.general.variantId)

      // the edit: one more shirt (Austin's line), a jacket added (ships from Austin)
      await holder.sandbox.resetCounts()
      const editId = await editOrder(api, auth, order.id, {
        add: [{ variant_id: store.products.jacket.variantId, quantity: 1 }],
        update: [{ id: shirt.id, quantity: 2 }],
      })
      await waitForFiling(
        getContainer(),
        order.id,
        (r) => (r.edits ?? []).some((e) => e.id === editId && e.state === "applied"),
        "edit applied",
      )
      const edited = await adminOrder(api, auth, order.id)
      const jacket = edited.items.find((i: any) => i.variant_id === store.products.jacket.variantId)
      // the added line was quoted from Austin (the origin its tax line records)
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY) as any
      const {
        data: [taxed],
      } = await query.graph({ entity: "order", fields: ["items.id", "items.tax_lines.data"], filters: { id: order.id } })
      const jacketTax = taxed.items.find((i: any) => i.id === jacket.id).tax_lines[0]
      expect(jacketTax.data?.origin_location_id).toBe(austin.locationId)
      const supplements = (await filingStore(getContainer())
        .listChildren(order.id)
        .then((cs) => cs.filter((c) => c.kind === "edit")))!
      for (const sup of supplements) await waitForFiling(getContainer(), sup.order_id, (r) => r.state === "completed", "completed")
      // the Seattle order is untouched (no refund), Austin's refunds its shirt, the edit's lines are filed from Austin
      expect((await holder.sandbox.client.getOrder(order.id, { expandRefunds: true })).refunds ?? []).toEqual([])
      const austinOrder = await holder.sandbox.client.getOrder(sibling, { expandRefunds: true })
      expect((austinOrder.refunds ?? []).flatMap((r) => r.items.map((i) => [i.itemId, i.quantity]))).toEqual([[shirt.id, 1]])
      expect(supplements).toHaveLength(1)
      const sup = await holder.sandbox.client.getOrder(supplements[0]!.order_id)
      expect(sup.origin).toMatchObject({ line1: "500 Congress Ave", state: "TX" })
      expect(sup.lineItems.map((l) => [l.itemId, l.quantity]).sort()).toEqual(
        [
          [shirt.id, 2],
          [jacket.id, 1],
        ].sort(),
      )
      const model = new LifecycleModel()
      await charged(model, order.id)
      let filed = await netFiled(holder.sandbox.client, await serviceOrders(order.id))
      expect(lineDiffs(model.net(), filed)).toEqual([])
      expect(total(filed)).toBe(total(model.net()))

      // an exchange: one lamp (Seattle) back, a shirt out (ships from Austin): filed from Austin
      await fulfil(api, auth, order.id, [{ id: lamp.id, quantity: lamp.quantity }])
      const exchangeId = await exchange(
        api,
        auth,
        order.id,
        [{ id: lamp.id, quantity: 1 }],
        [{ variant_id: store.products.shirt.variantId, quantity: 1 }],
      )
      await waitForFiling(getContainer(), exchangeId, (r) => r.state === "completed", "exchange filed")
      const x = await holder.sandbox.client.getOrder(exchangeId)
      expect(x.origin).toMatchObject({ line1: "500 Congress Ave", state: "TX" })
      await waitForFiling(
        getContainer(),
        order.id,
        (r) => (r.refunds ?? []).some((f) => f.source_id === exchangeId && f.state === "refunded"),
        "exchange refund",
      )
      const afterExchange = await adminOrder(api, auth, order.id)
      const outbound = afterExchange.items.find((i: any) => x.lineItems.some((l) => l.itemId === i.id))
      expect(outbound.variant_id).toBe(store.products.shirt.variantId)
      model.refund(lamp.id, 1)
      model.file(outbound.id, Number(outbound.quantity), roundCents(String(outbound.tax_total?.value ?? outbound.tax_total)))
      filed = await netFiled(holder.sandbox.client, await serviceOrders(order.id))
      expect(lineDiffs(model.net(), filed)).toEqual([])

      // a second two-location order with a return of the shirt, its records lost and its service
      // orders voided: backfilled as one service order per origin, the return refunded on Austin's
      const { order: lost } = await twoLocationOrder(austin.optionId)
      const lostSibling = originServiceId(lost.id, second!, false)
      await waitForFiling(getContainer(), lostSibling, (r) => r.state === "completed", "completed")
      await waitForFiling(getContainer(), lost.id, (r) => r.state === "completed", "completed")
      const lo = await adminOrder(api, auth, lost.id)
      const lostShirt = lo.items.find((i: any) => i.variant_id === store.products.shirt.variantId)
      await api.post(
        `/admin/orders/${lost.id}/fulfillments`,
        { items: [{ id: lostShirt.id, quantity: 1 }], location_id: austin.locationId, shipping_option_id: austin.optionId },
        auth,
      )
      const ret = await returnAndReceive(api, auth, lost.id, [{ id: lostShirt.id, quantity: 1 }])
      await waitForFiling(
        getContainer(),
        lostSibling,
        (r) => (r.refunds ?? []).some((f) => f.source_id === ret && f.state === "refunded"),
        "refunded",
      )
      const lostModel = new LifecycleModel()
      await charged(lostModel, lost.id)
      lostModel.refund(lostShirt.id, 1)
      const records = getContainer().resolve(SALES_TAX_FILING_MODULE) as any
      for (const id of [lost.id, lostSibling]) {
        const r = (await filingStore(getContainer()).findRecord(id))!
        if (r.refunds?.length) await records.deleteFilingRefunds(r.refunds.map((f: any) => f.id))
        await records.deleteFilingRecords([r.id])
        await holder.sandbox.client.voidOrder(id)
      }
      const today = new Date().toISOString().slice(0, 10)
      await backfillSalesTax({ container: getContainer(), args: ["--from", today, "--to", today] } as any)
      const [bs, ba] = [
        await holder.sandbox.client.getOrder(lost.id, { expandRefunds: true }),
        await holder.sandbox.client.getOrder(lostSibling, { expandRefunds: true }),
      ]
      expect([bs.origin.state, ba.origin.state]).toEqual(["WA", "TX"])
      expect(bs.lineItems.map((l) => l.itemId)).not.toContain(lostShirt.id)
      expect(ba.lineItems.map((l) => l.itemId)).toContain(lostShirt.id)
      expect(ba.refunds?.map((r) => r.idempotencyKey)).toEqual([`${ret}:${lostSibling}`])
      expect(bs.refunds ?? []).toEqual([])
      const back = await netFiled(holder.sandbox.client, [lost.id, lostSibling])
      expect(lineDiffs(lostModel.net(), back)).toEqual([])
      expect(total(back)).toBeGreaterThan(0)
      // the records written by the backfill: the sibling's parent is the order, its refund keyed by the return
      const sibRec = (await filingStore(getContainer()).findRecord(lostSibling))!
      expect(sibRec.parent_order_id).toBe(lost.id)
      expect(sibRec.refunds?.map((r) => r.source_id)).toEqual([ret])
    })

    it("a stock location address the service refuses: reported once for the location (log, settings), its lines quoted and filed from the fallback origin, nothing lost or filed twice", async () => {
      // Austin's location in TX with a Seattle ZIP: a complete US address the service refuses as an origin
      const austin = await seedAustin(getContainer(), store, { ...AUSTIN, postal_code: "98109" })
      const provider = salesTaxProvider(getContainer())
      const warn = jest.spyOn((provider as any).logger, "warn")
      const refusedBefore = provider.stats.refusedOrigins
      try {
        const { order } = await twoLocationOrder(austin.optionId)
        expect(provider.stats.refusedOrigins - refusedBefore).toBe(1)
        const about = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes(austin.locationId))
        expect(about).toHaveLength(1)
        expect(about[0]).toMatch(/refused the address of stock location .* as an origin \(zip 98109 is in WA, not in TX\)/)

        // the settings page's list: Austin falls back, and says why; Seattle uses its own address
        const { locations } = (await api.get("/admin/sales-tax/locations", auth)).data
        const a = locations.find((l: any) => l.id === austin.locationId)
        expect(a).toMatchObject({ fallback: true, origin: { line1: "400 Broad St", state: "WA" } })
        expect(a.reason).toMatch(/^the service refused the address: origin\.zip: zip 98109 is in WA, not in TX/)
        expect(locations.find((l: any) => l.id === store.stockLocationId)).toMatchObject({ fallback: false, reason: null })

        // filed once per origin group (the fallback's and Seattle's), every line, each once
        await holder.sandbox.resetCounts()
        const rec = await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        const children = (await filingStore(getContainer()).listChildren(order.id)).filter((c) => c.kind === "order")
        expect(children).toHaveLength(1)
        await waitForFiling(getContainer(), children[0]!.order_id, (r) => r.state === "completed", "completed")
        const model = new LifecycleModel()
        await charged(model, order.id)
        const filed = await netFiled(holder.sandbox.client, [rec.order_id, children[0]!.order_id])
        expect(lineDiffs(model.net(), filed)).toEqual([])
        const o = await holder.sandbox.client.getOrder(order.id)
        expect(o.origin).toMatchObject({ line1: "400 Broad St", state: "WA" })
      } finally {
        warn.mockRestore()
      }
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

      const unknown = await api.post("/admin/sales-tax/connections/ping", { connection_id: "nope" }, auth).catch((e: any) => e.response)
      expect(unknown.status).toBe(404)
      const bad = await api.post("/admin/sales-tax/connections/ping", { connection: 1 }, auth).catch((e: any) => e.response)
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
