import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SALES_TAX_FILING_MODULE } from "../../../../../../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../../../../../../modules/sales-tax-filing/service"
import { retryFilingWorkflow } from "../../../../../../workflows/filing/workflows"
import { FilingParams, filingView } from "../../validators"

/**
 * POST /admin/sales-tax/filings/:orderId/retry: forgets the attempt count and runs the record's
 * pending work now (file, complete, void/refund). Answers the record as it is afterwards; a service
 * failure is not an HTTP error here: it is in `filing.state` / `filing.last_error`.
 */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const p = FilingParams.safeParse(req.params)
  if (!p.success) {
    res.status(400).json({ type: "invalid_data", message: "orderId must be 1 to 100 characters" })
    return
  }
  const svc = req.scope.resolve(SALES_TAX_FILING_MODULE) as SalesTaxFilingModuleService
  const exists = await svc.findRecord(p.data.orderId)
  if (!exists) {
    res.status(404).json({ type: "not_found", message: `No filing record for ${p.data.orderId}` })
    return
  }
  await retryFilingWorkflow(req.scope).run({ input: { orderId: p.data.orderId } })
  const [rec] = await svc.listFilingRecords({ order_id: p.data.orderId }, { relations: ["refunds"], take: 1 })
  res.json({ filing: filingView(rec as unknown as Record<string, unknown>) })
}
