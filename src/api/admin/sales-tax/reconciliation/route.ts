import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MonthQuery } from "../../../../filing/routes"
import { monthReport } from "../../../../filing/reconciliation/medusa"
import { reportView } from "../../../../filing/reconciliation/views"
import { parseOr400 } from "../../../../http/answers"

/** GET ?month=YYYY-MM: the month's orders (UTC), tax charged, filed and refunded, and each order whose filing differs, with the reason. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, MonthQuery, "query")
  if (!q) return
  res.json(reportView(await monthReport(req.scope, q.month)))
}
