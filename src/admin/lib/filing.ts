/** The order filing widget's data (GET /admin/sales-tax/filings/:orderId and its lifecycle) and its pure formatting. */
import type { AdminOrderLineItem } from "@medusajs/framework/types"
import type { FilingRecordDTO } from "../../modules/sales-tax-filing/types"
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
