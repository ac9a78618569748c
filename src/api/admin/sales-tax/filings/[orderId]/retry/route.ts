import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { filingNotFound, filingRouteContext, readFilingView } from "../../../../../../filing/routes"
import { retryFiling } from "../../../../../../filing/events/orders"

/** POST: forgets the attempt count and runs the record's pending work now; a service failure shows in `filing.state`, not as an HTTP error. */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const exists = await ctx.svc.findRecord(ctx.orderId)
  if (!exists) return filingNotFound(res, ctx.orderId)
  await retryFiling(req.scope, ctx.orderId)
  res.json({ filing: await readFilingView(ctx.svc, ctx.orderId, ctx.scrub) })
}
