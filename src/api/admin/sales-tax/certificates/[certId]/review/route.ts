import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import type { AdminCertificateResponse } from "../../../../../../http/types"
import { checkParam } from "../../../../../../http/id-shapes"
import { handle, sendError, sendZodError } from "../../../../../../http/answers"
import { adminConnection } from "../../../../../../http/connection-query"
import { invalidateCustomerCertificates } from "../../../../../../checkout/exemptions/exemptions"
import { origins, withStanding } from "../../../../../../certificates/shopper"

/** Any other field: refused at its own location (`body.<field>`), not as an unknown key of the whole body. */
const notAField = z.unknown().refine(() => false, { error: "not a field of this request" })

/** POST /admin/sales-tax/certificates/:certId/review: approve, or reject with the reason the shopper sees. */
export const AdminReviewCertificateBody = z.discriminatedUnion(
  "decision",
  [
    z.object({ decision: z.literal("approve") }).catchall(notAField),
    z
      .object({
        decision: z.literal("reject"),
        reason: z
          .string({ error: "reason is required when rejecting (the customer sees it)" })
          .trim()
          .min(1, "reason is required when rejecting (the customer sees it)")
          .max(500, "reason must be at most 500 characters"),
      })
      .catchall(notAField),
  ],
  { error: 'decision must be "approve" or "reject"' },
)

/**
 * POST /admin/sales-tax/certificates/:certId/review[?connection_id=] { decision: "approve" } or
 * { decision: "reject", reason }: staff review a certificate. Approved, it exempts from
 * the customer's next cart refresh; rejected, it is disabled at the service too (it can never
 * exempt) and the customer sees the reason in their list. A disabled certificate cannot be
 * approved (422).
 */
export const POST = handle(async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const id = req.params.certId!
  const bad = checkParam("certId", id, "certificate")
  if (bad) return sendError(res, 400, MedusaError.Types.INVALID_DATA, `Invalid request: ${bad.message}`, [bad])
  const parsed = AdminReviewCertificateBody.safeParse(req.body ?? {})
  if (!parsed.success) return sendZodError(res, parsed.error, req.body)
  const conn = adminConnection(req, res)
  if (!conn) return
  const store = origins(req.scope)
  if (!store) {
    return sendError(
      res,
      503,
      MedusaError.Types.UNEXPECTED_STATE,
      "Certificate review needs the sales-tax plugin's module, which is not loaded",
    )
  }
  const { client } = conn
  let certificate = await client.getCertificate(id)
  const approve = parsed.data.decision === "approve"
  if (approve && certificate.disabledAt) {
    return sendError(
      res,
      422,
      MedusaError.Types.NOT_ALLOWED,
      `Certificate ${id} is disabled at the service (since ${certificate.disabledAt}): it cannot be approved`,
      [{ location: "path.certId", message: "the certificate is disabled", value: id }],
    )
  }
  if (!approve && !certificate.disabledAt) {
    await client.disableCertificate(id)
    certificate = await client.getCertificate(id)
  }
  const standing = await store.reviewCertificate({
    certificateId: id,
    customerId: certificate.customerId,
    status: approve ? "approved" : "rejected",
    reason: parsed.data.decision === "reject" ? parsed.data.reason : null,
    actorId: req.auth_context?.actor_id ?? null,
  })
  // the customer's next cart refresh sees it (every instance)
  await invalidateCustomerCertificates(certificate.customerId, req.scope)
  const out: AdminCertificateResponse = { certificate: withStanding(certificate, standing) }
  res.json(out)
})
