import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { filingNotFound, filingRouteContext, readFilingView } from "../../../../../filing/routes"

/** GET /admin/sales-tax/filings/:orderId: the filing record of one order (or exchange) with its refunds. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const filing = await readFilingView(ctx.svc, ctx.orderId, ctx.scrub)
  if (!filing) return filingNotFound(res, ctx.orderId)
  res.json({ filing })
}
