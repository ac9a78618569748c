import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { notFound } from "../../../../../http/answers"
import { callLogReader } from "../query"

/** GET /admin/sales-tax/activity/:id: one entry, with its bodies when `log.bodies` stored them. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const id = req.params.id!
  const [entries] = await callLogReader(req.scope).listAndCountCallLogEntries({ id }, { take: 1 })
  if (!entries[0]) return notFound(res, "Activity entry", id)
  res.json({ entry: entries[0] })
}
