import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { applySetupFix, FixBusy, FixNotOffered } from "../../../../../setup/medusa"
import type { AdminSetupFixResponse } from "../../../../../http/types"
import { bodyOf, handle, sendError } from "../../../../../http/answers"
import { AdminSetupFixBody } from "../validators"

/**
 * POST /admin/sales-tax/setup/fix `{ fix }`: applies one unambiguous fix of the checklist through
 * Medusa's workflows and answers the checklist after it. 409 when the checklist does not offer
 * that fix now (its item is done, or needs a person's choice), or when another fix held the lock
 * past the wait. Fixes run one at a time, each planned inside the lock (src/setup/medusa.ts).
 */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const { fix } = bodyOf(req, AdminSetupFixBody)
  try {
    const { applied, items } = await applySetupFix(req.scope, fix)
    const out: AdminSetupFixResponse = { applied, items, done: items.every((i) => i.done) }
    res.json(out)
  } catch (e) {
    if (e instanceof FixNotOffered) {
      return sendError(res, 409, MedusaError.Types.NOT_ALLOWED, e.message, [{ location: "body.fix", message: e.message, value: fix }])
    }
    if (e instanceof FixBusy) return sendError(res, 409, MedusaError.Types.CONFLICT, e.message)
    throw e
  }
})
