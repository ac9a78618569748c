import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { SALES_TAX_FILING_MODULE } from "../../../../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../../../../modules/sales-tax-filing/service"
import { FilingParams, filingView } from "./validators"
import type { z } from "zod"
import { issuesToErrors } from "../../../../service/contract"
import { sendError, sendZodError, serviceText } from "../../../../http/answers"

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
  sendError(res, 404, "not_found", `No filing record for ${orderId}`)
}

/** The filing record of `orderId` with its refunds, as the admin sees it; undefined when none. */
export async function readFilingView(svc: SalesTaxFilingModuleService, orderId: string, scrub?: (text: string) => string) {
  const [rec] = await svc.listFilingRecords({ order_id: orderId }, { relations: ["refunds"], take: 1 })
  return rec ? filingView(rec, scrub) : undefined
}

/** The body, or a 400 whose message lists each located error (undefined then). */
export function filingBody<T>(req: MedusaRequest, res: MedusaResponse, schema: z.ZodType<T>): T | undefined {
  const body = schema.safeParse(req.body ?? {})
  if (body.success) return body.data
  const errors = issuesToErrors("body", body.error, req.body)
  sendError(res, 400, "invalid_data", errors.map((e) => `${e.location}: ${e.message}`).join("; "), errors)
}
