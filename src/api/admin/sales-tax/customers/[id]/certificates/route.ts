import type { AuthenticatedMedusaRequest, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { CertificateRecord } from "../../../../../../service/contract"
import type { AdminCertificateResponse, AdminCertificatesResponse } from "../../../../../../http/types"
import { bodyOf, handle, notFound } from "../../../../../../http/answers"
import { adminConnection } from "../../../../../../http/connection-query"
import { queryOf } from "../../../../../../query"
import { AdminCreateCertificateBody } from "../../../../../../certificates/body"
import { invalidateCustomerCertificates } from "../../../../../../checkout/exemptions/exemptions"
import { origins, reconcileCustomer, recordOrigin, underCustomerLock, withCreators } from "../../../../../../certificates/shopper"

type Scope = MedusaRequest["scope"]

async function loadCustomer(scope: Scope, id: string): Promise<AdminCertificatesResponse["customer"] | null> {
  const { data } = await queryOf(scope).graph({
    entity: "customer",
    fields: ["id", "email", "first_name", "last_name", "company_name"],
    filters: { id },
  })
  const c = data[0] as
    { id: string; email?: string | null; first_name?: string | null; last_name?: string | null; company_name?: string | null } | undefined
  if (!c) return null
  const name = [c.first_name, c.last_name].filter(Boolean).join(" ") || null
  return { id: c.id, name, email: c.email ?? null, companyName: c.company_name ?? null }
}

/** Most recent first; active before disabled. */
function order(list: CertificateRecord[]): CertificateRecord[] {
  return [...list].sort((a, b) => {
    if (!a.disabledAt !== !b.disabledAt) return a.disabledAt ? 1 : -1
    return b.createdDate.localeCompare(a.createdDate)
  })
}

/**
 * GET /admin/sales-tax/customers/:id/certificates[?connection_id=]: the customer's exemption
 * certificates at the service (customerId = the Medusa customer id), active and disabled, on the
 * connection named (default: the default connection). A shopper's submission whose answer was
 * lost is adopted here when the service shows it (pending, the customer's).
 */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const id = req.params.id!
  const conn = adminConnection(req, res)
  if (!conn) return
  const customer = await loadCustomer(req.scope, id)
  if (!customer) return notFound(res, "Customer", id)
  const { client } = conn
  const all: CertificateRecord[] = []
  for (const disabled of [false, true]) {
    for await (const c of client.certificates({ customerId: id, disabled, limit: 100 })) all.push(c)
  }
  const store = origins(req.scope)
  if (store) await underCustomerLock(req.scope, id, () => reconcileCustomer(store, id, all))
  // with who created each one through this store ("customer" from the storefront, "staff" here)
  const out: AdminCertificatesResponse = { customer, certificates: await withCreators(req.scope, order(all)) }
  res.json(out)
})

/**
 * POST /admin/sales-tax/customers/:id/certificates[?connection_id=]: creates a certificate for the
 * customer on that connection (body = the service's request without customerId).
 */
export const POST = handle(async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const id = req.params.id!
  const conn = adminConnection(req, res)
  if (!conn) return
  const body = bodyOf(req, AdminCreateCertificateBody)
  if (!(await loadCustomer(req.scope, id))) return notFound(res, "Customer", id)
  const certificate = await conn.client.createCertificate({ ...body, customerId: id })
  const staff = req.auth_context?.actor_id ?? null
  await recordOrigin(req.scope, { certificateId: certificate.certificateId, customerId: id, createdBy: "staff", actorId: staff })
  // the new certificate applies from the customer's next cart refresh (every instance)
  await invalidateCustomerCertificates(id, req.scope)
  const out: AdminCertificateResponse = { certificate }
  res.status(201).json(out)
})
