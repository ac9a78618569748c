import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { filingModuleOf, filingView, ListFilingsQuery } from "../../../../filing/routes"
import { parseOr400 } from "../../../../http/answers"

/** GET /admin/sales-tax/filings?state=failed&order_id=&limit=50&offset=0: filing records, newest first. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, ListFilingsQuery, "query")
  if (!q) return
  const { state, order_id, limit, offset } = q
  const { svc, scrub } = filingModuleOf(req)
  const [rows, count] = await svc.listAndCountFilingRecords(
    { ...(state ? { state } : {}), ...(order_id ? { order_id } : {}) },
    { relations: ["refunds"], take: limit, skip: offset, order: { created_at: "DESC" } },
  )
  res.json({ filings: rows.map((r) => filingView(r, scrub)), count, limit, offset })
}
