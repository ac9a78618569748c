// Shared pieces of the shopper certificate routes (/store/sales-tax/certificates*): who is asking,
// their per-customer budget, and who created each certificate.
//
// Identity: Medusa's `authenticate("customer", ["session", "bearer"])` runs first (middlewares.ts),
// so `req.auth_context` is verified; the customer is its actor_id and nothing the body says. A
// certificate is the caller's when the service's record names that customer id; any other id
// answers 404, exactly as an unknown one (nothing tells a stranger that a certificate exists).
import type { AuthenticatedMedusaRequest, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible"
import type { CertificateRecord } from "../../../../service/contract"
import { SALES_TAX_MODULE } from "../../../../modules/sales-tax"
import type { CertificateCreator } from "../../../../modules/sales-tax/service"
import { pluginOptions, sendError } from "../../../admin/sales-tax/helpers"
import type { CertificateStanding, ReviewStatus } from "../../../../checkout/exemptions/exemptions"
import { certificateStatus } from "../../../../checkout/exemptions/certificate-rules"
import type { CertificateWithStanding } from "../../../types"

/** Requests a customer may make to the certificate routes per minute (all methods together). */
export const SHOPPER_CERTIFICATE_RATE_LIMIT = 20

/** The authenticated customer's id (the route's middleware guarantees one). */
export function customerOf(req: MedusaRequest): string {
  // set by Medusa's authenticate middleware on the route (AuthenticatedMedusaRequest)
  const a = (req as MedusaRequest & Partial<Pick<AuthenticatedMedusaRequest, "auth_context">>).auth_context
  if (a?.actor_type !== "customer" || !a.actor_id) {
    throw new MedusaError(MedusaError.Types.UNAUTHORIZED, "Log in as a customer to manage exemption certificates")
  }
  return a.actor_id
}

const limiters = new Map<number, RateLimiterMemory>()

/** Takes one request from the customer's budget; false (and a 429 with Retry-After sent) past it. */
export async function withinBudget(res: MedusaResponse, customerId: string, perMinute = SHOPPER_CERTIFICATE_RATE_LIMIT): Promise<boolean> {
  let limiter = limiters.get(perMinute)
  if (!limiter) {
    limiter = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: "shopper-certificates" })
    limiters.set(perMinute, limiter)
  }
  try {
    await limiter.consume(customerId, 1)
    return true
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e
    const wait = Math.max(1, Math.ceil(e.msBeforeNext / 1000))
    res.setHeader("Retry-After", String(wait))
    sendError(
      res,
      429,
      "too_many_requests",
      `Too many certificate requests (at most ${perMinute} a minute); try again in ${wait} s`,
      undefined,
      "sales_tax_rate_limited",
    )
    return false
  }
}

/** The plugin module's certificate-origin methods (modules/sales-tax/service.ts). */
export interface OriginStore {
  recordCertificateOrigin(o: {
    certificateId: string
    customerId: string
    createdBy: CertificateCreator
    actorId: string | null
    reviewStatus?: ReviewStatus
  }): Promise<void>
  certificateOrigins(ids: string[]): Promise<Record<string, CertificateStanding>>
  reserveCertificate(customerId: string, actorId: string | null): Promise<string>
  settleReservation(rowId: string, certificateId: string, reviewStatus: ReviewStatus): Promise<void>
  dropReservation(rowId: string): Promise<void>
  reservedCount(customerId: string): Promise<number>
  reviewCertificate(r: {
    certificateId: string
    customerId: string
    status: "approved" | "rejected"
    reason: string | null
    actorId: string | null
  }): Promise<CertificateStanding>
}

export function origins(scope: MedusaRequest["scope"]): OriginStore | null {
  try {
    return scope.resolve<OriginStore>(SALES_TAX_MODULE)
  } catch {
    return null // the plugin's module is not loaded (plugin not in `plugins`): origins are not kept
  }
}

export async function recordOrigin(
  scope: MedusaRequest["scope"],
  o: { certificateId: string; customerId: string; createdBy: CertificateCreator; actorId: string | null; reviewStatus?: ReviewStatus },
): Promise<void> {
  await origins(scope)?.recordCertificateOrigin(o)
}

/** Each certificate with who created it, its review, its single-purchase use and its status (CertificateWithStanding). */
export async function withCreators<C extends CertificateRecord>(
  scope: MedusaRequest["scope"],
  list: C[],
): Promise<(C & Omit<CertificateWithStanding, keyof CertificateRecord>)[]> {
  const by = (await origins(scope)?.certificateOrigins(list.map((c) => c.certificateId))) ?? {}
  return list.map((c) => withStanding(c, by[c.certificateId]))
}

/** Pure: a certificate with its standing (absent: made elsewhere). */
export function withStanding<C extends CertificateRecord>(
  c: C,
  st: CertificateStanding | undefined,
): C & Omit<CertificateWithStanding, keyof CertificateRecord> {
  return {
    ...c,
    createdBy: st?.createdBy ?? null,
    status: certificateStatus(c, st),
    review: st ? { status: st.reviewStatus, rejectionReason: st.rejectionReason, reviewedAt: st.reviewedAt } : null,
    usedByOrderId: st?.usedOrderId ?? null,
    usedAt: st?.usedAt ?? null,
  }
}

/**
 * Whether the store's certificate routes are open (option `shopperCertificates` not "off");
 * answers 403 when they are not.
 */
export function shopperCertificatesOpen(req: MedusaRequest, res: MedusaResponse): boolean {
  if (pluginOptions(req.scope).shopperCertificates !== "off") return true
  sendError(
    res,
    403,
    MedusaError.Types.NOT_ALLOWED,
    "This store does not take exemption certificates from the storefront; contact the store to have one added to your account",
    undefined,
    "sales_tax_shopper_certificates_off",
  )
  return false
}

/**
 * Pure: how many certificates count against a customer's cap: their own submissions that are
 * active at the service and pending or approved (not rejected, not used), plus submissions in flight.
 */
export function shopperCertificateCount(
  active: readonly Pick<CertificateRecord, "certificateId" | "disabledAt">[],
  by: Record<string, CertificateStanding>,
  inFlight: number,
): number {
  const mine = active.filter((c) => {
    const st = by[c.certificateId]
    return !c.disabledAt && st?.createdBy === "customer" && st.reviewStatus !== "rejected" && !st.usedOrderId
  })
  return mine.length + inFlight
}
