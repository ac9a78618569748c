import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { exportProductsCsv } from "../../../../../tics/medusa"
import { handle, pluginOptions } from "../../../../../http/answers"

/**
 * GET /admin/sales-tax/tics/export: every product as CSV (id, handle, title, product type,
 * categories, the TIC set on it, the TIC it resolves to and where that comes from); cells that look
 * like spreadsheet formulas are defused.
 */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const csv = await exportProductsCsv(req.scope, pluginOptions(req.scope).defaultTic)
  res.setHeader("content-type", "text/csv; charset=utf-8")
  res.setHeader("content-disposition", 'attachment; filename="sales-tax-product-tics.csv"')
  res.status(200).send(csv)
})
