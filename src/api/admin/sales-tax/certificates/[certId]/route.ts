import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { AdminCertificateResponse } from "../../../../../admin/lib/types"
import { handle, salesTaxClient } from "../../helpers"
import { invalidateCustomerCertificates } from "../../../../../core/exemptions"

/** GET /admin/sales-tax/certificates/:certId: one certificate from the service. */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const certificate = await salesTaxClient(req.scope).getCertificate(req.params.certId!)
  const out: AdminCertificateResponse = { certificate }
  res.json(out)
})

/**
 * DELETE /admin/sales-tax/certificates/:certId: disables the certificate at the service (it is
 * kept, with disabledAt set) and answers the record as it now is.
 */
export const DELETE = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const client = salesTaxClient(req.scope)
  const id = req.params.certId!
  await client.disableCertificate(id)
  const certificate = await client.getCertificate(id)
  // a disabled certificate stops exempting at the customer's next cart refresh (every instance)
  await invalidateCustomerCertificates(certificate.customerId, req.scope)
  const out: AdminCertificateResponse = { certificate }
  res.json(out)
})
