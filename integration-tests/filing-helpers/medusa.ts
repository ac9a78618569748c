/**
 * Filing helpers for Medusa integration specs: an admin secret key, waiting for a filing record to
 * reach a state (events are delivered asynchronously), and order operations through the admin API
 * (fulfil, return and receive, claim, exchange, cancel, capture).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { createApiKeysWorkflow } from "@medusajs/core-flows"
import { SALES_TAX_FILING_MODULE, type FilingRecordDTO } from "../../src/modules/sales-tax-filing/types"
import type { FilingStore } from "../../src/modules/sales-tax-filing/types"

type Api = {
  get(url: string, cfg?: any): Promise<{ status: number; data: any }>
  post(url: string, body?: any, cfg?: any): Promise<{ status: number; data: any }>
}

export async function adminAuth(container: MedusaContainer): Promise<{ headers: Record<string, string> }> {
  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "filing tests", type: "secret", created_by: "test" }] },
  })
  return { headers: { authorization: `Basic ${Buffer.from(`${(key as any).token}:`).toString("base64")}` } }
}

export function filingStore(container: MedusaContainer): FilingStore {
  return container.resolve(SALES_TAX_FILING_MODULE) as unknown as FilingStore
}

/**
 * How long a test's poll waits for asynchronous work (a subscriber, a job, the call log) before it
 * fails: a hang guard only (issue 29). A passing poll ends as soon as its condition holds; a loaded
 * machine makes the work slower, never wrong, so no poll bounds it by what an idle machine does.
 */
export const WAIT_GUARD_MS = 5 * 60_000

/** Polls the filing record until `ok` holds (events and subscribers run asynchronously). */
export async function waitForFiling(
  container: MedusaContainer,
  orderId: string,
  ok: (r: FilingRecordDTO) => boolean,
  what = "condition",
  timeoutMs = WAIT_GUARD_MS,
): Promise<FilingRecordDTO> {
  const store = filingStore(container)
  const deadline = Date.now() + timeoutMs
  let last: FilingRecordDTO | null = null
  while (Date.now() < deadline) {
    last = await store.findRecord(orderId)
    if (last && ok(last)) return last
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`filing record of ${orderId} never reached ${what}; last: ${JSON.stringify(last)?.slice(0, 1500)}`)
}

export async function adminOrder(api: Api, auth: { headers: Record<string, string> }, orderId: string): Promise<any> {
  const fields = [
    "id",
    "status",
    "created_at",
    "tax_total",
    // every item column: Medusa 2.15 computes no item totals from `items.quantity` alone (its quantity is the order item's)
    "*items",
    "items.id",
    "items.quantity",
    "items.tax_total",
    "items.variant_id",
    "items.unit_price",
    "items.is_tax_inclusive",
    "items.adjustments.amount",
    "items.tax_lines.rate",
    // every shipping-method column and its tax lines: the same for shipping methods on 2.15
    "*shipping_methods",
    "shipping_methods.tax_lines.rate",
    "shipping_methods.tax_total",
    "payment_collections.id",
    "payment_collections.payments.id",
    "payment_collections.payments.captured_at",
    "total",
    "credit_line_total",
    "payment_collections.payments.refunds.id",
    "payment_collections.payments.refunds.amount",
  ].join(",")
  return (await api.get(`/admin/orders/${orderId}?fields=${fields}`, auth)).data.order
}

export async function fulfil(
  api: Api,
  auth: { headers: Record<string, string> },
  orderId: string,
  items: { id: string; quantity: number }[],
) {
  try {
    return (await api.post(`/admin/orders/${orderId}/fulfillments`, { items }, auth)).data
  } catch (e: any) {
    throw new Error(`fulfil ${orderId} ${JSON.stringify(items)}: ${e.response?.status} ${JSON.stringify(e.response?.data)}`, { cause: e })
  }
}

/** Fulfils each item on its own (Medusa refuses one fulfilment mixing items with and without shipping). */
export async function fulfilEach(
  api: Api,
  auth: { headers: Record<string, string> },
  orderId: string,
  items: { id: string; quantity: number }[],
) {
  for (const i of items) if (i.quantity > 0) await fulfil(api, auth, orderId, [i])
}

