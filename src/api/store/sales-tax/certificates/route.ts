import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { CertificateRecord } from "../../../../contract"
import { invalidateCustomerCertificates } from "../../../../core/exemptions"
import { bodyOf, handle, storeClient } from "../../../admin/sales-tax/helpers"
import { AdminCreateCertificateBody } from "../../../admin/sales-tax/validators"
import { customerOf, recordOrigin, withCreators, withinBudget } from "./shopper"

/**
 * GET /store/sales-tax/certificates: the logged-in customer's own exemption certificates at the
 * service, active first, then withdrawn (disabled), most recent first.
 */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const customerId = customerOf(req)
  if (!(await withinBudget(res, customerId))) return
  const client = storeClient(req)
  const all: CertificateRecord[] = []
  for (const disabled of [false, true]) {
    for await (const c of client.certificates({ customerId, disabled, limit: 100 })) all.push(c)
  }
  all.sort((a, b) => (!a.disabledAt !== !b.disabledAt ? (a.disabledAt ? 1 : -1) : b.createdDate.localeCompare(a.createdDate)))
  res.json({ certificates: await withCreators(req.scope, all) })
})

/**
 * POST /store/sales-tax/certificates: the logged-in customer submits an exemption certificate
 * (the admin form's body: customerName, address, reason, customerBusinessType, states with their
 * identification numbers, …). Created at the service for this customer; it applies from the
 * customer's next cart refresh, on every instance.
 */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const customerId = customerOf(req)
  if (!(await withinBudget(res, customerId))) return
  const body = bodyOf(req, AdminCreateCertificateBody)
  const certificate = await storeClient(req).createCertificate({ ...body, customerId })
  await recordOrigin(req.scope, { certificateId: certificate.certificateId, customerId, createdBy: "customer", actorId: customerId })
  await invalidateCustomerCertificates(customerId, req.scope)
  res.status(201).json({ certificate: { ...certificate, createdBy: "customer" } })
})
