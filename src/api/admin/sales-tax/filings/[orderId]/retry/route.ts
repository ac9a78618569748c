import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { retryFiling } from "../../../../../../filing/events/orders"
import { filingNotFound, filingRouteContext, readFilingView } from "../../helpers"

/**
 * POST /admin/sales-tax/filings/:orderId/retry: forgets the attempt count and runs the record's
 * pending work now (file, complete, void/refund). Answers the record as it is afterwards; a service
 * failure is not an HTTP error here: it is in `filing.state` / `filing.last_error`.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const exists = await ctx.svc.findRecord(ctx.orderId)
  if (!exists) {
    filingNotFound(res, ctx.orderId)
    return
  }
  await retryFiling(req.scope, ctx.orderId)
  res.json({ filing: await readFilingView(ctx.svc, ctx.orderId, ctx.scrub) })
}
