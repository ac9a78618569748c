// Response shapes of /admin/sales-tax/reconciliation/** (type-only) and the CSV download.
import { downloadFile } from "../../../../lib/download"

export interface RowView {
  order_id: string
  display_id: number | null
  created_at: string
  filing_state: string
  charged: string
  filed: string
  refunded_to_customer: string
  refunded_at_service: string
  difference: string
  reason: string | null
  detail: string | null
}

/** A US order listed apart: without tax, or in a currency other than USD. */
export interface AttentionRowView {
  order_id: string
  display_id: number | null
  created_at: string
  filing_state: string
  currency_code: string
  sales: string
  filed: string
  kind: "us_without_tax" | "currency_not_usd" | null
  detail: string | null
}

export interface MonthView {
  month: string
  summary: {
    orders: number
    charged: string
    filed: string
    refunded_to_customers: string
    refunded_at_service: string
    difference: string
  }
  differences: RowView[]
  differences_count: number
  truncated: boolean
  us_without_tax: { text: string; orders: number; sales: string; rows: AttentionRowView[] }
  not_usd: { text: string; orders: number; by_currency: { currency: string; orders: number; sales: string }[]; rows: AttentionRowView[] }
}

export interface BackfillJob {
  id: string
  from: string
  to: string
  status: "running" | "done" | "failed"
  error: string | null
  progress: {
    total: number
    processed: number
    filed: number
    alreadyAtService: number
    skipped: number
    refunds: number
    failed: number
    errors: { orderId: string; error: string }[]
    ordersPerSecond: number
    etaSeconds: number | null
  } | null
}

/** Fetches the month's CSV with the admin's session (or stored token) and saves it as a file. */
export async function downloadCsv(month: string): Promise<void> {
  await downloadFile(`/admin/sales-tax/reconciliation/csv?month=${encodeURIComponent(month)}`, `sales-tax-reconciliation-${month}.csv`)
}
