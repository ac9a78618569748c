import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { handle } from "../../../../http/answers"
import { settingsOverview } from "../../../../setup/settings"

/** GET /admin/sales-tax/settings: connection health, options in force (key redacted), TIC coverage, filing failures and pause. */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  res.json(await settingsOverview(req.scope))
})
