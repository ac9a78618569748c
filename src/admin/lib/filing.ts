/** The order filing widget's data (GET /admin/sales-tax/filings/:orderId and its lifecycle) and its pure formatting. */
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

export const KIND_LABEL: Record<string, string> = {
  exchange: "Exchange",
  edit: "Order edit",
  claim: "Replace claim",
  credit: "Credit",
  // an order shipped from several stock locations: one service order per further origin
  order: "Shipped from another location:",
}

export const STATE_COLOR: Record<string, "green" | "blue" | "orange" | "red" | "grey" | "purple"> = {
  pending: "orange",
  filed: "blue",
  completed: "green",
  partially_refunded: "purple",
  refunded: "purple",
  voided: "grey",
  failed: "red",
  skipped: "grey",
  needs_attention: "red",
  superseded: "grey",
}

export function stateLabel(s: string): string {
  return s.replace(/_/g, " ")
}

export function money(v: number | string | null | undefined): string {
  if (v === null || v === undefined || v === "") return "—"
  const n = typeof v === "number" ? v : Number(v)
  return Number.isFinite(n) ? `${n < 0 ? "-" : ""}$${Math.abs(n).toFixed(2)}` : String(v)
}

export function when(v: string | null | undefined): string {
  return v ? new Date(v).toLocaleString() : "—"
}

/** Failed work a retry can restart: the record itself, or one of its refunds. */
export function hasFailedWork(f: FilingView): boolean {
  return f.state === "failed" || (f.refunds ?? []).some((r) => r.state === "failed")
}

/** What the order page's order holds to name its lines (AdminOrder's items). */
export interface NamedOrder {
  items?: { id: string; product_title?: string | null; title?: string | null }[] | null
}

/**
 * Pure: a filed line's name in the merchant's words: "Shipping" for a shipping line, else the
 * product's title (the item's own title without one); the id only for a line the order no longer has.
 */
export function lineName(order: NamedOrder, itemId: string): string {
  if (itemId.startsWith("shipping:")) return "Shipping"
  const it = (order.items ?? []).find((i) => i.id === itemId)
  return it?.product_title?.trim() || it?.title?.trim() || itemId
}

/** Pure: the names of lines, each once, in order ("Medusa T-Shirt, Shipping"). */
export function lineNames(order: NamedOrder, itemIds: readonly string[]): string {
  return [...new Set(itemIds.map((id) => lineName(order, id)))].join(", ")
}
