// The logged-in customer's own exemption certificates (/store/sales-tax/certificates), and what the admin's routes
// share: who is asking (the verified actor of Medusa's `authenticate`, never the body), their budget, each one's standing.
import type { AuthenticatedMedusaRequest, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ILockingModule } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible"
import type { CertificateRecord } from "../../packages/contract/src/index"
import { isSalesTaxError, type SalesTaxClient } from "../service/client"
import { SALES_TAX_MODULE } from "../constants"
import type { SalesTaxModuleService } from "../modules/sales-tax/service"
import { bodyOf, notFound, sendError, storeClient } from "../http/answers"
import { invalidateCustomerCertificates } from "../checkout/exemptions/exemptions"
import { certificateStatus, SHOPPER_CERTIFICATE_CAP } from "../checkout/exemptions/certificate-rules"
import { createMayHaveWritten, reconcilePlaceholders, type CertificateStanding } from "../service/exemptions/certificate-claims"
import { AdminCreateCertificateBody } from "./body"
import { externalCertificatesMode, getPluginOptions } from "../options"
import { runtimeSlot } from "../runtime"

type CertificateWithStanding = ReturnType<typeof withStanding<CertificateRecord>>

export interface AdminCertificatesResponse {
  customer: { id: string; name: string | null; email: string | null; companyName: string | null }
  certificates: CertificateWithStanding[]
}

export interface AdminCertificateResponse {
  certificate: CertificateRecord | CertificateWithStanding
}

/** Requests a customer may make to the certificate routes per minute (all methods together). */
export const SHOPPER_CERTIFICATE_RATE_LIMIT = 20

const limits = { points: SHOPPER_CERTIFICATE_RATE_LIMIT, duration: 60, keyPrefix: "shopper-certificates" }
const limiterOf = runtimeSlot("shopperCertificateLimiter", () => new RateLimiterMemory(limits))

/**
 * The logged-in customer (401 thrown otherwise) within their budget (429); else null. Under `shopperCertificates: "off"`
 * the route middleware answered 403 before (shopperCertificatesGate, the only place that enforces it).
 */
async function shopperOf(req: MedusaRequest, res: MedusaResponse): Promise<string | null> {
  // set by Medusa's authenticate middleware on the route
  const a = (req as MedusaRequest & Partial<Pick<AuthenticatedMedusaRequest, "auth_context">>).auth_context
  if (a?.actor_type !== "customer" || !a.actor_id) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Log in as a customer to manage exemption certificates")
  }
  const customerId = a.actor_id
  try {
    await limiterOf().consume(customerId, 1)
    return customerId
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e
    const wait = Math.max(1, Math.ceil(e.msBeforeNext / 1000))
    res.setHeader("Retry-After", String(wait))
    const message = `Too many certificate requests (at most ${SHOPPER_CERTIFICATE_RATE_LIMIT} a minute); try again in ${wait} s`
    sendError(res, 429, "too_many_requests", message, undefined, "sales_tax_rate_limited")
    return null
  }
}

async function listCertificates(client: SalesTaxClient, customerId: string, disabled: boolean): Promise<CertificateRecord[]> {
  const out: CertificateRecord[] = []
  for await (const c of client.certificates({ customerId, disabled, limit: 100 })) out.push(c)
  return out
}

const newestActiveFirst = (list: CertificateRecord[]): CertificateRecord[] =>
  [...list].sort((a, b) => (!a.disabledAt !== !b.disabledAt ? (a.disabledAt ? 1 : -1) : b.createdDate.localeCompare(a.createdDate)))

/** A customer's certificates, newest active first, with their standing; lost submissions the service shows are adopted first (pending). */
export async function customerCertificates(scope: MedusaRequest["scope"], client: SalesTaxClient, customerId: string) {
  const all = [...(await listCertificates(client, customerId, false)), ...(await listCertificates(client, customerId, true))]
  const store = origins(scope)
  if (store) await underCustomerLock(scope, customerId, () => reconcileCustomer(store, customerId, all))
  return withCreators(scope, newestActiveFirst(all))
}

