import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SALES_TAX_FILING_MODULE } from "../../../../../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../../../../../modules/sales-tax-filing/service"
import { FilingParams, filingView } from "../validators"

/** GET /admin/sales-tax/filings/:orderId: the filing record of one order (or exchange) with its refunds. */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const p = FilingParams.safeParse(req.params)
  if (!p.success) {
    res.status(400).json({ type: "invalid_data", message: "orderId must be 1 to 100 characters" })
    return
  }
  const svc = req.scope.resolve(SALES_TAX_FILING_MODULE) as SalesTaxFilingModuleService
  const [rec] = await svc.listFilingRecords({ order_id: p.data.orderId }, { relations: ["refunds"], take: 1 })
  if (!rec) {
    res.status(404).json({ type: "not_found", message: `No filing record for ${p.data.orderId}` })
    return
  }
  res.json({ filing: filingView(rec as unknown as Record<string, unknown>) })
}
