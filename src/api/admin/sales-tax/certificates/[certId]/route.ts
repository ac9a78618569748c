import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { AdminCertificateResponse } from "../../../../../http/types"
import { handle } from "../../../../../http/answers"
import { adminConnection } from "../../../../../http/connection-query"
import { invalidateCustomerCertificates } from "../../../../../checkout/exemptions/exemptions"

/** GET /admin/sales-tax/certificates/:certId[?connection_id=]: one certificate from the service, on that connection. */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const conn = adminConnection(req, res)
  if (!conn) return
  const certificate = await conn.client.getCertificate(req.params.certId!)
  const out: AdminCertificateResponse = { certificate }
  res.json(out)
})

/**
 * DELETE /admin/sales-tax/certificates/:certId[?connection_id=]: disables the certificate at the
 * service, on that connection (it is kept, with disabledAt set) and answers the record as it now is.
 */
export const DELETE = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const conn = adminConnection(req, res)
  if (!conn) return
  const { client } = conn
  const id = req.params.certId!
  await client.disableCertificate(id)
  const certificate = await client.getCertificate(id)
  // a disabled certificate stops exempting at the customer's next cart refresh (every instance)
  await invalidateCustomerCertificates(certificate.customerId, req.scope)
  const out: AdminCertificateResponse = { certificate }
  res.json(out)
})
