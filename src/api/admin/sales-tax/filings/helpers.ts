import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SALES_TAX_FILING_MODULE } from "../../../../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../../../../modules/sales-tax-filing/service"
import { FilingParams, filingView } from "./validators"
import { sendZodError, serviceText } from "../../../../http/answers"

/**
 * The `:orderId` of a filing route with the filing module: answers 400 with a located error (and
 * returns undefined) when it is not an order id (order_…, or oexc_… / claim_… for their own filings).
 */
export function filingRouteContext(
  req: MedusaRequest,
  res: MedusaResponse,
): { orderId: string; svc: SalesTaxFilingModuleService; scrub: (text: string) => string } | undefined {
  const p = FilingParams.safeParse(req.params)
  if (!p.success) {
    sendZodError(res, p.error, req.params, "path")
    return undefined
  }
  return {
    orderId: p.data.orderId,
    svc: req.scope.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE),
    scrub: (t: string) => serviceText(req.scope, t),
  }
}

/** The 404 of a filing route. */
export function filingNotFound(res: MedusaResponse, orderId: string): void {
  res.status(404).json({ type: "not_found", message: `No filing record for ${orderId}` })
}

/** The filing record of `orderId` with its refunds, as the admin sees it; undefined when none. */
export async function readFilingView(svc: SalesTaxFilingModuleService, orderId: string, scrub?: (text: string) => string) {
  const [rec] = await svc.listFilingRecords({ order_id: orderId }, { relations: ["refunds"], take: 1 })
  return rec ? filingView(rec, scrub) : undefined
}
