import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { listManualRefunds } from "../../../../../../filing/events/credits"
import { filingRouteContext } from "../../helpers"
import { filingView } from "../../validators"

/**
 * GET /admin/sales-tax/filings/:orderId/lifecycle: what the order widget shows beside the order's
 * own record: the records of its edits, claims, exchanges and credits (`children`), and its
 * refunds without a return with their filing state (`manual_refunds`, `filing` null = not filed).
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const ctx = filingRouteContext(req, res)
  if (!ctx) return
  const rows = await ctx.svc.listFilingRecords({ parent_order_id: ctx.orderId }, { relations: ["refunds"], order: { created_at: "ASC" } })
  const manual = await listManualRefunds(req.scope, ctx.orderId)
  res.json({
    children: rows.map((r) => filingView(r)),
    manual_refunds: manual,
  })
}
