import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { issuesToErrors } from "../../../../../../service/contract"
import { normalizeUsState, normalizeUsZip } from "../../../../../../checkout/address/us-address"
import { dec } from "../../../../../../money"
import type { FilingSnapshot } from "../../../../../../modules/sales-tax-filing/types"
import { RequoteRefused, requoteFiling } from "../../../../../../filing/requote"
import { handle, sendError } from "../../../../../../http/answers"
import { filingNotFound, filingRouteContext, readFilingView } from "../../helpers"

/** Any other field: refused at its own location (`body.<field>`), not as an unknown key of the whole body. */
const notAField = z.unknown().refine(() => false, { error: "not a field of this request" })

/** The corrected destination: a state (code, "US-TX" or name) and a ZIP (5 or 9 digits), normalized. */
export const RequoteBody = z
  .object({
    state: z
      .string({ error: "state is required (a US state code or name, e.g. TX)" })
      .max(40, "state must be at most 40 characters")
      .transform((s, ctx) => {
        const code = normalizeUsState(s)
        if (!code) ctx.addIssue({ code: "custom", message: "state must be a US state or DC (code like TX, or name like Texas)" })
        return code ?? ""
      }),
    zip: z
      .string({ error: "zip is required (5 digits, or ZIP+4)" })
      .max(20, "zip must be at most 20 characters")
      .transform((s, ctx) => {
        const z5 = normalizeUsZip(s)
        if (!z5) ctx.addIssue({ code: "custom", message: "zip must be a US ZIP: 5 digits, or ZIP+4 (78701-1234)" })
        return z5 ? (z5.zip4 ? `${z5.zip}-${z5.zip4}` : z5.zip) : ""
      }),
  })
  .catchall(notAField)

/**
 * POST /admin/sales-tax/filings/:orderId/requote { state, zip }: the fix of a needs_attention
 * order (no tax was charged for its US address): its lines are quoted at the service for the
 * corrected destination and filed. The shopper paid no tax; what is filed is the tax the service
 * computes, which the merchant owes (`owed_tax`). The state and ZIP go through the destination
 * rule: the ZIP decides the state where they disagree (the answer's `destination` says which).
 * 400 with located errors for a bad body, 404 when there is no record, 409 when the record does not
 * need attention (and was never re-quoted), 422 when it cannot be re-quoted (a currency other than
 * USD, several origins; at `body.zip` a state and ZIP that do not reconcile, a territory ZIP), 503
 * when verify-address cannot be asked. Keyed by the Medusa
 * order id: a second call (a double click) files nothing and answers `requoted: false`.
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
  const rec = await ctx.svc.findRecord(ctx.orderId)
  if (!rec) {
    filingNotFound(res, ctx.orderId)
    return
  }
  if (rec.state !== "needs_attention" && !rec.snapshot?.requote) {
    sendError(res, 409, MedusaError.Types.NOT_ALLOWED, `The filing of ${ctx.orderId} does not need attention (state ${rec.state})`)
    return
  }
  let out: Awaited<ReturnType<typeof requoteFiling>>
  try {
    out = await requoteFiling(req.scope, ctx.orderId, body.data)
  } catch (e) {
    if (e instanceof RequoteRefused) {
      const type =
        e.status === 404
          ? MedusaError.Types.NOT_FOUND
          : e.status === 503
            ? MedusaError.Types.UNEXPECTED_STATE
            : MedusaError.Types.NOT_ALLOWED
      sendError(res, e.status, type, e.message, e.errors)
      return
    }
    throw e
  }
  const requote = (out.record?.snapshot as FilingSnapshot | null | undefined)?.requote ?? null
  res.json({
    requoted: out.requoted,
    ...(requote
      ? {
          destination: { state: requote.state, zip: requote.zip },
          collected_tax: dec(requote.collectedTax).toFixed(2),
          owed_tax: dec(requote.owedTax).toFixed(2),
        }
      : {}),
    filing: await readFilingView(ctx.svc, ctx.orderId, ctx.scrub),
  })
})
