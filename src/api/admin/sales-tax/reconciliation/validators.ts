import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { MONTH_RE, attentionSummary, money, type MonthReport, type OrderRow } from "../../../../filing/reconciliation/compute"
import { FIRST_YEAR, inYears, LAST_YEAR } from "../../../../filing/backfill/range"
import { sendZodError } from "../../../../http/answers"

export const MonthQuery = z.object({
  month: z
    .string({ error: "month is required, as YYYY-MM" })
    .regex(MONTH_RE, { message: "month must be YYYY-MM (e.g. 2026-10)", abort: true })
    .refine(inYears, `month must be from ${FIRST_YEAR}-01 to ${LAST_YEAR}-12`),
})

export const FixBody = z.object({ order_id: z.string().min(1, "order_id is required").max(100) })

/** Parses `schema` from the request's query or body; on failure answers 400 with located errors and returns undefined. */
export function parseOr400<T>(req: MedusaRequest, res: MedusaResponse, schema: z.ZodType<T>, part: "query" | "body"): T | undefined {
  const input = part === "query" ? (req.query ?? {}) : (req.body ?? {})
  const parsed = schema.safeParse(input)
  if (!parsed.success) {
    sendZodError(res, parsed.error, input, part)
    return undefined
  }
  return parsed.data
}

/** An order's row as the admin sees it: amounts in dollars, exact ("12.34"). */
export function rowView(r: OrderRow) {
  return {
    order_id: r.orderId,
    display_id: r.displayId,
    created_at: r.createdAt,
    filing_state: r.state,
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
    order_id: r.orderId,
    display_id: r.displayId,
    created_at: r.createdAt,
    filing_state: r.state,
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
    // issue 26, 27: listed apart (their difference is 0 when nothing was charged)
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
