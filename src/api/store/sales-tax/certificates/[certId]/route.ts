import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { isSalesTaxError } from "../../../../../service/client"
import { invalidateCustomerCertificates } from "../../../../../checkout/exemptions/exemptions"
import { handle, notFound, storeClient } from "../../../../../http/answers"
import { customerOf, shopperCertificatesOpen, withCreators, withinBudget } from "../../../../../certificates/shopper"

/**
 * DELETE /store/sales-tax/certificates/:certId: the logged-in customer withdraws one of their own
 * certificates (disabled at the service, kept with disabledAt); it stops exempting from the next
 * cart refresh. Another customer's certificate, or an unknown one, answers 404 alike. A sale
 * already filed under it stays filed as it was charged (docs/filing.md).
 */
export const DELETE = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const customerId = customerOf(req)
  if (!shopperCertificatesOpen(req, res)) return
  if (!(await withinBudget(res, customerId))) return
  const id = req.params.certId!
  const client = storeClient(req)
  let certificate
  try {
    certificate = await client.getCertificate(id)
  } catch (e) {
    if (isSalesTaxError(e) && e.status === 404) return notFound(res, "Certificate", id)
    throw e
  }
  if (certificate.customerId !== customerId) return notFound(res, "Certificate", id)
  if (!certificate.disabledAt) {
    await client.disableCertificate(id)
    certificate = await client.getCertificate(id)
  }
  await invalidateCustomerCertificates(customerId, req.scope)
  const [out] = await withCreators(req.scope, [certificate])
  res.json({ certificate: out })
})
