import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listUnclassified } from "../../../../../tics/classify/medusa"
import { handle, pluginOptions } from "../../../../../http/answers"
import { parseOr400 } from "../../reconciliation/validators"
import { AdminUnclassifiedQuery } from "../validators"

/**
 * GET /admin/sales-tax/tics/unclassified?limit=&offset=: the products on the default TIC (count,
 * oldest first), a page of them with a suggested TIC, its label, a confidence and two alternatives,
 * and the page's searches (made, cached, left past the ceiling).
 */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, AdminUnclassifiedQuery, "query")
  if (!q) return
  res.json(await listUnclassified(req.scope, pluginOptions(req.scope), q.offset, q.limit))
})
