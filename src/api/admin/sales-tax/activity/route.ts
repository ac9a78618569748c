import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { parseOr400 } from "../reconciliation/validators"
import { ActivityQuery, activityFilter, callLogReader, LIST_FIELDS } from "./query"

/**
 * GET /admin/sales-tax/activity?operation=&status=2xx|4xx|5xx|none&order_id=&cart_id=&errors_only=&limit=&offset=
 * The service-call log, newest first: { entries (without bodies), count, limit, offset }.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, ActivityQuery, "query")
  if (!q) return
  const [entries, count] = await callLogReader(req.scope).listAndCountCallLogEntries(activityFilter(q), {
    select: [...LIST_FIELDS],
    order: { at: "DESC", id: "DESC" },
    skip: q.offset,
    take: q.limit,
  })
  res.json({ entries, count, limit: q.limit, offset: q.offset })
}
