import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { issuesToErrors } from "../../../../../../service/contract"
import { fileRefundAsCredit, listManualRefunds } from "../../../../../../filing/events/credits"
import { notAField } from "../../../../../../filing/requote"
import { filingRouteContext, readFilingView } from "../../helpers"

export const FileCreditBody = z
  .object({
    refund_id: z
      .string({ error: "refund_id must be the refund's id (ref_…)" })
      .min(1, "refund_id is required: the refund's id (ref_…)")
      .max(100, "refund_id must be at most 100 characters"),
  })
  .catchall(notAField)

/**
 * POST /admin/sales-tax/filings/:orderId/credits { refund_id }: files a refund without a return
 * as a standalone credit at the service (orderId `credit_<refund id>`, kind "credit"). 400 with
 * located errors for a bad body, 404 when the order has no such refund without a return. Answers
 * the credit's filing record (a service failure shows in its state, and the retry job retries it).
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const body = FileCreditBody.safeParse(req.body ?? {})
  if (!body.success) {
    const errors = issuesToErrors("body", body.error, req.body)
    res.status(400).json({ type: "invalid_data", message: errors.map((e) => `${e.location}: ${e.message}`).join("; "), errors })
    return
  }
  const refund = (await listManualRefunds(req.scope, ctx.orderId)).find((r) => r.refundId === body.data.refund_id)
  if (!refund) {
    res
      .status(404)
      .json({ type: "not_found", message: `Order ${ctx.orderId} has no refund without a return with id ${body.data.refund_id}` })
    return
  }
  await fileRefundAsCredit(req.scope, ctx.orderId, refund.refundId)
  res.json({ filing: await readFilingView(ctx.svc, refund.creditId) })
}