export function origins(scope: MedusaRequest["scope"]): SalesTaxModuleService | null {
  try {
    return scope.resolve<SalesTaxModuleService>(SALES_TAX_MODULE)
  } catch {
    return null // the plugin's module is not loaded (plugin not in `plugins`): origins are not kept
  }
}

/** The salesTax module, or null once answered 503 with `message`: without it no review can be kept. */
export function originsOr503(req: MedusaRequest, res: MedusaResponse, message: string, code?: string): SalesTaxModuleService | null {
  const store = origins(req.scope)
  if (!store) sendError(res, 503, MedusaError.Types.UNEXPECTED_STATE, message, undefined, code)
  return store
}

async function withCreators<C extends CertificateRecord>(scope: MedusaRequest["scope"], list: C[]) {
  const by = (await origins(scope)?.certificateOrigins(list.map((c) => c.certificateId))) ?? {}
  const external = externalCertificatesMode(getPluginOptions(scope))
  return list.map((c) => withStanding(c, by[c.certificateId], external))
}

/** Pure: a certificate with who created it, its status, review (null: made elsewhere) and single-purchase use. */
export function withStanding<C extends CertificateRecord>(
  c: C,
  st: CertificateStanding | undefined,
  external: "exempt" | "review" = "exempt",
) {
  return {
    ...c,
    createdBy: st?.createdBy ?? null,
    status: certificateStatus(c, st, external),
    review: st ? { status: st.reviewStatus, rejectionReason: st.rejectionReason, reviewedAt: st.reviewedAt } : null,
    usedByOrderId: st?.usedOrderId ?? null,
    usedAt: st?.usedAt ?? null,
  }
}

/** Middleware: 403 under `shopperCertificates: "off"` (after the login check, before any body check). */
export function shopperCertificatesGate(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  if (getPluginOptions(req.scope).shopperCertificates !== "off") return next()
  const message = "This store does not take exemption certificates from the storefront; contact the store to have one added to your account"
  sendError(res, 403, MedusaError.Types.NOT_ALLOWED, message, undefined, "sales_tax_shopper_certificates_off")
}

/** Pure: the count against the cap: active certificates they submitted (not rejected nor used) or made elsewhere, and placeholders. */
export function shopperCertificateCount(
  active: readonly Pick<CertificateRecord, "certificateId" | "disabledAt">[],
  by: Record<string, CertificateStanding>,
  inFlight: number,
): number {
  const mine = active.filter((c) => {
    const st = by[c.certificateId]
    return !c.disabledAt && (!st || (st.createdBy === "customer" && st.reviewStatus !== "rejected" && !st.usedOrderId && !st.usedAt))
  })
  return mine.length + inFlight
}

/** Runs `fn` under the customer's certificate lock (every instance): the cap's count, reservations and adoptions never interleave. */
async function underCustomerLock<T>(scope: MedusaRequest["scope"], customerId: string, fn: () => Promise<T>): Promise<T> {
  const locking = scope.resolve<ILockingModule | undefined>(Modules.LOCKING, { allowUnregistered: true })
  if (!locking) return fn()
  return locking.execute(`sales-tax:certificates:customer:${customerId}`, fn, { timeout: 30 })
}

/**
 * Under underCustomerLock: lost placeholders become rows of `certs` without one (pending), stale ones
 * are dropped (certificate-claims.ts). Answers the rows of `certs` and how many placeholders are left.
 */
