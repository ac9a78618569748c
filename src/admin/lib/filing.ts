/** The order filing widget's data (GET /admin/sales-tax/filings/:orderId, its lifecycle), its formatting and its rate pairs. */
import type { AdminOrderLineItem } from "@medusajs/framework/types"
import type { FilingLine, FilingRecordDTO } from "../../modules/sales-tax-filing/types"
import type { ManualRefund } from "../../filing/events/credits"
import type { requoteAnswer } from "../../filing/requote"
import type { Json } from "./api"

/** The filing record and its refunds as GET /admin/sales-tax/filings/:orderId answers them. */
export type FilingView = Json<FilingRecordDTO>

/** GET /admin/sales-tax/filings/:orderId/lifecycle: the order's other records and its refunds without a return. */
export type LifecycleView = { children: FilingView[]; manual_refunds: ManualRefund[] }

/** POST /admin/sales-tax/filings/:orderId/requote's answer. */
export type RequoteView = ReturnType<typeof requoteAnswer> & { filing: FilingView }

export const stateLabel = (s: string) => s.replace(/_/g, " ")

export function money(v: number | string | null | undefined): string {
  if (v === null || v === undefined || v === "") return "—"
  const n = typeof v === "number" ? v : Number(v)
  return Number.isFinite(n) ? `${n < 0 ? "-" : ""}$${Math.abs(n).toFixed(2)}` : String(v)
}

export const when = (v: string | null | undefined) => (v ? new Date(v).toLocaleString() : "—")

/** Failed work a retry can restart: the record itself, or one of its refunds. */
export const hasFailedWork = (f: FilingView) => f.state === "failed" || (f.refunds ?? []).some((r) => r.state === "failed")

/** What the order page's order holds to name its lines (AdminOrder's items). */
export type NamedOrder = { items?: Pick<AdminOrderLineItem, "id" | "product_title" | "title">[] | null }

/**
 * A filed line's name in the merchant's words: "Shipping", the product's title (else the item's), the id of a line the order
 * no longer has.
 */
export function lineName(order: NamedOrder, itemId: string): string {
  if (itemId.startsWith("shipping:")) return "Shipping"
  const it = (order.items ?? []).find((i) => i.id === itemId)
  return it?.product_title?.trim() || it?.title?.trim() || itemId
}

/** The names of lines, each once, in order ("Medusa T-Shirt, Shipping"). */
export const lineNames = (order: NamedOrder, itemIds: readonly string[]) =>
  [...new Set(itemIds.map((id) => lineName(order, id)))].join(", ")

const pct = (fraction: number, places: number) => `${Number((fraction * 100).toFixed(places))} %`

/**
 * Where the rate Medusa shows on a line (back-solved: its tax is the service's to the cent) differs from the service's own, each
 * pair once with its lines. Empty when Medusa shows the service's rates (or the records predate the service's rate).
 */
export function ratePairs(lines: readonly (Pick<FilingLine, "chargedRate" | "serviceRate"> & Partial<FilingLine>)[]) {
  const out = new Map<string, { medusa: string; service: string; lines: number; itemIds: string[] }>()
  for (const l of lines) {
    if (typeof l.serviceRate !== "number") continue
    const medusa = pct(l.chargedRate, 2)
    const service = pct(l.serviceRate, 4)
    if (Math.abs(l.chargedRate - l.serviceRate) < 0.000005) continue
    const key = `${medusa}|${service}`
    if (!out.has(key)) out.set(key, { medusa, service, lines: 0, itemIds: [] })
    const p = out.get(key)!
    p.lines++
    if (l.itemId) p.itemIds.push(l.itemId)
  }
  return [...out.values()]
}
