/**
 * Three views of the plugin on checkout.spec.ts's boot (its seed; fallbackRate 5 set on the running
 * app): the admin routes against the sandbox (authentication, located zod errors, TICs, certificates,
 * the settings summary, service failures); typed addresses the storefront's way (the starter's
 * free-text state in one POST, an address the plugin cannot quote refused there and at completion, a
 * US address in another currency refused); the service-call log (Settings → Sales Tax → Activity):
 * every call logged with its Medusa ids, never the key nor bodies by default, filtered and paged,
 * pruned, and checkout going on when the log's table is unavailable.
 */
import { logger } from "@medusajs/framework/logger"
import { createApiKeysWorkflow, updateCartWorkflow, updateRegionsWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  ADDRESSES,
  TEST_API_KEY,
  TICS,
  cents,
  placeOrder,
  resetCheckout,
  salesTaxProvider,
  storeHeaders,
  type SeededStore,
} from "../../helpers"
import { adminAuth, adminOrder, waitForFiling } from "../../filing-helpers/medusa"
import { TAX_LINE_CODE } from "../../../src/constants"
import { ADDRESS_UNRESOLVED_CODE, ADDRESS_UNRESOLVED_MESSAGE, CURRENCY_UNSUPPORTED_CODE } from "../../../src/service/address/us-address"
import { SALES_TAX_MODULE } from "../../../src/modules/sales-tax"
import { SALES_TAX_FILING_MODULE, type FilingSnapshot, type FilingStore } from "../../../src/modules/sales-tax-filing/types"
import { callLog } from "../../../src/service/call-log"
import { applyRetention } from "../../../src/filing/events/sweep"
import { getPluginOptions } from "../../../src/options"
import { useOptions, type Boot } from "../../filing-helpers/kit"
import { recordFields, recordedData } from "../../../src/medusa/tax-line-record"

const ok = { validateStatus: () => true }

async function adminHeaders(container: MedusaContainer) {
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "admin route tests", type: "secret", created_by: "test" }] },
  })
  return { headers: { authorization: `Basic ${Buffer.from(`${(key as { token: string }).token}:`).toString("base64")}` }, ...ok }
}

const CERT_BODY = {
  customerName: "Acme Wholesale LLC",
  address: { line1: "500 Pine St", city: "Seattle", state: "WA", zip: "98101" },
  reason: "Resale",
  customerBusinessType: "WholesaleTrade",
  states: [
    { abbreviation: "WA", identificationNumber: "603-123-456" },
    { abbreviation: "CA", identificationNumber: "SR-CA-1" },
  ],
  singlePurchase: false,
}

/** Austin, TX 78701: state and ZIP agree; each test gives its own street (the verify-address cache is per address). */
const austin = (province: string, postal_code = "78701", street = "500 Congress Ave") => ({
  ...ADDRESSES.sanFrancisco,
  address_1: street,
  city: "Austin",
  province,
  postal_code,
})

interface Entry {
  id: string
  operation: string
  status: number | null
  cart_id: string | null
  order_id: string | null
  attempt: number
  error_title: string | null
  connection_id: string
  request_body?: unknown
}

/** The admin keys the tests use, made in the suite's beforeAll (before the runner copies the seeded database). */
export async function typedAddressKeys(container: MedusaContainer) {
  /** the call log's admin key (requests that throw on a non-2xx answer) */
  return { auth: await adminHeaders(container), logAuth: await adminAuth(container) }
}

