/**
 * What the demo does with the running store: real storefront checkouts through @medusajs/js-sdk
 * (guest and logged-in), then a partial return, a cancellation and an exempt checkout through the
 * admin API; for every order it compares the tax Medusa charged with the tax the Sales Tax Service
 * holds as filed (read from the service, not from the plugin's own records).
 */
import Medusa, { FetchError } from "@medusajs/js-sdk"
import { SalesTaxClient, SalesTaxError } from "../../src/service/client"
import type { CertificateRecord, LineItemOut, OrderRecord } from "../../packages/contract/src/index"
import { dec, roundCents, sum } from "../../packages/contract/src/money"
import type { DemoSeed, ProductKey } from "../app/seed"
import { DemoError } from "./ui"

export interface ShopperAddress {
  first_name: string
  last_name: string
  company?: string
  address_1: string
  city: string
  province: string
  postal_code: string
  country_code: string
}

export interface PlannedOrder {
  label: string
  address: ShopperAddress
  items: { product: ProductKey; quantity: number }[]
  /** "exempt" = placed by the customer holding a certificate for the destination state */
  shopper: "guest" | "exempt"
  note: string
}

const addr = (address_1: string, city: string, province: string, postal_code: string): ShopperAddress => ({
  first_name: "Sam",
  last_name: "Shopper",
  address_1,
  city,
  province,
  postal_code,
  country_code: "us",
})

export const EXEMPT_STATE = "TX"

/** The demo's orders (rates and rules: docs/sandbox-engine.md). */
export const PLAN: PlannedOrder[] = [
  {
    label: "Seattle, WA",
    address: addr("1301 2nd Ave", "Seattle", "WA", "98101"),
    items: [
      { product: "tshirt", quantity: 2 },
      { product: "lamp", quantity: 1 },
      { product: "giftcard", quantity: 1 },
    ],
    shopper: "guest",
    note: "clothing taxed in WA; a gift card is never taxed; later: the lamp is returned",
  },
  {
    label: "Philadelphia, PA",
    address: addr("1500 Market St", "Philadelphia", "PA", "19102"),
    items: [
      { product: "tshirt", quantity: 1 },
      { product: "jacket", quantity: 1 },
      { product: "coffee", quantity: 2 },
    ],
    shopper: "guest",
    note: "PA exempts clothing and groceries; shipping is taxed",
  },
  {
    label: "New York, NY",
    address: addr("20 W 34th St", "New York", "NY", "10001"),
    items: [
      { product: "tshirt", quantity: 1 },
      { product: "jacket", quantity: 1 },
      { product: "lamp", quantity: 1 },
    ],
    shopper: "guest",
    note: "NY clothing under $110 an item is exempt in New York City; the $120 jacket is taxed",
  },
  {
    label: "Minneapolis, MN",
    address: addr("350 S 5th St", "Minneapolis", "MN", "55415"),
    items: [
      { product: "lamp", quantity: 1 },
      { product: "coffee", quantity: 1 },
    ],
    shopper: "guest",
    note: "later: cancelled, so the service voids it",
  },
  {
    label: "Austin, TX",
    // typed as a shopper does in the Next.js starter's free-text "State / Province" (issue 26)
    address: addr("1100 Congress Ave", "Austin", "Texas", "78701"),
    items: [
      { product: "lamp", quantity: 2 },
      { product: "tshirt", quantity: 1 },
      { product: "giftcard", quantity: 1 },
    ],
    shopper: "guest",
    note: 'state typed "Texas": quoted and filed as TX; TX taxes clothing; shipping is not taxed',
  },
  {
    label: "Austin, TX (exempt customer)",
    address: {
      ...addr("1100 Congress Ave", "Austin", "TX", "78701"),
      first_name: "Pat",
      last_name: "Principal",
      company: "Hillside Elementary School",
    },
    items: [
      { product: "lamp", quantity: 3 },
      { product: "tshirt", quantity: 2 },
    ],
    shopper: "exempt",
    note: `the customer holds an exemption certificate for ${EXEMPT_STATE}`,
  },
  {
    label: "Albany, NY (tax-inclusive price)",
    address: addr("1 State St", "Albany", "NY", "12207"),
    items: [
      { product: "sweater", quantity: 1 },
      { product: "lamp", quantity: 1 },
    ],
    shopper: "guest",
    note: "the sweater's $112 includes tax: its net ($107.15, under NY's $110) pays the local 4.53 % only; the lamp is taxed on top",
  },
]

