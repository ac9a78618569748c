/**
 * The plugin's admin routes (src/api/admin/sales-tax/**) against the sandbox started in-process:
 * admin authentication, zod bodies with located errors, TIC resolution/assignment, TIC search,
 * exemption certificates, the settings summary and the mapping of service failures.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createApiKeysWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { TICS, TEST_API_KEY, seedStore, useSalesTaxSandbox, type SeededStore } from "../helpers"
import { SALES_TAX_MODULE } from "../../src/modules/sales-tax"
import { SALES_TAX_FILING_MODULE } from "../../src/modules/sales-tax-filing/types"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

const st = useSalesTaxSandbox({ timeoutMs: 1500 })

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

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let auth: Awaited<ReturnType<typeof adminHeaders>>
    // seeded once: Medusa's runner restores this seeded database before every test
    beforeAll(async () => {
      store = await seedStore(getContainer())
      auth = await adminHeaders(getContainer())
    })
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
  },
})
