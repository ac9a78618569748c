import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { FileCreditBody, filingRouteContext, readFilingView } from "../../../../../../filing/routes"
import { parseOr400, sendError } from "../../../../../../http/answers"
import { fileRefundAsCredit, listManualRefunds } from "../../../../../../filing/events/credits"

/** POST { refund_id }: files a refund without a return as a standalone credit; answers its filing record (404: no such refund). */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const body = parseOr400(req, res, FileCreditBody, "body")
  if (!body) return
  const refund = (await listManualRefunds(req.scope, ctx.orderId)).find((r) => r.refundId === body.refund_id)
  if (!refund) return sendError(res, 404, "not_found", `Order ${ctx.orderId} has no refund without a return with id ${body.refund_id}`)
  await fileRefundAsCredit(req.scope, ctx.orderId, refund.refundId)
  res.json({ filing: await readFilingView(ctx.svc, refund.creditId) })
}