/** Index in PLAN of the order with a tax-inclusive price. */
export const TAX_INCLUSIVE_ORDER = PLAN.length - 1

/** Index in PLAN of the order that gets a partial return, and of the one that is cancelled. */
export const RETURN_ORDER = 0
export const RETURN_PRODUCT: ProductKey = "lamp"
export const CANCEL_ORDER = 3
/** Index in PLAN of the order that gets an order edit (a lamp added), and of the one with a replace claim (a T-shirt). */
export const EDIT_ORDER = 2
export const CLAIM_ORDER = 0

// ------------------------------------------------------------------------------------------------
// Medusa access
// ------------------------------------------------------------------------------------------------

export interface Ctx {
  storeUrl: string
  seed: DemoSeed
  admin: Medusa
  service: SalesTaxClient
}

export function makeCtx(storeUrl: string, seed: DemoSeed, service: SalesTaxClient): Ctx {
  return { storeUrl, seed, service, admin: new Medusa({ baseUrl: storeUrl, apiKey: seed.secretKey }) }
}

function storeSdk(ctx: Ctx): Medusa {
  return new Medusa({
    baseUrl: ctx.storeUrl,
    publishableKey: ctx.seed.publishableKey,
    auth: { type: "jwt", jwtTokenStorageMethod: "memory" },
  })
}

/** Wraps a store/admin call so that a failure names the step and Medusa's message. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    if (e instanceof FetchError) {
      throw new DemoError(`${what}: Medusa answered ${e.status ?? "?"} ${e.message}`, "the Medusa server log has the details", undefined)
    }
    if (e instanceof SalesTaxError) throw new DemoError(`${what}: ${e.message}`)
    throw e
  }
}

export interface ExemptCustomer {
  sdk: Medusa
  customerId: string
  email: string
  certificate: CertificateRecord
}

const EXEMPT_EMAIL = "purchasing@hillside-elementary.example"
const EXEMPT_PASSWORD = "demo-password-123"

/** A store SDK on `storeUrl` logged in as the exempt customer (any instance of the store accepts it). */
export async function loginExemptCustomer(ctx: Ctx, storeUrl = ctx.storeUrl): Promise<Medusa> {
  const sdk = storeSdk({ ...ctx, storeUrl })
  await call("log the customer in", () => sdk.auth.login("customer", "emailpass", { email: EXEMPT_EMAIL, password: EXEMPT_PASSWORD }))
  return sdk
}

/** Registers a B2B customer through the store API and logs it in (no certificate yet). */
export async function registerExemptCustomer(ctx: Ctx): Promise<Omit<ExemptCustomer, "certificate">> {
  const sdk = storeSdk(ctx)
  const email = EXEMPT_EMAIL
  await call("register the customer", () => sdk.auth.register("customer", "emailpass", { email, password: EXEMPT_PASSWORD }))
  const { customer } = await call("create the customer", () =>
    sdk.store.customer.create({ email, first_name: "Pat", last_name: "Principal", company_name: "Hillside Elementary School" }),
  )
  await call("log the customer in", () => sdk.auth.login("customer", "emailpass", { email, password: EXEMPT_PASSWORD }))
  return { sdk, customerId: customer.id, email }
}

/** Gives the customer a certificate for EXEMPT_STATE through the plugin's admin route. */
export async function addExemptCertificate(ctx: Ctx, customerId: string): Promise<CertificateRecord> {
  const { certificate } = await call("create the exemption certificate (POST /admin/sales-tax/customers/:id/certificates)", () =>
    ctx.admin.client.fetch<{ certificate: CertificateRecord }>(`/admin/sales-tax/customers/${customerId}/certificates`, {
      method: "POST",
      body: {
        customerName: "Hillside Elementary School",
        address: { line1: "1100 Congress Ave", city: "Austin", state: EXEMPT_STATE, zip: "78701" },
        reason: "EducationalOrganization",
        customerBusinessType: "EducationAndHealthCareServices",
        states: [{ abbreviation: EXEMPT_STATE, identificationNumber: "1-74-0001234-5" }],
      },
    }),
  )
  return certificate
}

