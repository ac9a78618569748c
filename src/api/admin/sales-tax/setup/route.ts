import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { readChecklist } from "../../../../setup/medusa"
import type { AdminSetupResponse } from "../../../../http/types"
import { handle } from "../../../../http/answers"

/**
 * GET /admin/sales-tax/setup: the setup checklist (src/setup/checks.ts): what the store needs to
 * quote US sales tax, each item done or with its fix (POST /admin/sales-tax/setup/fix) or
 * instructions.
 */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const items = await readChecklist(req.scope)
  const out: AdminSetupResponse = { items, done: items.every((i) => i.done) }
  res.json(out)
})
