import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { parseOr400, serviceText } from "../../../../http/answers"
import { SALES_TAX_FILING_MODULE } from "../../../../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../../../../modules/sales-tax-filing/service"
import { ListFilingsQuery, filingView } from "./validators"

/** GET /admin/sales-tax/filings?state=failed&order_id=&limit=50&offset=0: filing records, newest first. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const q = parseOr400(req, res, ListFilingsQuery, "query")
  if (!q) return
  const { state, order_id, limit, offset } = q
  const svc = req.scope.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE)
  const [rows, count] = await svc.listAndCountFilingRecords(
    { ...(state ? { state } : {}), ...(order_id ? { order_id } : {}) },
    { relations: ["refunds"], take: limit, skip: offset, order: { created_at: "DESC" } },
  )
  res.json({
    filings: rows.map((r) => filingView(r, (t) => serviceText(req.scope, t))),
    count,
    limit,
    offset,
  })
}
