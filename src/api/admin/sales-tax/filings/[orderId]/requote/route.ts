import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { filingRouteContext, readFilingView, RequoteBody } from "../../../../../../filing/routes"
import { MedusaError } from "@medusajs/framework/utils"
import { RequoteRefused, requoteAnswer, requoteFiling } from "../../../../../../filing/requote"
import { handle, parseOr400, sendError } from "../../../../../../http/answers"

const { NOT_FOUND, NOT_ALLOWED, UNEXPECTED_STATE } = MedusaError.Types
const REFUSED = { 404: NOT_FOUND, 409: NOT_ALLOWED, 422: NOT_ALLOWED, 503: UNEXPECTED_STATE }

/** POST { state, zip }: files a needs_attention order for the corrected destination (docs/filing.md); a second call files nothing. */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const body = parseOr400(req, res, RequoteBody, "body")
  if (!body) return
  try {
    const out = await requoteFiling(req.scope, ctx.orderId, body)
    res.json({ ...requoteAnswer(out), filing: await readFilingView(ctx.svc, ctx.orderId, ctx.scrub) })
  } catch (e) {
    if (!(e instanceof RequoteRefused)) throw e
    sendError(res, e.status, REFUSED[e.status], e.message, e.errors)
  }
})
