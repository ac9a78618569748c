import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MonthQuery } from "../../../../../filing/routes"
import { monthCsv } from "../../../../../filing/reconciliation/views"
import { monthReport } from "../../../../../filing/reconciliation/medusa"
import { parseOr400 } from "../../../../../http/answers"

/** GET /admin/sales-tax/reconciliation/csv?month=YYYY-MM: every order of the month and a total line, as CSV. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, MonthQuery, "query")
  if (!q) return
  const csv = monthCsv(await monthReport(req.scope, q.month))
  res.setHeader("content-type", "text/csv; charset=utf-8")
  res.setHeader("content-disposition", `attachment; filename="sales-tax-reconciliation-${q.month}.csv"`)
  res.status(200).send(csv)
}
