/** Pure: a month's reconciliation as CSV (RFC 4180, CRLF). */
import { money } from "./amounts"
import { ATTENTION_TEXT, attentionSummary, type MonthReport, type OrderRow } from "./compute"
import { csvField } from "../../core/csv"

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
