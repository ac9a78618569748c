/**
 * Shopper certificates (/store/sales-tax/certificates*): a logged-in customer submits, lists and
 * withdraws their own exemption certificates from the storefront. Real Medusa, the sandbox over
 * HTTP: guests are refused, the body is validated as the admin form's (located 400s), one customer
 * never sees or withdraws another's, the certificate applies at the next refresh and stops applying
 * once withdrawn, the admin shows who created each one, and the routes are rate-limited per customer.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import {
  ADDRESSES,
  Checkout,
  cents,
  createShopper,
  resetCheckout,
  seedCheckoutStore,
  storeHeaders,
  useSalesTaxSandbox,
  type SeededStore,
} from "../helpers"
import { adminAuth } from "../filing-helpers/medusa"
import { TAX_LINE_CODE, TAX_LINE_CODE_EXEMPT } from "../../src/core/constants"
import { SHOPPER_CERTIFICATE_RATE_LIMIT } from "../../src/api/store/sales-tax/certificates/shopper"

jest.setTimeout(120_000)

const st = useSalesTaxSandbox({ failurePolicy: "fallback" })

const MN_CERTIFICATE = {
  customerName: "Lakeside School District",
  address: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
  reason: "EducationalOrganization",
  customerBusinessType: "EducationAndHealthCareServices",
  states: [{ abbreviation: "MN", identificationNumber: "ED-4471" }],
}

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    // answers of any status (the assertions read them)
    const any = { validateStatus: () => true }
    const as = (token?: string) => ({ ...storeHeaders(store, token), ...any })

    beforeAll(async () => {
      store = await seedCheckoutStore(getContainer())
    })
    beforeEach(() => resetCheckout(getContainer(), st.sandbox))

    it("guests cannot: every route answers 401 without a customer login, whatever the body says", async () => {
      const owner = await createShopper(api, store, "owner@example.com")
      const list = await api.get("/store/sales-tax/certificates", as())
      expect(list.status).toBe(401)
      const create = await api.post(
        "/store/sales-tax/certificates",
        { ...MN_CERTIFICATE, customerId: owner.customerId, email: "owner@example.com" },
        as(),
      )
      expect(create.status).toBe(401)
      const withdraw = await api.delete("/store/sales-tax/certificates/00000000-0000-4000-8000-000000000000", as())
      expect(withdraw.status).toBe(401)
      // nothing reached the service
      expect((await st.sandbox.counts()).createCertificate ?? 0).toBe(0)
    })

    it("the body is validated as the admin form's: located 400s, nothing created; a customerId in the body is refused at that field", async () => {
      const a = await createShopper(api, store, "a@example.com")
      const b = await createShopper(api, store, "b@example.com")
      const bad = await api.post(
        "/store/sales-tax/certificates",
        { ...MN_CERTIFICATE, reason: "Other", states: [], address: { ...MN_CERTIFICATE.address, zip: "5541" } },
        as(a.token),
      )
      expect(bad.status).toBe(400)
      const locations = (bad.data.errors as { location: string }[]).map((e) => e.location)
      expect(locations).toEqual(expect.arrayContaining(["body.states", "body.address.zip"]))
      expect((await st.sandbox.counts()).createCertificate ?? 0).toBe(0)

      // a body naming another customer is refused, at that field (the customer is the login)
      const other = await api.post("/store/sales-tax/certificates", { ...MN_CERTIFICATE, customerId: b.customerId }, as(a.token))
      expect(other.status).toBe(400)
      expect(other.data.errors).toEqual([{ location: "body.customerId", message: "not a field of this request", value: b.customerId }])
      expect((await st.sandbox.counts()).createCertificate ?? 0).toBe(0)

      const made = await api.post("/store/sales-tax/certificates", MN_CERTIFICATE, as(a.token))
      expect(made.status).toBe(201)
      expect(made.data.certificate.customerId).toBe(a.customerId)
      expect(made.data.certificate.createdBy).toBe("customer")
      expect(made.data.certificate.states).toEqual([{ abbreviation: "MN", identificationNumber: "ED-4471" }])
    })

    it("one customer never sees or withdraws another's certificate (404 as for an unknown id)", async () => {
      const a = await createShopper(api, store, "a2@example.com")
      const b = await createShopper(api, store, "b2@example.com")
      const made = await api.post("/store/sales-tax/certificates", MN_CERTIFICATE, as(a.token))
      expect(made.status).toBe(201)
      const id = made.data.certificate.certificateId as string

      const bList = await api.get("/store/sales-tax/certificates", as(b.token))
      expect(bList.status).toBe(200)
      expect(bList.data.certificates).toEqual([])
      const bWithdraw = await api.delete(`/store/sales-tax/certificates/${id}`, as(b.token))
      expect(bWithdraw.status).toBe(404)
      const unknown = await api.delete("/store/sales-tax/certificates/00000000-0000-4000-8000-000000000000", as(b.token))
      expect(unknown.status).toBe(404)
      expect(bWithdraw.data.message).toBe(`Certificate with id: ${id} was not found`)
      expect((await st.sandbox.client.getCertificate(id)).disabledAt).toBeNull()

      const aList = await api.get("/store/sales-tax/certificates", as(a.token))
      expect(aList.data.certificates.map((c: { certificateId: string }) => c.certificateId)).toEqual([id])
      const badId = await api.delete("/store/sales-tax/certificates/not-a-uuid", as(a.token))
      expect(badId.status).toBe(400)
    })

    it("applies at the customer's next refresh and stops once withdrawn; the admin shows who created each certificate", async () => {
      const shopper = await createShopper(api, store, "school@example.com")
      const co = new Checkout(api, store, shopper.token)
      await co.create()
      await co.addItem(store.products.general.variantId, 1)
      await co.setAddress(ADDRESSES.minneapolis, "school@example.com")
      let cart = await co.addShipping()
      expect(cents(cart.tax_total)).toBeGreaterThan(0) // taxed, and the empty certificate list is now cached

      const made = await api.post("/store/sales-tax/certificates", MN_CERTIFICATE, as(shopper.token))
      expect(made.status).toBe(201)
      const id = made.data.certificate.certificateId as string
      cart = await co.calculateTaxes()
      expect(cents(cart.tax_total)).toBe(0)
      expect(cart.items[0].tax_lines[0].code).toBe(TAX_LINE_CODE_EXEMPT)
      expect(cart.items[0].tax_lines[0].data.exemption_id).toBe(id)

      const auth = await adminAuth(getContainer())
      const staffMade = await api.post(
        `/admin/sales-tax/customers/${shopper.customerId}/certificates`,
        { ...MN_CERTIFICATE, states: [{ abbreviation: "WI" }] },
        auth,
      )
      expect(staffMade.status).toBe(201)
      const adminList = await api.get(`/admin/sales-tax/customers/${shopper.customerId}/certificates`, auth)
      const by = Object.fromEntries(
        adminList.data.certificates.map((c: { certificateId: string; createdBy: string }) => [c.certificateId, c.createdBy]),
      )
      expect(by).toEqual({ [id]: "customer", [staffMade.data.certificate.certificateId]: "staff" })

      const withdrawn = await api.delete(`/store/sales-tax/certificates/${id}`, as(shopper.token))
      expect(withdrawn.status).toBe(200)
      expect(withdrawn.data.certificate.disabledAt).not.toBeNull()
      cart = await co.calculateTaxes()
      expect(cents(cart.tax_total)).toBeGreaterThan(0)
      expect(cart.items[0].tax_lines[0].code).toBe(TAX_LINE_CODE)
      const order = await co.complete()
      expect(order.id).toMatch(/^order_/)
    })

    it(`is rate-limited per customer: past ${SHOPPER_CERTIFICATE_RATE_LIMIT} requests a minute, 429 with Retry-After; another customer is not affected`, async () => {
      const busy = await createShopper(api, store, "busy@example.com")
      const other = await createShopper(api, store, "other@example.com")
      const statuses: number[] = []
      for (let i = 0; i < SHOPPER_CERTIFICATE_RATE_LIMIT; i++)
        statuses.push((await api.get("/store/sales-tax/certificates", as(busy.token))).status)
      expect(statuses.every((s) => s === 200)).toBe(true)
      const over = await api.get("/store/sales-tax/certificates", as(busy.token))
      expect(over.status).toBe(429)
      expect(Number(over.headers["retry-after"])).toBeGreaterThanOrEqual(1)
      expect(over.data.code).toBe("sales_tax_rate_limited")
      expect((await api.get("/store/sales-tax/certificates", as(other.token))).status).toBe(200)
    })
  },
})
