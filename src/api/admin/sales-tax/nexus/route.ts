import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { nexusReport } from "../../../../nexus/medusa"
import { handle, sendZodError } from "../../../../http/answers"
import { AdminNexusQuery } from "./validators"

/**
 * GET /admin/sales-tax/nexus: economic nexus exposure per state (src/nexus): sales and orders into
 * each state over its measurement period, its threshold, the share reached, whether the store is
 * registered there; states past a threshold and not registered first. `?date=YYYY-MM-DD` computes
 * it as of another day.
 */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const q = AdminNexusQuery.safeParse(req.query ?? {})
  if (!q.success) return sendZodError(res, q.error, req.query, "query")
  const today = q.data.date ? new Date(`${q.data.date}T12:00:00Z`) : new Date()
  res.json({ nexus: await nexusReport(req.scope, today) })
})
