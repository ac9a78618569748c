import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { issuesToErrors } from "../../../../../../service/contract"
import { RequoteBody, RequoteRefused, requoteAnswer, requoteFiling } from "../../../../../../filing/requote"
import { handle, sendError } from "../../../../../../http/answers"
import { filingRouteContext, readFilingView } from "../../helpers"

const REFUSED = {
  404: MedusaError.Types.NOT_FOUND,
  409: MedusaError.Types.NOT_ALLOWED,
  422: MedusaError.Types.NOT_ALLOWED,
  503: MedusaError.Types.UNEXPECTED_STATE,
}

/**
 * POST /admin/sales-tax/filings/:orderId/requote { state, zip }: files a needs_attention order for
 * the corrected destination with the tax the service computes (owed by the merchant). 400 bad
 * body, 404 no record, 409 not needing attention, 422 cannot be re-quoted, 503 verify-address
 * unavailable. A second call files nothing (`requoted: false`). See docs/filing.md.
 */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const body = RequoteBody.safeParse(req.body ?? {})
  if (!body.success) {
    const errors = issuesToErrors("body", body.error, req.body)
    sendError(res, 400, MedusaError.Types.INVALID_DATA, errors.map((e) => `${e.location}: ${e.message}`).join("; "), errors)
    return
  }
  try {
    const out = await requoteFiling(req.scope, ctx.orderId, body.data)
    res.json({ ...requoteAnswer(out), filing: await readFilingView(ctx.svc, ctx.orderId, ctx.scrub) })
  } catch (e) {
    if (!(e instanceof RequoteRefused)) throw e
    sendError(res, e.status, REFUSED[e.status], e.message, e.errors)
  }
})
