// The logged-in customer's own exemption certificates (/store/sales-tax/certificates): listed, and submitted.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { CertificateRecord } from "../service/contract"
import { invalidateCustomerCertificates } from "../checkout/exemptions/exemptions"
import { SHOPPER_CERTIFICATE_CAP } from "../checkout/exemptions/certificate-rules"
import { createMayHaveWritten } from "../service/exemptions/certificate-claims"
import { isSalesTaxError } from "../service/client"
import { getPluginOptions } from "../options"
import { bodyOf, notFound, sendError, storeClient } from "../http/answers"
import { AdminCreateCertificateBody } from "./body"
import {
  customerCertificates,
  listCertificates,
  origins,
  reconcileCustomer,
  shopperCertificateCount,
  underCustomerLock,
  withCreators,
  shopperOf,
  withStanding,
} from "./shopper"

/**
 * GET /store/sales-tax/certificates: the logged-in customer's own exemption certificates at the
 * service, active first, then withdrawn (disabled), most recent first; each with its `status`
 * (pending review, active, rejected with `review.rejectionReason`, used by its single purchase,
 * disabled). A submission whose answer was lost is adopted here when the service shows it (pending).
 */
export async function listMine(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const customerId = await shopperOf(req, res)
  if (!customerId) return
  res.json({ certificates: await customerCertificates(req.scope, storeClient(req), customerId) })
}

/**
 * POST /store/sales-tax/certificates: the logged-in customer submits an exemption certificate
 * (the admin form's body: customerName, address, reason, customerBusinessType, states with their
 * identification numbers, …). Created at the service for this customer; under
 * `shopperCertificates: "review"` (the default) it is pending and exempts nothing until staff
 * approve it in the customer widget; under "immediate" it applies from the next cart refresh.
 * At most SHOPPER_CERTIFICATE_CAP of the customer's own submissions (and certificates the plugin did
 * not make) active or pending: 422 beyond; counted and reserved under the customer's lock. When the
 * service's answer is lost (5xx, timeout, dropped connection) the submission stays pending (its
 * placeholder kept, adopted when the certificate is seen): 503 `sales_tax_certificate_unconfirmed`.
 */
export async function submit(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const customerId = await shopperOf(req, res)
  if (!customerId) return
  const body = bodyOf(req, AdminCreateCertificateBody)
  const mode = getPluginOptions(req.scope).shopperCertificates
  const store = origins(req.scope)
  if (!store) {
    // without the plugin's module no review can be kept: a submission could never be told from staff's
    return sendError(
      res,
      503,
      MedusaError.Types.UNEXPECTED_STATE,
      "Certificates cannot be submitted from the storefront right now (the sales-tax plugin's module is not loaded)",
      undefined,
      "sales_tax_certificate_review_unavailable",
    )
  }
  const client = storeClient(req)
  // the cap: counted and reserved under the customer's lock (concurrent submissions queue here); a
  // pending row first: until it names the new certificate, none of this customer's certificates
  // without a row exempts (the provider sees the reservation)
  const held = await underCustomerLock(req.scope, customerId, async () => {
    const active = await listCertificates(client, customerId, false)
    const { by, inFlight } = await reconcileCustomer(store, customerId, active)
    const count = shopperCertificateCount(active, by, inFlight)
    return { count, reservation: count >= SHOPPER_CERTIFICATE_CAP ? null : await store.reserveCertificate(customerId, customerId) }
  })
  const { count, reservation } = held
  if (reservation === null) {
    return sendError(
      res,
      422,
      MedusaError.Types.NOT_ALLOWED,
      `You have ${count} exemption certificates active or awaiting review (at most ${SHOPPER_CERTIFICATE_CAP}); withdraw one before submitting another`,
      [
        {
          location: "body",
          message: `at most ${SHOPPER_CERTIFICATE_CAP} certificates active or awaiting review per customer`,
          value: count,
        },
      ],
      "sales_tax_certificate_limit",
    )
  }
  let certificate: CertificateRecord
  try {
    certificate = await client.createCertificate({ ...body, customerId })
  } catch (e) {
    // refused: nothing was written, the reservation goes; answer lost: it stays, pending (never
    // "made elsewhere"), until the customer's list shows the certificate (reconcileCustomer)
    if (!createMayHaveWritten(e)) {
      await store.dropReservation(reservation).catch(() => undefined)
      throw e
    }
    await store.markReservationLost(reservation).catch(() => undefined)
    return sendError(
      res,
      503,
      MedusaError.Types.UNEXPECTED_STATE,
      "The certificate service did not confirm your submission. It may have been received: if so it shows in your certificates, awaiting review. Check them before submitting again.",
      undefined,
      "sales_tax_certificate_unconfirmed",
    )
  }
  const status = mode === "immediate" ? "approved" : "pending"
  try {
    await store.settleReservation(reservation, certificate.certificateId, status)
  } catch (e) {
    // the row could not name it: the certificate must not stay at the service unreviewed
    await client.disableCertificate(certificate.certificateId).catch(() => undefined)
    throw e
  }
  await invalidateCustomerCertificates(customerId, req.scope)
  const standing = (await store.certificateOrigins([certificate.certificateId]))[certificate.certificateId]
  res.status(201).json({ certificate: withStanding(certificate, standing) })
}

/**
 * DELETE /store/sales-tax/certificates/:certId: the customer withdraws one of their own (disabled
 * at the service, kept); it stops exempting from the next cart refresh. Another customer's, or an
 * unknown one, answers 404 alike. A sale already filed under it stays filed as charged.
 */
export async function withdraw(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const customerId = await shopperOf(req, res)
  if (!customerId) return
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
}
