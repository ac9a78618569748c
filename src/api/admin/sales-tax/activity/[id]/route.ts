import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { notFound } from "../../../../../http/answers"
import { activityEntry } from "../../../../../service/activity"

/** GET /admin/sales-tax/activity/:id: one entry, with its bodies when `log.bodies` stored them. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const entry = await activityEntry(req.scope, req.params.id!)
  if (!entry) return notFound(res, "Activity entry", req.params.id!)
  res.json({ entry })
}
