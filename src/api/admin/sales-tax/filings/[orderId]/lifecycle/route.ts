import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { filingRouteContext, filingView } from "../../../../../../filing/routes"
import { listManualRefunds } from "../../../../../../filing/events/credits"

/** GET: the records of the order's edits, claims, exchanges and credits, and its refunds without a return with their filing. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const rows = await ctx.svc.listFilingRecords({ parent_order_id: ctx.orderId }, { relations: ["refunds"], order: { created_at: "ASC" } })
  res.json({ children: rows.map((r) => filingView(r)), manual_refunds: await listManualRefunds(req.scope, ctx.orderId) })
}
