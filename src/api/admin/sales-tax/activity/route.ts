import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { parseOr400 } from "../../../../http/answers"
import { ActivityQuery, listActivity } from "../../../../service/activity"

/** GET ?operation=&status=&order_id=&cart_id=&errors_only=&limit=&offset=: the service-call log, newest first. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, ActivityQuery, "query")
  if (q) res.json(await listActivity(req.scope, q))
}
