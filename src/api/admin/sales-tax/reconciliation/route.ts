import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { monthReport } from "../../../../filing/reconciliation/medusa"
import { reportView } from "../../../../filing/reconciliation/views"
import { MonthQuery } from "./validators"
import { parseOr400 } from "../../../../http/answers"

/**
 * GET /admin/sales-tax/reconciliation?month=YYYY-MM: the month's orders (placed in the month, UTC)
 * — count, tax charged, filed, refunded to customers, refunded at the service — and each order
 * whose filed net differs from its charged net (or whose filing failed), with the reason.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, MonthQuery, "query")
  if (!q) return
  res.json(reportView(await monthReport(req.scope, q.month)))
}