/**
 * The logged-in customer submits its own certificate from the storefront
 * (POST /store/sales-tax/certificates: the customer is the login, never the body).
 */
export async function submitShopperCertificate(sdk: Medusa): Promise<CertificateRecord & { createdBy: string | null }> {
  const { certificate } = await call("submit the exemption certificate from the storefront (POST /store/sales-tax/certificates)", () =>
    sdk.client.fetch<{ certificate: CertificateRecord & { createdBy: string | null } }>("/store/sales-tax/certificates", {
      method: "POST",
      body: {
        customerName: "Hillside Elementary School",
        address: { line1: "1100 Congress Ave", city: "Austin", state: EXEMPT_STATE, zip: "78701" },
        reason: "EducationalOrganization",
        customerBusinessType: "EducationAndHealthCareServices",
        states: [{ abbreviation: EXEMPT_STATE, identificationNumber: "1-74-0001234-5" }],
      },
    }),
  )
  return certificate
}

/**
 * Staff approve a certificate a shopper submitted (POST /admin/sales-tax/certificates/:id/review): until
 * then it is pending and exempts nothing (option shopperCertificates, default "review").
 */
export async function approveCertificate(ctx: Ctx, certificateId: string): Promise<void> {
  await call("approve the shopper's certificate (POST /admin/sales-tax/certificates/:id/review)", () =>
    ctx.admin.client.fetch(`/admin/sales-tax/certificates/${certificateId}/review`, { method: "POST", body: { decision: "approve" } }),
  )
}

/** Registers a B2B customer through the store API; the customer submits its certificate from the storefront, staff approve it. */
export async function createExemptCustomer(ctx: Ctx): Promise<ExemptCustomer> {
  const customer = await registerExemptCustomer(ctx)
  const certificate = await submitShopperCertificate(customer.sdk)
  await approveCertificate(ctx, certificate.certificateId)
  return { ...customer, certificate }
}

/** Who created each of the customer's certificates, as the admin's customer widget shows it. */
export async function certificateCreators(ctx: Ctx, customerId: string): Promise<Record<string, string | null>> {
  const r = await call("list the customer's certificates (GET /admin/sales-tax/customers/:id/certificates)", () =>
    ctx.admin.client.fetch<{ certificates: { certificateId: string; createdBy: string | null }[] }>(
      `/admin/sales-tax/customers/${customerId}/certificates`,
    ),
  )
  return Object.fromEntries(r.certificates.map((c) => [c.certificateId, c.createdBy]))
}

export interface ActivityEntry {
  operation: string
  status: number | null
  order_id: string | null
}

/** The service-call log (Settings → Sales Tax → Activity): one page, filtered. */
export async function activity(ctx: Ctx, query = ""): Promise<{ entries: ActivityEntry[]; count: number }> {
  return call("read the service-call log (GET /admin/sales-tax/activity)", () =>
    ctx.admin.client.fetch<{ entries: ActivityEntry[]; count: number }>(`/admin/sales-tax/activity?limit=100${query ? `&${query}` : ""}`),
  )
}

export interface PlacedOrder {
  plan: PlannedOrder
  cartId: string
  orderId: string
  displayId: number
}

/** A storefront checkout: cart, items, address, shipping, system payment, complete. */
export async function checkout(ctx: Ctx, plan: PlannedOrder, exempt?: { sdk?: Medusa; email: string }): Promise<PlacedOrder> {
  const sdk = exempt?.sdk ?? storeSdk(ctx)
  const email = exempt?.email ?? "sam.shopper@example.com"
  const where = `checkout to ${plan.label}`
  const { cart } = await call(`${where}: create the cart`, () => sdk.store.cart.create({ region_id: ctx.seed.regionId, email }))
  for (const it of plan.items) {
    await call(`${where}: add ${it.product}`, () =>
      sdk.store.cart.createLineItem(cart.id, { variant_id: ctx.seed.products[it.product].variantId, quantity: it.quantity }),
    )
  }
  await call(`${where}: set the address`, () =>
    sdk.store.cart.update(cart.id, { email, shipping_address: plan.address, billing_address: plan.address }),
  )
  const { cart: withShipping } = await call(`${where}: add shipping`, () =>
    sdk.store.cart.addShippingMethod(cart.id, { option_id: ctx.seed.shippingOptionId }),
  )
  await call(`${where}: payment session`, () =>
    sdk.store.payment.initiatePaymentSession(withShipping, { provider_id: "pp_system_default" }),
  )
  const res = await call(`${where}: complete the cart`, () => sdk.store.cart.complete(cart.id))
  if (res.type !== "order") throw new DemoError(`${where}: the cart was not completed: ${res.error?.message ?? "unknown reason"}`)
  return { plan, cartId: cart.id, orderId: res.order.id, displayId: Number(res.order.display_id) }
}

