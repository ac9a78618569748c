/**
 * The counts of bench:provider's scripted checkout, asserted (no timings): one POST carts per
 * distinct cart state, no certificate list for a guest (nor for a cart that only names a
 * registered customer), one per logged-in registered customer per cache period.
 */
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { clearSalesTaxClients } from "../src/service/client-factory"
import { SalesTaxProviderService } from "../src/checkout/quote/provider"
import { certificateCache } from "../src/checkout/exemptions/exemptions"
import { scriptedCheckout } from "./checkout-script"

const KEY = "sk_unit_checkout_counts_0123456789"
const CONN = "44444444-5555-4666-8777-888888888888"
const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
let sb: RunningSandbox

const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${sb.url}${path}`, {
    method,
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  })
  return r.status === 204 ? undefined : r.json()
}
const counts = async () => ((await api("GET", "/_sandbox/counts")) as { counts: Record<string, number> }).counts
const silent = { info() {}, warn() {}, error() {}, debug() {} }

beforeAll(async () => {
  sb = await startSandbox({ port: 0, apiKey: KEY, connectionId: CONN })
})
afterAll(async () => {
  await sb.close()
})

it("scripted checkout: one POST carts per distinct cart state; certificate lists only for a logged-in customer, once per cache period", async () => {
  clearSalesTaxClients()
  certificateCache().clear()
  const provider = new SalesTaxProviderService({ logger: silent as never }, { connectionId: CONN, apiKey: KEY, baseUrl: sb.url, origin })
  const cus = "cus_checkout_counts"
  await api("POST", `/tax/connections/${CONN}/exemption-certificates`, {
    customerId: cus,
    customerName: "Counts Buyer Inc",
    address: origin,
    reason: "Resale",
    customerBusinessType: "RetailTrade",
    states: [{ abbreviation: "TX" }],
  })
  const logged = { actorType: "customer", actorId: cus }

  const guest = await scriptedCheckout(provider, { cartId: "cc_guest", customerId: null, actor: null, counts })
  const unverified = await scriptedCheckout(provider, { cartId: "cc_unverified", customerId: cus, actor: null, counts })
  const first = await scriptedCheckout(provider, { cartId: "cc_registered_1", customerId: cus, actor: logged, counts })
  const second = await scriptedCheckout(provider, { cartId: "cc_registered_2", customerId: cus, actor: logged, counts })

  for (const run of [guest, unverified, first, second]) {
    expect(run.distinctStates).toBe(5)
    expect(run.getTaxLinesCalls).toBe(20)
    expect(run.postCarts).toBe(run.distinctStates)
  }
  expect([guest.certificateLists, unverified.certificateLists, first.certificateLists, second.certificateLists]).toEqual([0, 0, 1, 0])
})

it("scripted checkout, tax-inclusive lines and shipping: one POST carts per state once the ZIP's rates are known; a first inclusive state at a ZIP and TIC never quoted costs one second call", async () => {
  clearSalesTaxClients()
  certificateCache().clear()
  // a fresh provider: no rate known in process nor in its (in-process) rate memory
  const fresh = () => new SalesTaxProviderService({ logger: silent as never }, { connectionId: CONN, apiKey: KEY, baseUrl: sb.url, origin })
  const provider = fresh()
  const first = await scriptedCheckout(provider, { cartId: "ci_first", customerId: null, actor: null, counts, inclusive: true })
  // the 1st state (a tax-inclusive lamp, TIC 0, never quoted at 10118) and the 4th (tax-inclusive shipping, TIC 11010, first) cost 2
  expect(first.distinctStates).toBe(5)
  expect(first.postCarts).toBe(first.distinctStates + 2)
  const second = await scriptedCheckout(provider, { cartId: "ci_second", customerId: null, actor: null, counts, inclusive: true })
  expect(second.postCarts).toBe(second.distinctStates)
  // a provider that quoted the ZIP's TICs tax-exclusive first: every inclusive state closes in one call
  const warmed = fresh()
  await scriptedCheckout(warmed, { cartId: "ci_exclusive", customerId: null, actor: null, counts })
  const after = await scriptedCheckout(warmed, { cartId: "ci_after", customerId: null, actor: null, counts, inclusive: true })
  expect(after.postCarts).toBe(after.distinctStates)
  expect(warmed.inclusiveHints.stats.unhinted).toBe(0)
  expect(provider.inclusiveHints.stats.unhinted).toBe(2)
})
