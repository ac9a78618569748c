/** Pure: a month's reconciliation as CSV (RFC 4180, CRLF). */
import { money } from "./amounts"
import { ATTENTION_TEXT, attentionSummary } from "./attention"
import type { MonthReport } from "./types"
import { csvField } from "../../core/csv"

export const CSV_HEADER = [
  "order_id",
  "display_id",
  "created_at",
  "filing_state",
  "tax_charged",
  "tax_filed",
  "tax_refunded_to_customer",
  "tax_refunded_at_service",
  "difference",
  "reason",
  "detail",
] as const

/** Every order of the month, a TOTAL line, then lines for US orders without tax and not in USD when any; CRLF line ends. */
export function monthCsv(r: MonthReport): string {
  const lines = [CSV_HEADER.join(",")]
  for (const x of r.rows) {
    const apart = !x.reason && x.attention
    const detail = apart ? [ATTENTION_TEXT[x.attention!], x.recordDetail].filter(Boolean).join("; ") : x.detail
    lines.push(
      [
        x.orderId,
        x.displayId,
        x.createdAt,
        x.state,
        money(x.chargedCents),
        money(x.filedCents),
        money(x.customerRefundedCents),
        money(x.serviceRefundedCents),
        money(x.differenceCents),
        apart ? x.attention : x.reason,
        detail,
      ]
        .map(csvField)
        .join(","),
    )
  }
  lines.push(
    [
      "TOTAL",
      r.orders,
      r.month,
      "",
      money(r.chargedCents),
      money(r.filedCents),
      money(r.customerRefundedCents),
      money(r.serviceRefundedCents),
      money(r.differenceCents),
      "",
      `${r.differences.length} differences`,
    ]
      .map(csvField)
      .join(","),
  )
  const text = attentionSummary(r)
  const apart = (label: string, n: number, detail: string) =>
    [label, n, r.month, "", "", "", "", "", "", "", detail].map(csvField).join(",")
  // the lines apart, when the month has such orders (a month without any keeps the file as before)
  if (r.usWithoutTax.orders) lines.push(apart("US_WITHOUT_TAX", r.usWithoutTax.orders, text.usWithoutTax))
  if (r.nonUsd.orders) lines.push(apart("NOT_USD", r.nonUsd.orders, text.nonUsd))
  return lines.join("\r\n") + "\r\n"
}