// ------------------------------------------------------------------------------------------------
// What was charged (Medusa) and what was filed (the service)
// ------------------------------------------------------------------------------------------------

export interface ChargedLine {
  kind: "item" | "shipping"
  id: string
  title: string
  productId: string | null
  unitPrice: string
  quantity: number
  /** tax Medusa charged on the line, in dollars rounded to the cent */
  tax: number
  /** a tax-inclusive price: the shown line total and the net it contains (total − tax), to the cent */
  taxInclusive?: { shown: number; net: number }
}

export interface ChargedOrder {
  orderId: string
  status: string
  taxTotal: number
  lines: ChargedLine[]
}

type Num = number | string | { toString(): string } | null | undefined
const cents = (v: Num) => roundCents(dec(v == null ? 0 : String(v)))

export async function chargedOrder(ctx: Ctx, orderId: string): Promise<ChargedOrder> {
  const fields =
    "id,status,tax_total,item_tax_total,shipping_tax_total,total,*items,*items.tax_lines,*shipping_methods,*shipping_methods.tax_lines"
  const { order } = await call(`read order ${orderId}`, () => ctx.admin.admin.order.retrieve(orderId, { fields }))
  const o = order as unknown as {
    id: string
    status: string
    tax_total: Num
    items: {
      id: string
      title: string
      product_title?: string | null
      product_id?: string | null
      unit_price: Num
      quantity: Num
      tax_total: Num
      total: Num
      is_tax_inclusive?: boolean | null
    }[]
    shipping_methods: { id: string; name: string; amount: Num; tax_total: Num }[]
  }
  const lines: ChargedLine[] = [
    ...o.items.map((it): ChargedLine => ({
      kind: "item",
      id: it.id,
      title: it.product_title ?? it.title,
      productId: it.product_id ?? null,
      unitPrice: dec(String(it.unit_price)).toFixed(2),
      quantity: Number(String(it.quantity)),
      tax: cents(it.tax_total),
      ...(it.is_tax_inclusive
        ? { taxInclusive: { shown: cents(it.total), net: roundCents(dec(cents(it.total)).minus(cents(it.tax_total))) } }
        : {}),
    })),
    ...o.shipping_methods.map((sm): ChargedLine => ({
      kind: "shipping",
      id: sm.id,
      title: `Shipping (${sm.name})`,
      productId: null,
      unitPrice: dec(String(sm.amount)).toFixed(2),
      quantity: 1,
      tax: cents(sm.tax_total),
    })),
  ]
  return { orderId: o.id, status: o.status, taxTotal: cents(o.tax_total), lines }
}

export interface FilingView {
  order_id: string
  state: string
  filing_path: string | null
  last_error: string | null
  refunds?: { source_type: string; source_id: string; state: string; refunded_tax: number | string | null; last_error: string | null }[]
  edits?: { id: string; state: string; mode?: string }[] | null
  kind?: string
}

export async function filingRecord(ctx: Ctx, orderId: string): Promise<FilingView | null> {
  try {
    return (await ctx.admin.client.fetch<{ filing: FilingView }>(`/admin/sales-tax/filings/${orderId}`)).filing
  } catch (e) {
    if (e instanceof FetchError && e.status === 404) return null
    throw e
  }
}

/**
 * Polls the plugin's filing record (GET /admin/sales-tax/filings/:id) until `done`; "failed" ends it
 * early. The bound is a hang guard: a filing takes well under a second of the server's CPU, but CI
 * runs the demo and the compat smoke at a low priority beside the tests (.ci/run), where the server
 * may wait for a core.
 */
