import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { currentTicImport, previewImport, startTicImport } from "../../../../../../tics/medusa"
import { bodyOf, handle, pluginOptions, sendError } from "../../../../../../http/answers"
import { AdminTicApplyBody } from "../../validators"

/**
 * POST /admin/sales-tax/tics/import/apply { csv, mode, preview_hash? }: checks the file again (a
 * preview is never trusted) and applies it in the background, all in one transaction. mode "all":
 * nothing is applied while any line is refused (422 with the refused lines); "valid_rows": the valid
 * lines are applied. 409 when its plan differs from the preview named by `preview_hash`, or while
 * another import runs (any instance); a line whose TIC changes before the write is reported on the job.
 * 202 with the job.
 */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const body = bodyOf(req, AdminTicApplyBody)
  const plan = await previewImport(req.scope, pluginOptions(req.scope), body.csv)
  if (body.preview_hash && body.preview_hash !== plan.hash) {
    const message = "the plan differs from the preview's: a TIC of the file's targets changed since; preview the file again"
    return sendError(res, 409, MedusaError.Types.CONFLICT, message, [{ location: "body.preview_hash", message }])
  }
  if (body.mode === "all" && plan.refused.length) {
    return sendError(
      res,
      422,
      MedusaError.Types.INVALID_DATA,
      `${plan.refused.length} line(s) refused; nothing was applied (fix them, or apply the valid lines with mode "valid_rows")`,
      plan.refused.slice(0, 100).map((r) => ({ location: `csv.line ${r.row}.${r.column}`, message: r.reason })),
    )
  }
  const started = await startTicImport(req.scope, plan.changes)
  if (!started.ok) return sendError(res, 409, MedusaError.Types.CONFLICT, "another TIC import is running; wait for it to finish")
  res
    .status(202)
    .json({ job: started.job, plan: { changes: plan.changes.length, unchanged: plan.unchanged, refused: plan.refused.length } })
})

/** GET /admin/sales-tax/tics/import/apply: the running (or last) import's progress. */
export const GET = (_req: MedusaRequest, res: MedusaResponse) => {
  res.json({ job: currentTicImport() })
}
