/** The reconciliation report and rows as the admin API answers them: amounts in dollars, exact ("12.34"); and a month's
 * reconciliation as CSV (RFC 4180, CRLF). Pure. */
import { money } from "./amounts"
import { ATTENTION_TEXT, attentionSummary, type MonthReport, type OrderRow } from "./compute"
import { csvField } from "../../core/csv"

const head = (r: OrderRow) => ({ order_id: r.orderId, display_id: r.displayId, created_at: r.createdAt, filing_state: r.state })

/** An order's row as the admin sees it. */
export function rowView(r: OrderRow) {
  return {
    ...head(r),
    charged: money(r.chargedCents),
    filed: money(r.filedCents),
    refunded_to_customer: money(r.customerRefundedCents),
    refunded_at_service: money(r.serviceRefundedCents),
    difference: money(r.differenceCents),
    reason: r.reason,
    detail: r.detail,
  }
}

export const MAX_DIFFERENCES = 500

/** A US order listed apart (without tax, or not in USD), as the admin sees it: sales in its own currency. */
export function attentionView(r: OrderRow) {
  return {
    ...head(r),
    currency_code: r.currencyCode,
    sales: money(r.salesCents),
    filed: money(r.filedCents),
    kind: r.attention,
    detail: r.recordDetail,
  }
}

export function reportView(r: MonthReport) {
  const text = attentionSummary(r)
  return {
    month: r.month,
    summary: {
      orders: r.orders,
      charged: money(r.chargedCents),
      filed: money(r.filedCents),
      refunded_to_customers: money(r.customerRefundedCents),
      refunded_at_service: money(r.serviceRefundedCents),
      difference: money(r.differenceCents),
    },
    differences: r.differences.slice(0, MAX_DIFFERENCES).map(rowView),
    differences_count: r.differences.length,
    truncated: r.differences.length > MAX_DIFFERENCES,
    // listed apart (their difference is 0 when nothing was charged)
    us_without_tax: {
      text: text.usWithoutTax,
      orders: r.usWithoutTax.orders,
      sales: money(r.usWithoutTax.salesCents),
      rows: r.usWithoutTax.rows.slice(0, MAX_DIFFERENCES).map(attentionView),
    },
    not_usd: {
      text: text.nonUsd,
      orders: r.nonUsd.orders,
      by_currency: r.nonUsd.byCurrency.map((c) => ({ currency: c.currency, orders: c.orders, sales: money(c.salesCents) })),
      rows: r.nonUsd.rows.slice(0, MAX_DIFFERENCES).map(attentionView),
    },
  }
}

type Totals = Pick<OrderRow, "chargedCents" | "filedCents" | "customerRefundedCents" | "serviceRefundedCents" | "differenceCents">
const amounts = (x: Totals) => [x.chargedCents, x.filedCents, x.customerRefundedCents, x.serviceRefundedCents, x.differenceCents].map(money)
const line = (fields: (string | number | null)[]) => fields.map(csvField).join(",")

/** Every order of the month, a TOTAL line, then lines for US orders without tax and not in USD when any; CRLF line ends. */
export function monthCsv(r: MonthReport): string {
  const lines = [
    "order_id,display_id,created_at,filing_state,tax_charged,tax_filed,tax_refunded_to_customer,tax_refunded_at_service,difference,reason,detail",
  ]
  for (const x of r.rows) {
    const apart = !x.reason && x.attention
    const detail = apart ? [ATTENTION_TEXT[x.attention!], x.recordDetail].filter(Boolean).join("; ") : x.detail
    lines.push(line([x.orderId, x.displayId, x.createdAt, x.state, ...amounts(x), apart ? x.attention : x.reason, detail]))
  }
  lines.push(line(["TOTAL", r.orders, r.month, "", ...amounts(r), "", `${r.differences.length} differences`]))
  const text = attentionSummary(r)
  const apart = (label: string, n: number, detail: string) => line([label, n, r.month, "", "", "", "", "", "", "", detail])
  if (r.usWithoutTax.orders) lines.push(apart("US_WITHOUT_TAX", r.usWithoutTax.orders, text.usWithoutTax))
  if (r.nonUsd.orders) lines.push(apart("NOT_USD", r.nonUsd.orders, text.nonUsd))
  return lines.join("\r\n") + "\r\n"
}
