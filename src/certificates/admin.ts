// Staff's side of the exemption certificates (the customer widget): a customer's certificates on
// a connection, a new one for them, and the review of a shopper's submission.
import type { AuthenticatedMedusaRequest, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { adminConnection, bodyOf, notFound, sendError } from "../http/answers"
import { notAField } from "../http/validate"
import { graph } from "../query"
import { invalidateCustomerCertificates } from "../checkout/exemptions/exemptions"
import { AdminCreateCertificateBody } from "./body"
import {
  customerCertificates,
  origins,
  originsOr503,
  type AdminCertificateResponse,
  type AdminCertificatesResponse,
  withStanding,
} from "./shopper"

async function loadCustomer(scope: MedusaRequest["scope"], id: string): Promise<AdminCertificatesResponse["customer"] | null> {
  type Row = { id: string; email?: string | null; first_name?: string | null; last_name?: string | null; company_name?: string | null }
  const fields = ["id", "email", "first_name", "last_name", "company_name"]
  const [c] = await graph<Row>(scope, { entity: "customer", fields, filters: { id } })
  if (!c) return null
  const name = [c.first_name, c.last_name].filter(Boolean).join(" ") || null
  return { id: c.id, name, email: c.email ?? null, companyName: c.company_name ?? null }
}

/** GET /admin/sales-tax/customers/:id/certificates[?connection_id=]: the customer's certificates, with their standing. */
export async function listForCustomer(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const id = req.params.id!
  const conn = adminConnection(req, res)
  if (!conn) return
  const customer = await loadCustomer(req.scope, id)
  if (!customer) return notFound(res, "Customer", id)
  res.json({ customer, certificates: await customerCertificates(req.scope, conn.client, id) } satisfies AdminCertificatesResponse)
}

/** POST /admin/sales-tax/customers/:id/certificates[?connection_id=]: creates a certificate for the customer on that connection. */
export async function createForCustomer(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const id = req.params.id!
  const conn = adminConnection(req, res)
  if (!conn) return
  const body = bodyOf(req, AdminCreateCertificateBody)
  if (!(await loadCustomer(req.scope, id))) return notFound(res, "Customer", id)
  const certificate = await conn.client.createCertificate({ ...body, customerId: id })
  const actorId = req.auth_context?.actor_id ?? null
  await origins(req.scope)?.recordStaffCertificate(certificate.certificateId, id, { actor_id: actorId })
  // it applies from the customer's next cart refresh (every instance)
  await invalidateCustomerCertificates(id, req.scope)
  res.status(201).json({ certificate } satisfies AdminCertificateResponse)
}

const reasonRequired = "reason is required when rejecting (the customer sees it)"
const RejectionReason = z.string({ error: reasonRequired }).trim().min(1, reasonRequired).max(500, "reason must be at most 500 characters")

export const AdminReviewCertificateBody = z.discriminatedUnion(
  "decision",
  [
    z.object({ decision: z.literal("approve") }).catchall(notAField),
    z.object({ decision: z.literal("reject"), reason: RejectionReason }).catchall(notAField),
  ],
  { error: 'decision must be "approve" or "reject"' },
)

/**
 * POST /admin/sales-tax/certificates/:certId/review[?connection_id=]: approved, a certificate exempts from the next
 * cart refresh; rejected, it is disabled at the service too (it can never exempt) and the customer sees the reason. A
 * disabled one cannot be approved.
 */
export async function review(req: AuthenticatedMedusaRequest, res: MedusaResponse): Promise<void> {
  const id = req.params.certId!
  const body = bodyOf(req, AdminReviewCertificateBody)
  const conn = adminConnection(req, res)
  if (!conn) return
  const store = originsOr503(req, res, "Certificate review needs the sales-tax plugin's module, which is not loaded")
  if (!store) return
  const { client } = conn
  let certificate = await client.getCertificate(id)
  const approve = body.decision === "approve"
  if (approve && certificate.disabledAt) {
    const message = `Certificate ${id} is disabled at the service (since ${certificate.disabledAt}): it cannot be approved`
    return sendError(res, 422, MedusaError.Types.NOT_ALLOWED, message, [
      { location: "path.certId", message: "the certificate is disabled", value: id },
    ])
  }
  if (!approve && !certificate.disabledAt) {
    await client.disableCertificate(id)
    certificate = await client.getCertificate(id)
  }
  const standing = await store.reviewCertificate({
    certificateId: id,
    customerId: certificate.customerId,
    status: approve ? "approved" : "rejected",
    reason: body.decision === "reject" ? body.reason : null,
    actorId: req.auth_context?.actor_id ?? null,
  })
  await invalidateCustomerCertificates(certificate.customerId, req.scope)
  res.json({ certificate: withStanding(certificate, standing) } satisfies AdminCertificateResponse)
}

/** GET /admin/sales-tax/certificates/:certId[?connection_id=]: one certificate from the service, on that connection. */
export async function getOne(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const conn = adminConnection(req, res)
  if (!conn) return
  res.json({ certificate: await conn.client.getCertificate(req.params.certId!) } satisfies AdminCertificateResponse)
}

/** DELETE /admin/sales-tax/certificates/:certId[?connection_id=]: disabled at the service (kept, with disabledAt), answered as it now is. */
export async function disable(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const conn = adminConnection(req, res)
  if (!conn) return
  const id = req.params.certId!
  await conn.client.disableCertificate(id)
  const certificate = await conn.client.getCertificate(id)
  await invalidateCustomerCertificates(certificate.customerId, req.scope)
  res.json({ certificate } satisfies AdminCertificateResponse)
}