/** Return requested and received in one go (emits order.return_received). */
export async function returnAndReceive(
  api: Api,
  auth: { headers: Record<string, string> },
  orderId: string,
  items: { id: string; quantity: number }[],
): Promise<string> {
  const ret = (await api.post(`/admin/returns`, { order_id: orderId }, auth)).data.return
  await api.post(`/admin/returns/${ret.id}/request-items`, { items }, auth)
  await api.post(`/admin/returns/${ret.id}/request`, {}, auth)
  await api.post(`/admin/returns/${ret.id}/receive`, {}, auth)
  await api.post(`/admin/returns/${ret.id}/receive-items`, { items }, auth)
  await api.post(`/admin/returns/${ret.id}/receive/confirm`, {}, auth)
  return ret.id
}

export async function claim(
  api: Api,
  auth: { headers: Record<string, string> },
  orderId: string,
  items: { id: string; quantity: number }[],
): Promise<string> {
  const c = (await api.post(`/admin/claims`, { order_id: orderId, type: "refund" }, auth)).data.claim
  await api.post(`/admin/claims/${c.id}/inbound/items`, { items }, auth)
  await api.post(`/admin/claims/${c.id}/request`, {}, auth)
  return c.id
}

export async function exchange(
  api: Api,
  auth: { headers: Record<string, string> },
  orderId: string,
  inbound: { id: string; quantity: number }[],
  outbound: { variant_id: string; quantity: number }[],
): Promise<string> {
  const x = (await api.post(`/admin/exchanges`, { order_id: orderId }, auth)).data.exchange
  await api.post(`/admin/exchanges/${x.id}/inbound/items`, { items: inbound }, auth)
  await api.post(`/admin/exchanges/${x.id}/outbound/items`, { items: outbound }, auth)
  await api.post(`/admin/exchanges/${x.id}/request`, {}, auth)
  return x.id
}

type Auth = { headers: Record<string, string> }

/** An order edit through the admin API (create, add items, change quantities, request, confirm): the edit's id. */
export async function editOrder(
  api: Api,
  auth: Auth,
  orderId: string,
  change: { add?: { variant_id: string; quantity: number }[]; update?: { id: string; quantity: number }[] },
): Promise<string> {
  const ed = (await api.post(`/admin/order-edits`, { order_id: orderId }, auth)).data.order_change
  if (change.add?.length) await api.post(`/admin/order-edits/${orderId}/items`, { items: change.add }, auth)
  for (const u of change.update ?? []) await api.post(`/admin/order-edits/${orderId}/items/item/${u.id}`, { quantity: u.quantity }, auth)
  await api.post(`/admin/order-edits/${orderId}/request`, {}, auth)
  await api.post(`/admin/order-edits/${orderId}/confirm`, {}, auth)
  return ed.id
}

/** A claim of `type` for the claimed items (returned through the claim), with replacement items for a replace claim. */
export async function typedClaim(
  api: Api,
  auth: Auth,
  orderId: string,
  type: "refund" | "replace",
  items: { id: string; quantity: number }[],
  replacement: { variant_id: string; quantity: number }[] = [],
): Promise<string> {
  const c = (await api.post(`/admin/claims`, { order_id: orderId, type }, auth)).data.claim
  await api.post(`/admin/claims/${c.id}/inbound/items`, { items }, auth)
  if (replacement.length) await api.post(`/admin/claims/${c.id}/outbound/items`, { items: replacement }, auth)
  await api.post(`/admin/claims/${c.id}/request`, {}, auth)
  return c.id
}

/** A return requested and received, with metadata (e.g. `{ refund_shipping: true }`): the return's id. */
export async function returnWith(
  api: Api,
  auth: Auth,
  orderId: string,
  items: { id: string; quantity: number }[],
  metadata?: Record<string, unknown>,
): Promise<string> {
  const ret = (await api.post(`/admin/returns`, { order_id: orderId, ...(metadata ? { metadata } : {}) }, auth)).data.return
  await api.post(`/admin/returns/${ret.id}/request-items`, { items }, auth)
  await api.post(`/admin/returns/${ret.id}/request`, {}, auth)
  await api.post(`/admin/returns/${ret.id}/receive`, {}, auth)
  await api.post(`/admin/returns/${ret.id}/receive-items`, { items }, auth)
  await api.post(`/admin/returns/${ret.id}/receive/confirm`, {}, auth)
  return ret.id
}