async function reconcileCustomer(
  store: SalesTaxModuleService,
  customerId: string,
  certs: readonly CertificateRecord[],
): Promise<{ by: Record<string, CertificateStanding>; inFlight: number }> {
  const active = certs.filter((c) => !c.disabledAt && c.customerId === customerId)
  const ids = active.map((c) => c.certificateId)
  let by = await store.certificateOrigins(ids)
  let held = await store.placeholders(customerId)
  const rowless = active.filter((c) => !by[c.certificateId])
  const plan = reconcilePlaceholders(held, rowless, Date.now())
  if (plan.adopt.length || plan.drop.length) {
    for (const a of plan.adopt) await store.adoptPlaceholder(a.rowId, a.certificateId)
    for (const id of plan.drop) await store.deleteCertificateOrigins([id])
    by = await store.certificateOrigins(ids)
    held = await store.placeholders(customerId)
  }
  return { by, inFlight: held.length }
}

/** GET /store/sales-tax/certificates: the logged-in customer's own certificates, each with its `status` (customerCertificates). */
export async function listMine(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const customerId = await shopperOf(req, res)
  if (!customerId) return
  res.json({ certificates: await customerCertificates(req.scope, storeClient(req), customerId) })
}

/**
 * POST /store/sales-tax/certificates (the admin form's body): under `shopperCertificates: "review"` (the default) the
 * certificate exempts nothing until staff approve it; under "immediate" from the next cart refresh. 422 past the cap;
 * 503 when the service's answer is lost (the submission stays pending, adopted once the service shows it).
 */
export async function submit(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const customerId = await shopperOf(req, res)
  if (!customerId) return
  const body = bodyOf(req, AdminCreateCertificateBody)
  // without the plugin's module a submission could never be told from staff's
  const unavailable = "Certificates cannot be submitted from the storefront right now (the sales-tax plugin's module is not loaded)"
  const store = originsOr503(req, res, unavailable, "sales_tax_certificate_review_unavailable")
  if (!store) return
  const client = storeClient(req)
  // counted and reserved under the lock; while the pending row names no certificate, none of the
  // customer's certificates without a row exempts (the provider sees the reservation)
  const { count, reservation } = await underCustomerLock(req.scope, customerId, async () => {
    const active = await listCertificates(client, customerId, false)
    const { by, inFlight } = await reconcileCustomer(store, customerId, active)
    const count = shopperCertificateCount(active, by, inFlight)
    return { count, reservation: count >= SHOPPER_CERTIFICATE_CAP ? null : await store.reserveCertificate(customerId) }
  })
  if (reservation === null) {
    const message = `You have ${count} exemption certificates active or awaiting review (at most ${SHOPPER_CERTIFICATE_CAP}); withdraw one before submitting another`
    const error = {
      location: "body",
      message: `at most ${SHOPPER_CERTIFICATE_CAP} certificates active or awaiting review per customer`,
      value: count,
    }
    return sendError(res, 422, MedusaError.Types.NOT_ALLOWED, message, [error], "sales_tax_certificate_limit")
  }
  let certificate: CertificateRecord
  try {
    certificate = await client.createCertificate({ ...body, customerId })
  } catch (e) {
    // refused: nothing was written, the reservation goes; answer lost: it stays, pending (never
    // "made elsewhere"), until the customer's list shows the certificate (reconcileCustomer)
    if (!createMayHaveWritten(e)) {
      await store.deleteCertificateOrigins([reservation]).catch(() => undefined)
      throw e
    }
    await store.markReservationLost(reservation).catch(() => undefined)
    const message =
      "The certificate service did not confirm your submission. It may have been received: if so it shows in your certificates, awaiting review. Check them before submitting again."
    return sendError(res, 503, MedusaError.Types.UNEXPECTED_STATE, message, undefined, "sales_tax_certificate_unconfirmed")
  }
  const status = getPluginOptions(req.scope).shopperCertificates === "immediate" ? "approved" : "pending"
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
 * DELETE /store/sales-tax/certificates/:certId: withdraws (disables) one of their own; another's answers 404 as an unknown one
 * (nothing tells a stranger it exists). A sale already filed under it stays filed as charged.
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
