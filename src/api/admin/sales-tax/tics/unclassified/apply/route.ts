import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { acceptedSuggestions, applyChanges, pickedChanges } from "../../../../../../tics/classify/medusa"
import type { PlannedChange } from "../../../../../../tics/bulk"
import { bodyOf, handle, pluginOptions, sendError } from "../../../../../../http/answers"
import { AdminUnclassifiedApplyBody } from "../../validators"

/**
 * POST /admin/sales-tax/tics/unclassified/apply { items } | { min_confidence }: sets the TICs on
 * the products through the bulk path (one transaction in the background; progress at GET
 * /admin/sales-tax/tics/import/apply). items: each product must be on the default TIC and its TIC
 * known to the service (422 located otherwise). min_confidence: every suggestion at or above it.
 * 202 with the job; 409 while another TIC import runs.
 */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const body = bodyOf(req, AdminUnclassifiedApplyBody)
  const options = pluginOptions(req.scope)
  let changes: PlannedChange[]
  let summary: Record<string, unknown> = {}
  if (body.items) {
    const picked = await pickedChanges(req.scope, options, body.items)
    if ("errors" in picked)
      return sendError(
        res,
        422,
        MedusaError.Types.INVALID_DATA,
        `${picked.errors.length} item(s) refused; nothing was applied`,
        picked.errors.slice(0, 100),
      )
    changes = picked.changes
  } else {
    const accepted = await acceptedSuggestions(req.scope, options, body.min_confidence!)
    changes = accepted.changes
    summary = { below_threshold: accepted.below, without_suggestion: accepted.without, searches: accepted.searches }
  }
  const job = await applyChanges(req.scope, changes)
  if (!job) return sendError(res, 409, MedusaError.Types.CONFLICT, "another TIC import is running; wait for it to finish")
  res.status(202).json({ job, changes: changes.length, ...summary })
})