export async function waitForFiling(
  ctx: Ctx,
  orderId: string,
  done: (f: FilingView) => boolean,
  what: string,
  timeoutMs = 180_000,
): Promise<FilingView> {
  const deadline = Date.now() + timeoutMs
  let last: FilingView | null = null
  while (Date.now() < deadline) {
    last = await call(`read the filing record of ${orderId}`, () => filingRecord(ctx, orderId))
    if (last && done(last)) return last
    if (last?.state === "failed") break
    await new Promise((r) => setTimeout(r, 400))
  }
  throw new DemoError(
    `order ${orderId}: the filing never reached "${what}" (state ${last?.state ?? "no record"}${last?.last_error ? `, last error: ${last.last_error}` : ""})`,
    "the Medusa server log shows the filing workflow's errors",
  )
}

/** The order as the service holds it (GET /tax/orders/:id?expand=refunds), or null on 404. */
export async function filedOrder(ctx: Ctx, orderId: string): Promise<OrderRecord | null> {
  try {
    return await ctx.service.getOrder(orderId, { expandRefunds: true })
  } catch (e) {
    if (e instanceof SalesTaxError && e.status === 404) return null
    throw e
  }
}

// ------------------------------------------------------------------------------------------------
// Comparison
// ------------------------------------------------------------------------------------------------

export interface ComparedLine {
  title: string
  quantity: number
  unitPrice: string
  expectedTic: number | null
  tic: number | null
  rate: number | null
  charged: number | null
  filed: number | null
  ok: boolean
  problem?: string
  serviceItemId?: string
  chargedLineId?: string
}

export interface Comparison {
  lines: ComparedLine[]
  chargedTotal: number
  filedTotal: number
  ok: boolean
  problems: string[]
}

const isShipping = (l: LineItemOut) => l.itemId.startsWith("shipping:")

/**
 * Pairs Medusa's lines with the service's (the service's item ids are the cart's, Medusa's order
 * lines are new rows: pairs are made on kind, unit price and quantity) and compares the tax.
 */
export function compare(ctx: Ctx, charged: ChargedOrder, filed: OrderRecord, shippingTic: number): Comparison {
  const unused = [...filed.lineItems]
  const lines: ComparedLine[] = []
  const problems: string[] = []
  const productTic = new Map(Object.values(ctx.seed.products).map((p) => [p.id, p.tic]))
  for (const c of charged.lines) {
    // a tax-inclusive line is filed at the net its price contains
    const samePrice = (l: LineItemOut) =>
      c.taxInclusive ? dec(roundCents(dec(l.price).times(l.quantity))).eq(c.taxInclusive.net) : dec(l.price).eq(dec(c.unitPrice))
    const idx = unused.findIndex((l) => (c.kind === "shipping") === isShipping(l) && samePrice(l) && dec(l.quantity).eq(c.quantity))
    const expectedTic = c.kind === "shipping" ? shippingTic : c.productId ? (productTic.get(c.productId) ?? null) : null
    if (idx < 0) {
      lines.push({
        title: c.title,
        quantity: c.quantity,
        unitPrice: c.unitPrice,
        expectedTic,
        tic: null,
        rate: null,
        charged: c.tax,
        filed: null,
        ok: false,
        problem: "not filed",
        chargedLineId: c.id,
      })
      problems.push(`${c.title}: no matching line at the service`)
      continue
    }
    const s = unused.splice(idx, 1)[0]
    const filedTax = roundCents(dec(s.tax.amount))
    const ticOk = expectedTic === null || s.tic === expectedTic || (s.tic === null && expectedTic === 0)
    const ok = dec(filedTax).eq(dec(c.tax)) && ticOk
    const problem = !ticOk ? `TIC ${s.tic} sent, ${expectedTic} expected` : ok ? undefined : "charged ≠ filed"
    if (problem) problems.push(`${c.title}: ${problem}`)
    lines.push({
      title: c.title,
      quantity: c.quantity,
      unitPrice: c.unitPrice,
      expectedTic,
      tic: s.tic,
      rate: s.tax.rate,
      charged: c.tax,
      filed: filedTax,
      ok,
      problem,
      serviceItemId: s.itemId,
      chargedLineId: c.id,
    })
  }
  for (const s of unused) {
    lines.push({
      title: `(service line ${s.itemId})`,
      quantity: s.quantity,
      unitPrice: dec(s.price).toFixed(2),
      expectedTic: null,
      tic: s.tic,
      rate: s.tax.rate,
      charged: null,
      filed: roundCents(dec(s.tax.amount)),
      ok: false,
      problem: "not in the Medusa order",
    })
    problems.push(`service line ${s.itemId} has no Medusa line`)
  }
  const filedTotal = roundCents(sum(filed.lineItems.map((l) => dec(l.tax.amount))))
  if (!dec(filedTotal).eq(dec(charged.taxTotal)))
    problems.push(`order tax: charged ${charged.taxTotal.toFixed(2)}, filed ${filedTotal.toFixed(2)}`)
  return { lines, chargedTotal: charged.taxTotal, filedTotal, ok: problems.length === 0, problems }
}

