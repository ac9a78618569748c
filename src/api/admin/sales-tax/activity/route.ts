import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { parseOr400 } from "../reconciliation/validators"
import { ActivityQuery, listActivity } from "../../../../service/activity"

/**
 * GET /admin/sales-tax/activity?operation=&status=2xx|4xx|5xx|none&order_id=&cart_id=&errors_only=&limit=&offset=
 * The service-call log, newest first: { entries (without bodies), count, limit, offset }.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, ActivityQuery, "query")
  if (q) res.json(await listActivity(req.scope, q))
}