// the admin routes' and typed addresses' tests ran on { failurePolicy: "fallback", timeoutMs: 1500 }, the
// call log's on { failurePolicy: "fallback", fallbackRate: 5 }: no test here waits on a timeout (its faults
// answer at once), and only the call log's depend on the rate a failed quote falls back on
export function typedAddressTests({
  api,
  getContainer,
  dbConnection,
  env: st,
  seeded,
}: Boot<{ store: SeededStore; keys: Awaited<ReturnType<typeof typedAddressKeys>> }>): void {
  let store: SeededStore
  let auth: Awaited<ReturnType<typeof adminHeaders>>
  let logAuth: { headers: Record<string, string> }
  beforeAll(
    () =>
      ({
        store,
        keys: { auth, logAuth },
      } = seeded),
  )
  useOptions(getContainer, { fallbackRate: 5 })

  describe("admin routes", () => {
    beforeEach(() => st.sandbox.reset())

    async function productRefs(productId: string) {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY) as any
      const {
        data: [p],
      } = await query.graph({
        entity: "product",
        fields: ["id", "type_id", "categories.id", "categories.parent_category_id"],
        filters: { id: productId },
      })
      return p as { id: string; type_id: string | null; categories: { id: string; parent_category_id: string | null }[] }
    }

    it("refuses every route without admin authentication (401) and with a customer-less bogus token", async () => {
      const calls: [string, string, unknown?][] = [
        ["get", `/admin/sales-tax/tics/product/${store.products.shirt.id}`],
        ["post", `/admin/sales-tax/tics/product/${store.products.shirt.id}`, { tic: 20010 }],
        ["delete", `/admin/sales-tax/tics/product-type/ptyp_x`],
        ["post", "/admin/sales-tax/tics/search", { query: "shirt" }],
        ["get", "/admin/sales-tax/customers/cus_x/certificates"],
        ["post", "/admin/sales-tax/customers/cus_x/certificates", CERT_BODY],
        ["delete", "/admin/sales-tax/certificates/abc"],
        ["get", "/admin/sales-tax/settings"],
      ]
      for (const [method, url, body] of calls) {
        const plain =
          method === "get" || method === "delete" ? await (api as any)[method](url, ok) : await (api as any)[method](url, body, ok)
        expect([method, url, plain.status]).toEqual([method, url, 401])
        const bogus = { headers: { authorization: "Bearer not-a-token" }, ...ok }
        const r =
          method === "get" || method === "delete" ? await (api as any)[method](url, bogus) : await (api as any)[method](url, body, bogus)
        expect([method, url, r.status]).toEqual([method, url, 401])
      }
      // nothing reached the service
      const counts = await st.sandbox.counts()
      expect(counts.searchTics ?? 0).toBe(0)
      expect(counts.createCertificate ?? 0).toBe(0)
    })

    it("resolves each seeded product's TIC from the level the seed put it on (product, type, parent category, default)", async () => {
      for (const p of Object.values(store.products)) {
        const r = await api.get(`/admin/sales-tax/tics/product/${p.id}`, auth)
        expect(r.status).toBe(200)
        expect(r.data.resolved.tic.ticId).toBe(p.tic)
        expect(r.data.resolved.source).toBe(p.ticSource)
        expect(r.data.chain.default.ticId).toBe(TICS.general)
      }
      const coffee = await api.get(`/admin/sales-tax/tics/product/${store.products.coffee.id}`, auth)
      const refs = await productRefs(store.products.coffee.id)
      // the TIC sits on the parent category ("Food"); the product's category inherits it
      expect(coffee.data.resolved.sourceId).toBe(refs.categories[0]!.parent_category_id)
      expect(coffee.data.chain.categories[0].inheritedFrom).toBe(refs.categories[0]!.parent_category_id)
      expect(coffee.data.assigned).toBeNull()
      const jacket = await api.get(`/admin/sales-tax/tics/product/${store.products.jacket.id}`, auth)
      expect(jacket.data.resolved.sourceId).toBe((await productRefs(store.products.jacket.id)).type_id)
      expect(jacket.data.resolved.tic.label).toEqual(expect.any(String))
    })

    it("sets and clears a product's TIC; the module holds what the route says, and the product falls back again after clearing", async () => {
      const id = store.products.general.id
      const set = await api.post(`/admin/sales-tax/tics/product/${id}`, { tic: TICS.digital }, auth)
      expect(set.status).toBe(200)
      expect(set.data.assigned.ticId).toBe(TICS.digital)
      expect(set.data.resolved).toMatchObject({ source: "product", sourceId: id, tic: { ticId: TICS.digital } })
      const svc = getContainer().resolve(SALES_TAX_MODULE) as any
      expect(await svc.getTics("product", [id])).toEqual({ [id]: TICS.digital })
      expect((await api.get(`/admin/sales-tax/tics/product/${id}`, auth)).data.resolved.tic.ticId).toBe(TICS.digital)

      const cleared = await api.delete(`/admin/sales-tax/tics/product/${id}`, auth)
      expect(cleared.status).toBe(200)
      expect(cleared.data.assigned).toBeNull()
      expect(cleared.data.resolved.source).toBe("default")
      expect(await svc.getTics("product", [id])).toEqual({})
    })

    it("sets product-type and category defaults, which products without their own TIC then resolve to", async () => {
      const refs = await productRefs(store.products.coffee.id)
      const cat = refs.categories[0]!.id
      const r = await api.post(`/admin/sales-tax/tics/product-category/${cat}`, { tic: TICS.clothing }, auth)
      expect(r.status).toBe(200)
      expect(r.data.resolved).toMatchObject({ source: "product_category", tic: { ticId: TICS.clothing } })
      // the category's own TIC now wins over its parent's
      const coffee = await api.get(`/admin/sales-tax/tics/product/${store.products.coffee.id}`, auth)
      expect(coffee.data.resolved).toMatchObject({ source: "product_category", sourceId: cat, tic: { ticId: TICS.clothing } })

      const jacketType = (await productRefs(store.products.jacket.id)).type_id!
      const t = await api.delete(`/admin/sales-tax/tics/product-type/${jacketType}`, auth)
      expect(t.status).toBe(200)
      expect(t.data.resolved.source).toBe("default")
      expect((await api.get(`/admin/sales-tax/tics/product/${store.products.jacket.id}`, auth)).data.resolved.source).toBe("default")
    })

    it("rejects bad TIC bodies with 400 and located errors, unknown targets with 404", async () => {
      const url = `/admin/sales-tax/tics/product/${store.products.general.id}`
      const bad = await api.post(url, { tic: "clothing" }, auth)
      expect(bad.status).toBe(400)
      expect(bad.data.type).toBe("invalid_data")
      expect(bad.data.errors[0]).toMatchObject({ location: "body.tic", value: "clothing" })
      const unknown = await api.post(url, { tic: 424242 }, auth)
      expect(unknown.status).toBe(400)
      expect(unknown.data.errors[0].location).toBe("body.tic")
      expect(unknown.data.errors[0].message).toMatch(/not a known TIC/)
      const extra = await api.post(url, { tic: 20010, other: 1 }, auth)
      expect(extra.status).toBe(400)
      expect((await api.post(`/admin/sales-tax/tics/product/prod_missing`, { tic: 20010 }, auth)).status).toBe(404)
      expect((await api.get(`/admin/sales-tax/tics/product-type/ptyp_missing`, auth)).status).toBe(404)
      expect((await api.delete(`/admin/sales-tax/tics/product-category/pcat_missing`, auth)).status).toBe(404)
      // nothing was stored
      const svc = getContainer().resolve(SALES_TAX_MODULE) as any
      expect(await svc.getTics("product", [store.products.general.id])).toEqual({})
    })

    it("asks the service whether a TIC exists; while the service is down it saves any integer ≥ 0 with a warning", async () => {
      const url = `/admin/sales-tax/tics/product/${store.products.general.id}`
      const known = await api.post(url, { tic: TICS.clothing }, auth)
      expect(known.status).toBe(200)
      expect(known.data.warning).toBeUndefined()
      expect(known.data.assigned).toEqual({ ticId: TICS.clothing, label: "Clothing" })

      await st.sandbox.fault({ operation: "searchTics", status: 503, retryAfter: "0", count: 100 })
      try {
        const unverified = await api.post(url, { tic: 777777 }, auth)
        expect(unverified.status).toBe(200)
        expect(unverified.data.assigned).toEqual({ ticId: 777777, label: null })
        expect(unverified.data.warning).toMatch(/could not be reached/)
      } finally {
        await st.sandbox.clearFaults()
      }
      // the service is back: 777777 is not one of its TICs
      const refused = await api.post(url, { tic: 777777 }, auth)
      expect(refused.status).toBe(400)
      expect(refused.data.errors[0].location).toBe("body.tic")
      const svc = getContainer().resolve(SALES_TAX_MODULE) as any
      expect(await svc.getTics("product", [store.products.general.id])).toEqual({ [store.products.general.id]: 777777 })
      await api.delete(url, auth)
    })

    it("searches TICs through the service and validates the search body", async () => {
      await st.sandbox.resetCounts()
      const r = await api.post("/admin/sales-tax/tics/search", { query: "clothing", limit: 5 }, auth)
      expect(r.status).toBe(200)
      expect(r.data.results.length).toBeGreaterThan(0)
      expect(r.data.results.length).toBeLessThanOrEqual(5)
      // the same answer as the service gives directly
      const direct = await st.sandbox.client.searchTics({ query: "clothing", limit: 5 })
      expect(r.data.results.map((x: any) => x.ticId)).toEqual(direct.results.map((x) => x.ticId))
      expect((await st.sandbox.counts()).searchTics).toBe(2)

      const empty = await api.post("/admin/sales-tax/tics/search", { query: "  " }, auth)
      expect(empty.status).toBe(400)
      expect(empty.data.errors[0].location).toBe("body.query")
      const big = await api.post("/admin/sales-tax/tics/search", { query: "shirt", limit: 1000 }, auth)
      expect(big.status).toBe(400)
      expect(big.data.errors[0].location).toBe("body.limit")
    })

    it("maps service failures: unavailable → 503 without the API key, then works again", async () => {
      await st.sandbox.fault({ operation: "searchTics", status: 503, retryAfter: "0", count: 10 })
      const r = await api.post("/admin/sales-tax/tics/search", { query: "shirt" }, auth)
      expect(r.status).toBe(503)
      expect(r.data.type).toBe("unexpected_state")
      expect(JSON.stringify(r.data)).not.toContain(TEST_API_KEY)
      await st.sandbox.clearFaults()
      expect((await api.post("/admin/sales-tax/tics/search", { query: "shirt" }, auth)).status).toBe(200)
      // credentials refused by the service: the merchant's configuration, not the admin user's
      await st.sandbox.fault({ operation: "listCertificates", status: 401 })
      const customers = getContainer().resolve(Modules.CUSTOMER) as any
      const [customer] = await customers.createCustomers([{ email: "c@example.com" }])
      const refused = await api.get(`/admin/sales-tax/customers/${customer.id}/certificates`, auth)
      expect(refused.status).toBe(502)
      expect(refused.data).toMatchObject({ type: "unexpected_state", code: "sales_tax_credentials" })
      expect(JSON.stringify(refused.data)).not.toContain(TEST_API_KEY)
      await st.sandbox.clearFaults()
    })

    it("creates, lists and disables a customer's exemption certificate at the service", async () => {
      const customers = getContainer().resolve(Modules.CUSTOMER) as any
      const [customer] = await customers.createCustomers([
        { email: "buyer@example.com", first_name: "Ada", last_name: "Buyer", company_name: "Acme" },
      ])
      const url = `/admin/sales-tax/customers/${customer.id}/certificates`
      expect((await api.get(url, auth)).data.certificates).toEqual([])

      const created = await api.post(url, CERT_BODY, auth)
      expect(created.status).toBe(201)
      const cert = created.data.certificate
      expect(cert).toMatchObject({ customerId: customer.id, customerName: CERT_BODY.customerName, reason: "Resale", disabledAt: null })
      // the service holds it for this customer
      const atService = await st.sandbox.client.listCertificates({ customerId: customer.id })
      expect(atService.items.map((c) => c.certificateId)).toEqual([cert.certificateId])
      expect(atService.items[0]!.states.map((s) => s.abbreviation).sort()).toEqual(["CA", "WA"])

      const listed = await api.get(url, auth)
      expect(listed.status).toBe(200)
      expect(listed.data.customer).toMatchObject({ id: customer.id, companyName: "Acme" })
      expect(listed.data.certificates.map((c: any) => c.certificateId)).toEqual([cert.certificateId])

      const disabled = await api.delete(`/admin/sales-tax/certificates/${cert.certificateId}`, auth)
      expect(disabled.status).toBe(200)
      expect(disabled.data.certificate.disabledAt).toEqual(expect.any(String))
      expect((await st.sandbox.client.getCertificate(cert.certificateId)).disabledAt).not.toBeNull()
      // disabled ones are still listed, marked
      const after = await api.get(url, auth)
      expect(after.data.certificates).toHaveLength(1)
      expect(after.data.certificates[0].disabledAt).not.toBeNull()
      // unknown certificate → 404
      expect((await api.delete(`/admin/sales-tax/certificates/00000000-0000-4000-8000-00000000dead`, auth)).status).toBe(404)
    })

    it("rejects bad certificate bodies with located field errors and creates nothing", async () => {
      const customers = getContainer().resolve(Modules.CUSTOMER) as any
      const [customer] = await customers.createCustomers([{ email: "x@example.com" }])
      const url = `/admin/sales-tax/customers/${customer.id}/certificates`
      const r = await api.post(
        url,
        { ...CERT_BODY, address: { ...CERT_BODY.address, zip: "981" }, reason: "Other", states: [{ abbreviation: "Washington" }] },
        auth,
      )
      expect(r.status).toBe(400)
      expect(r.data.type).toBe("invalid_data")
      const locations = r.data.errors.map((e: any) => e.location)
      expect(locations).toEqual(expect.arrayContaining(["body.address.zip", "body.states[0].abbreviation"]))
      const missing = await api.post(url, { customerName: "" }, auth)
      expect(missing.status).toBe(400)
      expect(missing.data.errors.map((e: any) => e.location)).toEqual(
        expect.arrayContaining(["body.customerName", "body.address", "body.reason", "body.customerBusinessType", "body.states"]),
      )
      const other = await api.post(url, { ...CERT_BODY, reason: "Other" }, auth)
      expect(other.status).toBe(400)
      expect(other.data.errors.map((e: any) => e.location)).toEqual(["body.reasonDescription"])
      const blank = await api.post(url, { ...CERT_BODY, address: { ...CERT_BODY.address, line1: " ", city: "" } }, auth)
      expect(blank.status).toBe(400)
      expect(blank.data.errors.map((e: any) => e.location).sort()).toEqual(["body.address.city", "body.address.line1"])
      expect((await st.sandbox.counts()).createCertificate ?? 0).toBe(0)
      expect((await api.post(`/admin/sales-tax/customers/cus_missing/certificates`, CERT_BODY, auth)).status).toBe(404)
    })

    it("summarizes the settings: health and ping, options with the key redacted, TIC coverage, recent failures", async () => {
      const filing = getContainer().resolve(SALES_TAX_FILING_MODULE) as any
      await filing.ensureRecord({
        order_id: "order_failed_1",
        kind: "order",
        cart_id: null,
        customer_id: null,
        completion_mode: "placed",
        snapshot: null,
        charged_tax: 1.23,
        state: "failed",
        last_error: "createOrder: 500 Internal Server Error",
        next_attempt_at: null,
      })
      const r = await api.get("/admin/sales-tax/settings", auth)
      expect(r.status).toBe(200)
      expect(r.data.connection.health.ok).toBe(true)
      expect(r.data.connection.health.result.status).toEqual(expect.any(String))
      expect(r.data.connection.ping.ok).toBe(true)
      expect(JSON.stringify(r.data)).not.toContain(TEST_API_KEY)
      expect(r.data.options.apiKey).not.toBe(TEST_API_KEY)
      expect(r.data.options.connectionId).toBe(st.sandbox.connectionId)
      expect(r.data.options.baseUrl).toBe(st.sandbox.url)
      // only the plugin's own options: nothing Medusa adds (database URL) is shown
      expect(Object.keys(r.data.options)).not.toContain("database")
      expect(JSON.stringify(r.data)).not.toMatch(/postgres(ql)?:\/\//)
      // one seeded product per level
      const expected = { product: 0, product_type: 0, product_category: 0, default: 0 } as Record<string, number>
      for (const p of Object.values(store.products)) expected[p.ticSource]!++
      expect(r.data.coverage.bySource).toEqual(expected)
      expect(r.data.coverage.totalProducts).toBe(Object.keys(store.products).length)
      expect(r.data.coverage.fallingBack.map((p: any) => p.id)).toEqual([store.products.general.id])
      expect(r.data.failures.available).toBe(true)
      expect(r.data.failures.items).toEqual([
        expect.objectContaining({ orderId: "order_failed_1", lastError: expect.stringContaining("500") }),
      ])

      // bad credentials: the page still answers, with ping failing
      await st.sandbox.fault({ operation: "ping", status: 401 })
      const bad = await api.get("/admin/sales-tax/settings", auth)
      expect(bad.status).toBe(200)
      expect(bad.data.connection.ping).toMatchObject({ ok: false, status: 401 })
      await st.sandbox.clearFaults()
    })
  })

  describe("typed addresses", () => {
    beforeEach(async () => {
      await resetCheckout(getContainer(), st.sandbox)
    })

    const cfg = () => storeHeaders(store)
    const answer = (p: Promise<{ status: number; data: any }>) =>
      p.then(
        (r) => r,
        (e: any) => e.response as { status: number; data: any },
      )
    const verifyCalls = async () => (await st.sandbox.counts()).verifyAddress ?? 0
    const fields =
      "id,currency_code,tax_total,total,*items,*items.tax_lines,*shipping_methods,*shipping_methods.tax_lines,*shipping_address"

    /**
     * The Next.js starter's sequence up to completion: cart, item, shipping options listed and the
     * payment collection created before the address, one POST with e-mail + both addresses, the
     * shipping method, the payment collection again (the same one) and its session. Returns the
     * cart as the shopper sees it and the completion's answer (an order, or the refusal).
     */
    async function storefrontCheckout(address: Record<string, string>, addressBy: "store" | "host" = "store") {
      const created = await api.post(`/store/carts`, { region_id: store.regionId }, cfg())
      const cartId: string = created.data.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: store.products.general.variantId, quantity: 2 }, cfg())
      const early = await api.get(`/store/shipping-options?cart_id=${cartId}`, cfg())
      expect(early.status).toBe(200)
      const pcBefore = await api.post(`/store/payment-collections`, { cart_id: cartId }, cfg())
      const addresses = { email: "typed@example.com", shipping_address: address, billing_address: address }
      if (addressBy === "store") await api.post(`/store/carts/${cartId}`, addresses, cfg())
      // past the store route (a host's own route or script runs Medusa's workflow): completion is the backstop
      else await updateCartWorkflow(getContainer()).run({ input: { id: cartId, ...addresses } })
      const options = await api.get(`/store/shipping-options?cart_id=${cartId}`, cfg())
      const option = options.data.shipping_options.find((o: any) => o.id === store.shippingOptionId)
      expect(option).toBeDefined()
      await api.post(`/store/carts/${cartId}/shipping-methods`, { option_id: option.id }, cfg())
      const pcAfter = await api.post(`/store/payment-collections`, { cart_id: cartId }, cfg())
      expect(pcAfter.data.payment_collection.id).toBe(pcBefore.data.payment_collection.id)
      await api.post(
        `/store/payment-collections/${pcAfter.data.payment_collection.id}/payment-sessions`,
        { provider_id: "pp_system_default" },
        cfg(),
      )
      const cart = (await api.get(`/store/carts/${cartId}?fields=${fields}`, cfg())).data.cart
      const completed = await answer(api.post(`/store/carts/${cartId}/complete`, {}, cfg()))
      return { cartId, cart, completed }
    }

    /** Every tax line of a cart (items and shipping). */
    const taxLines = (cart: any): any[] => [
      ...cart.items.flatMap((i: any) => i.tax_lines ?? []),
      ...(cart.shipping_methods ?? []).flatMap((s: any) => s.tax_lines ?? []),
    ]

    /** The tax lines' record as stored on the cart (items, then shipping), read as the plugin reads it on every minor. */
    async function storedLineData(cartId: string): Promise<any[]> {
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY) as any
      const {
        data: [c],
      } = await query.graph({
        entity: "cart",
        fields: [...recordFields("items"), ...recordFields("shipping_methods")],
        filters: { id: cartId },
      })
      return taxLines(c).map(recordedData)
    }

    it('"Texas", "texas", " Texas ", "US-TX" and "TX" to 78701 are taxed and filed exactly like "TX": charged = filed per line', async () => {
      const auth = await adminAuth(getContainer())
      const charged: number[] = []
      for (const province of ["TX", "Texas", "texas", " Texas ", "US-TX"]) {
        const { cartId, cart, completed } = await storefrontCheckout(austin(province))
        expect(completed.status).toBe(200)
        expect(completed.data.type).toBe("order")
        // the address the shopper sees is as typed
        expect(cart.shipping_address.province).toBe(province)
        expect(taxLines(cart).length).toBe(2)
        for (const l of taxLines(cart)) expect(l.code).toBe(TAX_LINE_CODE)
        expect((await storedLineData(cartId)).map((d) => d?.destination)).toEqual([
          { state: "TX", zip: "78701", source: "typed" },
          { state: "TX", zip: "78701", source: "typed" },
        ])
        // quoted as TX: the sandbox's cart for it holds the destination the service was sent
        const quoted = await st.sandbox.client.getCart(cartId)
        expect(quoted.lineItems.length).toBe(2)
        const order = completed.data.order
        await waitForFiling(getContainer(), order.id, (r) => r.state === "completed", "completed")
        const filed = await st.sandbox.client.getOrder(order.id)
        expect(filed.destination).toMatchObject({ state: "TX", zip: "78701" })
        // charged = filed, line by line (the item and the shipping method, by their order ids)
        const o = await adminOrder(api, auth, order.id)
        const lines = [
          ...o.items.map((i: any) => ({ id: i.id, tax: cents(i.tax_total) })),
          ...o.shipping_methods.map((m: any) => ({ id: `shipping:${m.id}`, tax: cents(m.tax_total) })),
        ]
        expect(filed.lineItems.length).toBe(lines.length)
        for (const l of lines) expect(cents(filed.lineItems.find((x) => x.itemId === l.id)?.tax.amount)).toBe(l.tax)
        charged.push(cents(cart.tax_total))
      }
      // every spelling is taxed exactly as "TX", and Texas taxes this cart
      expect(charged[0]).toBeGreaterThan(0)
      expect(new Set(charged).size).toBe(1)
      // and none of them needed the service's address check
      expect(await verifyCalls()).toBe(0)
    })

    it("a blank state with ZIP 78701 is taxed as Texas through verify-address: one cached call for the whole checkout", async () => {
      const typed = await storefrontCheckout(austin("TX", "78701", "600 Congress Ave"))
      expect(typed.completed.data.type).toBe("order")
      const { cartId, cart, completed } = await storefrontCheckout(austin("", "78701", "700 Congress Ave"))
      expect(completed.status).toBe(200)
      expect(completed.data.type).toBe("order")
      // the shopper's address is not rewritten
      expect(cart.shipping_address.province ?? "").toBe("")
      // taxed as Texas: the same tax as the typed "TX" cart
      expect(cents(cart.tax_total)).toBe(cents(typed.cart.tax_total))
      expect((await storedLineData(cartId)).map((d) => d?.destination)).toEqual([
        { state: "TX", zip: "78701", source: "verified" },
        { state: "TX", zip: "78701", source: "verified" },
      ])
      // every recalculation of the cart and the completion asked once, for the one address
      expect(await verifyCalls()).toBe(1)
      // the address step's own check of the same address is the same cached verdict
      const step = await api.post(
        `/store/sales-tax/verify-address`,
        { address_1: "700 Congress Ave", city: "Austin", province: "Texas", postal_code: "78701" },
        cfg(),
      )
      expect(step.data).toMatchObject({ valid: true, address: { province: "TX", postal_code: "78701" } })
      expect(await verifyCalls()).toBe(1)
    })

    it('the address step (the starter\'s one POST) refuses "Zzyzx"/"99999" and ZIP "7870" with 400 sales_tax_address_unresolved and the message; the address is not saved; a half-typed address is 200', async () => {
      const created = await api.post(`/store/carts`, { region_id: store.regionId }, cfg())
      const cartId: string = created.data.cart.id
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: store.products.general.variantId, quantity: 1 }, cfg())
      const addressStep = (address: Record<string, string>) =>
        answer(
          api.post(
            `/store/carts/${cartId}?fields=${fields}`,
            { email: "step@example.com", shipping_address: address, billing_address: address },
            cfg(),
          ),
        )
      // half-typed (no ZIP yet): never an error, whatever the state says
      const half = await addressStep(austin("Zzyzx", "", "1 Step Rd"))
      expect(half.status).toBe(200)
      expect(half.data.cart.shipping_address).toMatchObject({ province: "Zzyzx", address_1: "1 Step Rd" })
      for (const address of [austin("Zzyzx", "99999", "2 Step Rd"), austin("TX", "7870", "3 Step Rd")]) {
        const refused = await addressStep(address)
        expect(refused.status).toBe(400)
        // the storefronts' setAddresses shows the body's `message` in the address form
        expect(refused.data).toEqual({ code: ADDRESS_UNRESOLVED_CODE, type: "invalid_data", message: ADDRESS_UNRESOLVED_MESSAGE })
      }
      // the cart is as the half-typed step left it: the refused addresses were not saved
      const after = (await api.get(`/store/carts/${cartId}?fields=${fields}`, cfg())).data.cart
      expect(after.shipping_address).toMatchObject({ province: "Zzyzx", address_1: "1 Step Rd" })
      expect(after.shipping_address.postal_code ?? "").toBe("")
      // the unknown ZIP was asked about once (the verdict the provider would read); the 4-digit ZIP never
      expect(await verifyCalls()).toBe(1)
      // the shopper corrects the state and ZIP: the step passes and the cart is taxed
      const fixed = await addressStep(austin("Texas", "78701", "4 Step Rd"))
      expect(fixed.status).toBe(200)
      expect(cents(fixed.data.cart.tax_total)).toBeGreaterThan(0)
    })

    it('"Zzyzx"/"99999" and ZIP "7870" set past the store route are still refused at completion, under both failure policies; nothing is filed', async () => {
      const provider = salesTaxProvider(getContainer())
      const policy = provider.options.failurePolicy
      try {
        for (const [address, policyNow] of [
          [austin("Zzyzx", "99999", "1 Nowhere Rd"), "fallback"],
          [austin("TX", "7870", "2 Nowhere Rd"), "fallback"],
          [austin("Zzyzx", "99999", "3 Nowhere Rd"), "block"],
        ] as const) {
          ;(provider.options as { failurePolicy: string }).failurePolicy = policyNow
          const { cart, completed } = await storefrontCheckout(address, "host")
          expect(taxLines(cart)).toEqual([])
          expect(completed.status).toBe(400)
          expect(completed.data).toMatchObject({
            code: ADDRESS_UNRESOLVED_CODE,
            type: "invalid_data",
            message: ADDRESS_UNRESOLVED_MESSAGE,
          })
        }
      } finally {
        ;(provider.options as { failurePolicy: string }).failurePolicy = policy
      }
      // the unknown ZIP was asked about once per address; the 4-digit ZIP never
      expect(await verifyCalls()).toBe(2)
      expect((await st.sandbox.counts()).createOrderFromCart ?? 0).toBe(0)
    })

    it("a draft order to an unresolvable US address is refused at conversion; a typed state converts", async () => {
      const auth = await adminAuth(getContainer())
      const draft = async (address: Record<string, string>) =>
        (
          await api.post(
            `/admin/draft-orders`,
            {
              email: "draft@example.com",
              region_id: store.regionId,
              sales_channel_id: store.salesChannelId,
              shipping_address: address,
              billing_address: address,
              items: [{ variant_id: store.products.general.variantId, quantity: 1 }],
            },
            auth,
          )
        ).data.draft_order.id as string
      const bad = await draft(austin("Zzyzx", "99999", "4 Nowhere Rd"))
      const refused = await answer(api.post(`/admin/draft-orders/${bad}/convert-to-order`, {}, auth))
      expect(refused.status).toBe(400)
      expect(refused.data).toMatchObject({ code: ADDRESS_UNRESOLVED_CODE, message: ADDRESS_UNRESOLVED_MESSAGE })
      const good = await draft(austin("texas", "78701", "800 Congress Ave"))
      const converted = await answer(api.post(`/admin/draft-orders/${good}/convert-to-order`, {}, auth))
      expect(converted.status).toBe(200)
      // without admin credentials the route is Medusa's 401, not the plugin's answer
      const anonymous = await answer(api.post(`/admin/draft-orders/${bad}/convert-to-order`, {}))
      expect(anonymous.status).toBe(401)
    })

    it("a US address on a cart in another currency is refused at the address step and at completion with sales_tax_currency_unsupported, never quoted as dollars", async () => {
      const container = getContainer()
      // the store's US region in euros (the database is restored after this test)
      await updateRegionsWorkflow(container).run({ input: { selector: { id: store.regionId }, update: { currency_code: "eur" } } })
      const query = container.resolve(ContainerRegistrationKeys.QUERY) as any
      const {
        data: [variant],
      } = await query.graph({ entity: "variant", fields: ["id", "price_set.id"], filters: { id: store.products.general.variantId } })
      const pricing = container.resolve(Modules.PRICING) as any
      await pricing.addPrices({ priceSetId: variant.price_set.id, prices: [{ amount: 20, currency_code: "eur" }] })

      const created = await api.post(`/store/carts`, { region_id: store.regionId }, cfg())
      const cartId: string = created.data.cart.id
      expect(created.data.cart.currency_code).toBe("eur")
      await api.post(`/store/carts/${cartId}/line-items`, { variant_id: store.products.general.variantId, quantity: 1 }, cfg())
      // the address step where the cart becomes a US cart in euros: refused with the completion's 400, not saved
      const refused = await answer(
        api.post(
          `/store/carts/${cartId}`,
          { email: "euro@example.com", shipping_address: austin("Texas"), billing_address: austin("Texas") },
          cfg(),
        ),
      )
      expect(refused.status).toBe(400)
      expect(refused.data.code).toBe(CURRENCY_UNSUPPORTED_CODE)
      expect(refused.data.message).toMatch(/USD only.*EUR/)
      expect((await api.get(`/store/carts/${cartId}?fields=${fields}`, cfg())).data.cart.shipping_address?.postal_code ?? "").toBe("")
      // half-typed (no ZIP yet): 200
      const half = await answer(api.post(`/store/carts/${cartId}`, { shipping_address: austin("Texas", "") }, cfg()))
      expect(half.status).toBe(200)
      // set past the store route: never quoted as dollars, and completion refuses it
      await updateCartWorkflow(container).run({
        input: { id: cartId, email: "euro@example.com", shipping_address: austin("Texas"), billing_address: austin("Texas") },
      })
      const updated = await api.get(`/store/carts/${cartId}?fields=${fields}`, cfg())
      expect(taxLines(updated.data.cart)).toEqual([])
      const pc = await api.post(`/store/payment-collections`, { cart_id: cartId }, cfg())
      await api.post(
        `/store/payment-collections/${pc.data.payment_collection.id}/payment-sessions`,
        { provider_id: "pp_system_default" },
        cfg(),
      )
      const completed = await answer(api.post(`/store/carts/${cartId}/complete`, {}, cfg()))
      expect(completed.status).toBe(400)
      expect(completed.data.code).toBe(CURRENCY_UNSUPPORTED_CODE)
      expect(completed.data.message).toMatch(/USD only.*EUR/)
      expect((await st.sandbox.counts()).calculateCarts ?? 0).toBe(0)
    })
  })

  describe("the service-call log", () => {
    const any = { validateStatus: () => true }
    const activity = async (query: string): Promise<{ entries: Entry[]; count: number }> => {
      await callLog.flush()
      const r = await api.get(`/admin/sales-tax/activity?${query}`, logAuth)
      expect(r.status).toBe(200)
      return r.data
    }
    beforeEach(() => resetCheckout(getContainer(), st.sandbox))

    it("a checkout and its filing are logged with their Medusa ids and connection; never the API key, no bodies by default", async () => {
      const { order, cartId } = await placeOrder(api, store, ADDRESSES.minneapolis, [[store.products.general.variantId, 2]])
      await waitForFiling(getContainer(), order.id, (r) => r.state === "filed" || r.state === "completed", "filed")

      const quotes = await activity(`cart_id=${cartId}&operation=calculateCarts`)
      expect(quotes.count).toBeGreaterThanOrEqual(1)
      for (const e of quotes.entries) {
        expect(e).toMatchObject({
          operation: "calculateCarts",
          status: 200,
          cart_id: cartId,
          attempt: 1,
          connection_id: st.sandbox.connectionId,
        })
      }
      const filing = await activity(`order_id=${order.id}`)
      expect(filing.entries.map((e) => e.operation)).toContain("cartToOrder")
      expect(filing.entries.every((e) => e.order_id === order.id)).toBe(true)

      const detail = await api.get(`/admin/sales-tax/activity/${filing.entries[0]!.id}`, logAuth)
      expect(detail.data.entry.request_body).toBeNull()
      expect(detail.data.entry.response_body).toBeNull()
      const { rows } = await dbConnection.raw(`SELECT * FROM sales_tax_call_log`)
      expect(rows.length).toBeGreaterThanOrEqual(quotes.count + filing.count)
      expect(JSON.stringify(rows)).not.toContain(st.sandbox.apiKey)
    })

    it("filters (operation, status class, errors only, order) and pages; a bad filter is a located 400", async () => {
      await st.sandbox.fault({ operation: "calculateCarts", status: 503, count: 2 })
      const { cartId } = await placeOrder(api, store, ADDRESSES.minneapolis, [[store.products.general.variantId, 1]])
      const errors = await activity(`errors_only=true&cart_id=${cartId}`)
      expect(errors.entries.length).toBeGreaterThanOrEqual(1)
      for (const e of errors.entries) {
        expect(e.status).toBe(503)
        expect(e.error_title).not.toBeNull()
      }
      const fives = await activity(`status=5xx&cart_id=${cartId}`)
      expect(fives.count).toBe(errors.count)
      const twos = await activity(`status=2xx&cart_id=${cartId}`)
      expect(twos.count).toBeGreaterThanOrEqual(1)
      expect(twos.entries.every((e) => e.status !== null && e.status >= 200 && e.status < 300)).toBe(true)

      const all = await activity(`cart_id=${cartId}`)
      expect(all.count).toBe(fives.count + twos.count)
      // another cart's calls are not this cart's
      const other = await placeOrder(api, store, ADDRESSES.minneapolis, [[store.products.general.variantId, 3]])
      const mine = await activity(`cart_id=${cartId}`)
      expect(mine.count).toBe(all.count)
      expect(mine.entries.every((e) => e.cart_id === cartId)).toBe(true)
      expect((await activity(`cart_id=${other.cartId}`)).entries.every((e) => e.cart_id === other.cartId)).toBe(true)
      expect((await activity("")).count).toBeGreaterThan(all.count)
      const page1 = await activity(`cart_id=${cartId}&limit=1&offset=0`)
      const page2 = await activity(`cart_id=${cartId}&limit=1&offset=1`)
      expect(page1.entries).toHaveLength(1)
      expect(page2.entries[0]!.id).not.toBe(page1.entries[0]!.id)

      const bad = await api.get(`/admin/sales-tax/activity?status=3xx&limit=0`, { ...logAuth, ...any })
      expect(bad.status).toBe(400)
      expect(bad.data.errors.map((e: { location: string }) => e.location).sort()).toEqual(["query.limit", "query.status"])
      const badId = await api.get(`/admin/sales-tax/activity/nope`, { ...logAuth, ...any })
      expect(badId.status).toBe(400)
    })

    it("entries older than log.retentionDays are pruned; newer ones are kept", async () => {
      const svc = getContainer().resolve(SALES_TAX_MODULE) as { createCallLogEntries(r: unknown): Promise<unknown> }
      const day = 86_400_000
      const base = { operation: "ping", connection_id: st.sandbox.connectionId, status: 200, latency_ms: 3, attempt: 1 }
      await svc.createCallLogEntries([
        { ...base, at: new Date(Date.now() - 15 * day), order_id: "order_old" },
        { ...base, at: new Date(Date.now() - 13 * day), order_id: "order_recent" },
      ])
      expect(callLog.retentionDays).toBe(14)
      expect(await callLog.prune()).toBeGreaterThanOrEqual(1)
      expect((await activity("order_id=order_old")).count).toBe(0)
      expect((await activity("order_id=order_recent")).count).toBe(1)
    })

    it("the sweep job's retention: call-log entries past log.retentionDays pruned with no new call written; street lines of filing records past filing.addressRetentionDays removed in every state", async () => {
      const container = getContainer()
      const svc = container.resolve(SALES_TAX_MODULE) as { createCallLogEntries(r: unknown): Promise<unknown> }
      const day = 86_400_000
      const base = { operation: "ping", connection_id: st.sandbox.connectionId, status: 200, latency_ms: 3, attempt: 1 }
      await svc.createCallLogEntries([
        { ...base, at: new Date(Date.now() - 15 * day), order_id: "order_old_call" },
        { ...base, at: new Date(Date.now() - 13 * day), order_id: "order_recent_call" },
      ])
      const filing = container.resolve<FilingStore>(SALES_TAX_FILING_MODULE)
      const destination = { line1: "1500 Market St", line2: "Apt 4", city: "Philadelphia", state: "PA", zip: "19102" }
      const snapshot = (orderId: string): FilingSnapshot => ({
        orderId,
        kind: "order",
        cartId: null,
        customerId: "cus_retention",
        currencyCode: "usd",
        placedAt: new Date().toISOString(),
        origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
        destination,
        lines: [],
      })
      const records = [
        ["order_ret_attention", "needs_attention", 121],
        ["order_ret_skipped", "skipped", 121],
        ["order_ret_completed", "completed", 200],
        ["order_ret_recent", "completed", 119],
      ] as const
      for (const [orderId, state, age] of records) {
        const rec = { order_id: orderId, kind: "order" as const, cart_id: null, customer_id: null, completion_mode: "placed" as const }
        await filing.ensureRecord({ ...rec, snapshot: snapshot(orderId), charged_tax: 0, state, next_attempt_at: null })
        await dbConnection.raw(`UPDATE sales_tax_filing_record SET created_at = now() - make_interval(days => ?) WHERE order_id = ?`, [
          age,
          orderId,
        ])
      }
      // what the sweep job runs on its slot (its own lock aside), with the default options
      await applyRetention(container, getPluginOptions(container), new Date())
      expect((await activity("order_id=order_old_call")).count).toBe(0)
      expect((await activity("order_id=order_recent_call")).count).toBe(1)
      for (const [orderId, state, age] of records) {
        const r = (await filing.findRecord(orderId))!
        expect([orderId, r.state, r.snapshot!.destination]).toEqual([
          orderId,
          state,
          age > 120 ? { line1: "", line2: null, city: "Philadelphia", state: "PA", zip: "19102" } : destination,
        ])
      }
      // once removed, not selected again
      expect((await applyRetention(container, getPluginOptions(container), new Date())).streets).toBe(0)
    })

    it("with its table unavailable, checkout goes on and one warning is logged; writing resumes when the table is back", async () => {
      const warn = jest.spyOn(logger, "warn")
      warn.mockClear() // checkout.spec.ts watches the logger from boot
      await callLog.flush()
      await dbConnection.raw(`ALTER TABLE sales_tax_call_log RENAME TO sales_tax_call_log_away`)
      try {
        const first = await placeOrder(api, store, ADDRESSES.minneapolis, [[store.products.general.variantId, 1]])
        await callLog.flush()
        const second = await placeOrder(api, store, ADDRESSES.minneapolis, [[store.products.general.variantId, 1]])
        await callLog.flush()
        expect(Number(first.order.tax_total)).toBeGreaterThan(0)
        expect(Number(second.order.tax_total)).toBeGreaterThan(0)
      } finally {
        await dbConnection.raw(`ALTER TABLE sales_tax_call_log_away RENAME TO sales_tax_call_log`)
      }
      const logWarnings = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes("service-call log could not be written"))
      expect(logWarnings).toHaveLength(1)
      const { cartId } = await placeOrder(api, store, ADDRESSES.minneapolis, [[store.products.general.variantId, 1]])
      expect((await activity(`cart_id=${cartId}`)).count).toBeGreaterThanOrEqual(1)
      warn.mockRestore()
    })
  })
}