// ------------------------------------------------------------------------------------------------
// After-sale steps (admin API)
// ------------------------------------------------------------------------------------------------

/** Ships every item of the order (a return needs shipped items). */
export async function fulfilAll(ctx: Ctx, orderId: string, charged: ChargedOrder): Promise<void> {
  const items = charged.lines.filter((l) => l.kind === "item").map((l) => ({ id: l.id, quantity: l.quantity }))
  await call(`fulfil order ${orderId}`, () => ctx.admin.admin.order.createFulfillment(orderId, { items }))
}

/** A return requested and received through the admin API (emits order.return_received). */
export async function returnItems(ctx: Ctx, orderId: string, items: { id: string; quantity: number }[]): Promise<string> {
  const { return: ret } = await call("start the return", () => ctx.admin.admin.return.initiateRequest({ order_id: orderId }))
  await call("add the returned item", () => ctx.admin.admin.return.addReturnItem(ret.id, { items }))
  await call("confirm the return request", () => ctx.admin.admin.return.confirmRequest(ret.id, {}))
  await call("start receiving the return", () => ctx.admin.admin.return.initiateReceive(ret.id, {}))
  await call("receive the returned item", () => ctx.admin.admin.return.receiveItems(ret.id, { items }))
  await call("confirm the receipt", () => ctx.admin.admin.return.confirmReceive(ret.id, {}))
  return ret.id
}

/** An order edit through the admin API (open, add items, request, confirm; emits order-edit.confirmed): the edit's id. */
export async function editOrderAdd(ctx: Ctx, orderId: string, items: { variant_id: string; quantity: number }[]): Promise<string> {
  const { order_change } = await call("open the order edit", () => ctx.admin.admin.orderEdit.initiateRequest({ order_id: orderId }))
  await call("add the edit's items", () => ctx.admin.admin.orderEdit.addItems(orderId, { items }))
  await call("request the edit", () => ctx.admin.admin.orderEdit.request(orderId))
  await call("confirm the edit", () => ctx.admin.admin.orderEdit.confirm(orderId))
  return order_change.id
}

/** A replace claim through the admin API (claimed items in, replacement out, confirmed; emits order.claim_created): the claim's id. */
export async function replaceClaim(
  ctx: Ctx,
  orderId: string,
  claimed: { id: string; quantity: number }[],
  replacement: { variant_id: string; quantity: number }[],
): Promise<string> {
  const { claim } = await call("open the claim", () => ctx.admin.admin.claim.create({ order_id: orderId, type: "replace" }))
  await call("add the claimed item", () => ctx.admin.admin.claim.addInboundItems(claim.id, { items: claimed }))
  await call("add the replacement", () => ctx.admin.admin.claim.addOutboundItems(claim.id, { items: replacement }))
  await call("confirm the claim", () => ctx.admin.admin.claim.request(claim.id, {}))
  return claim.id
}

export async function cancelOrder(ctx: Ctx, orderId: string): Promise<void> {
  await call(`cancel order ${orderId}`, () => ctx.admin.admin.order.cancel(orderId))
}

/** The month's reconciliation as the admin page shows it (GET /admin/sales-tax/reconciliation). */
export interface ReconciliationView {
  month: string
  summary: {
    orders: number
    charged: string
    filed: string
    refunded_to_customers: string
    refunded_at_service: string
    difference: string
  }
  differences: { order_id: string; display_id: number | null; difference: string; reason: string | null; detail: string | null }[]
  differences_count: number
}

export async function monthReconciliation(ctx: Ctx, month: string): Promise<ReconciliationView> {
  return call(`read the reconciliation of ${month}`, () =>
    ctx.admin.client.fetch<ReconciliationView>(`/admin/sales-tax/reconciliation?month=${encodeURIComponent(month)}`),
  )
}
