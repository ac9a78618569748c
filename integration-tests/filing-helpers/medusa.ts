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
  const { result: [key] } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "filing tests", type: "secret", created_by: "test" }] },
  })
  return { headers: { authorization: `Basic ${Buffer.from(`${(key as any).token}:`).toString("base64")}` } }
}

export function filingStore(container: MedusaContainer): FilingStore {
  return container.resolve(SALES_TAX_FILING_MODULE) as unknown as FilingStore
}

/** Polls the filing record until `ok` holds (events and subscribers run asynchronously). */
export async function waitForFiling(
  container: MedusaContainer,
  orderId: string,
  ok: (r: FilingRecordDTO) => boolean,
  what = "condition",
  timeoutMs = 30_000,
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
    "id", "status", "tax_total", "items.id", "items.quantity", "items.tax_total", "items.variant_id", "shipping_methods.id",
    "shipping_methods.tax_total", "payment_collections.id", "payment_collections.payments.id", "payment_collections.payments.captured_at",
  ].join(",")
  return (await api.get(`/admin/orders/${orderId}?fields=${fields}`, auth)).data.order
}

export async function fulfil(api: Api, auth: { headers: Record<string, string> }, orderId: string, items: { id: string; quantity: number }[]) {
  return (await api.post(`/admin/orders/${orderId}/fulfillments`, { items }, auth)).data
}

/** Return requested and received in one go (emits order.return_received). */
export async function returnAndReceive(api: Api, auth: { headers: Record<string, string> }, orderId: string, items: { id: string; quantity: number }[]): Promise<string> {
  const ret = (await api.post(`/admin/returns`, { order_id: orderId }, auth)).data.return
  await api.post(`/admin/returns/${ret.id}/request-items`, { items }, auth)
  await api.post(`/admin/returns/${ret.id}/request`, {}, auth)
  await api.post(`/admin/returns/${ret.id}/receive`, {}, auth)
  await api.post(`/admin/returns/${ret.id}/receive-items`, { items }, auth)
  await api.post(`/admin/returns/${ret.id}/receive/confirm`, {}, auth)
  return ret.id
}

export async function claim(api: Api, auth: { headers: Record<string, string> }, orderId: string, items: { id: string; quantity: number }[]): Promise<string> {
  const c = (await api.post(`/admin/claims`, { order_id: orderId, type: "refund" }, auth)).data.claim
  await api.post(`/admin/claims/${c.id}/inbound/items`, { items }, auth)
  await api.post(`/admin/claims/${c.id}/request`, {}, auth)
  return c.id
}

export async function exchange(
  api: Api, auth: { headers: Record<string, string> }, orderId: string,
  inbound: { id: string; quantity: number }[], outbound: { variant_id: string; quantity: number }[],
): Promise<string> {
  const x = (await api.post(`/admin/exchanges`, { order_id: orderId }, auth)).data.exchange
  await api.post(`/admin/exchanges/${x.id}/inbound/items`, { items: inbound }, auth)
  await api.post(`/admin/exchanges/${x.id}/outbound/items`, { items: outbound }, auth)
  await api.post(`/admin/exchanges/${x.id}/request`, {}, auth)
  return x.id
}
