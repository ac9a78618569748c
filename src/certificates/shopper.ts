// Shared pieces of the shopper certificate routes: who is asking (the verified actor of Medusa's
// `authenticate`, never the body), their per-customer budget, and who created each certificate.
// Another customer's certificate answers 404 exactly as an unknown one: nothing tells a stranger it exists.
import type { AuthenticatedMedusaRequest, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ILockingModule } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible"
import type { CertificateRecord } from "../service/contract"
import type { SalesTaxClient } from "../service/client"
import { SALES_TAX_MODULE } from "../constants"
import type { SalesTaxModuleService } from "../modules/sales-tax/service"
import { sendError } from "../http/answers"
import type { CertificateStanding } from "../checkout/exemptions/exemptions"
import { certificateStatus } from "../checkout/exemptions/certificate-rules"
import { reconcilePlaceholders } from "../service/exemptions/certificate-claims"
import { externalCertificatesMode, getPluginOptions } from "../options"
import { runtimeSlot } from "../runtime"

/** A certificate with what the store keeps about it (review, single-purchase use): withStanding. */
export type CertificateWithStanding = ReturnType<typeof withStanding<CertificateRecord>>

export interface AdminCertificatesResponse {
  customer: { id: string; name: string | null; email: string | null; companyName: string | null }
  certificates: CertificateWithStanding[]
}

export interface AdminCertificateResponse {
  certificate: CertificateRecord | CertificateWithStanding
}

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

const perMinute = SHOPPER_CERTIFICATE_RATE_LIMIT
const limiterOf = runtimeSlot(
  "shopperCertificateLimiter",
  () => new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: "shopper-certificates" }),
)

/**
 * The logged-in customer (401 otherwise) when the routes are open (403 sent otherwise) and the
 * request within their budget (429 with Retry-After sent past it); else null.
 */
export async function shopperOf(req: MedusaRequest, res: MedusaResponse): Promise<string | null> {
  const customerId = customerOf(req)
  if (!shopperCertificatesOpen(req, res)) return null
  try {
    await limiterOf().consume(customerId, 1)
    return customerId
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
    return null
  }
}

/** The plugin module's certificate-origin methods. */
export type OriginStore = Pick<
  SalesTaxModuleService,
  | "recordCertificateOrigin"
  | "certificateOrigins"
  | "reserveCertificate"
  | "settleReservation"
  | "dropReservation"
  | "markReservationLost"
  | "placeholders"
  | "adoptPlaceholder"
  | "reviewCertificate"
>

/** The customer's certificates at the service, active or disabled. */
export async function listCertificates(client: SalesTaxClient, customerId: string, disabled: boolean): Promise<CertificateRecord[]> {
  const out: CertificateRecord[] = []
  for await (const c of client.certificates({ customerId, disabled, limit: 100 })) out.push(c)
  return out
}

/** Active before disabled, most recent first. */
const newestActiveFirst = (list: CertificateRecord[]): CertificateRecord[] =>
  [...list].sort((a, b) => (!a.disabledAt !== !b.disabledAt ? (a.disabledAt ? 1 : -1) : b.createdDate.localeCompare(a.createdDate)))

/**
 * A customer's certificates at the service, active then disabled, most recent first, each with its
 * standing (withCreators); a submission whose answer was lost is adopted first when the service
 * shows it (pending, the customer's).
 */
export async function customerCertificates(scope: MedusaRequest["scope"], client: SalesTaxClient, customerId: string) {
  const all = [...(await listCertificates(client, customerId, false)), ...(await listCertificates(client, customerId, true))]
  const store = origins(scope)
  if (store) await underCustomerLock(scope, customerId, () => reconcileCustomer(store, customerId, all))
  return withCreators(scope, newestActiveFirst(all))
}

export function origins(scope: MedusaRequest["scope"]): OriginStore | null {
  try {
    return scope.resolve<OriginStore>(SALES_TAX_MODULE)
  } catch {
    return null // the plugin's module is not loaded (plugin not in `plugins`): origins are not kept
  }
}

/** Each certificate with who created it, its review, its single-purchase use and its status (withStanding). */
export async function withCreators<C extends CertificateRecord>(scope: MedusaRequest["scope"], list: C[]) {
  const by = (await origins(scope)?.certificateOrigins(list.map((c) => c.certificateId))) ?? {}
  const external = externalCertificatesMode(getPluginOptions(scope))
  return list.map((c) => withStanding(c, by[c.certificateId], external))
}

/**
 * Pure: a certificate with its standing (absent: made elsewhere, active or pending by `external`):
 * its status (certificateStatus) and review (null when made elsewhere: no review).
 */
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

/**
 * Whether the store's certificate routes are open (option `shopperCertificates` not "off");
 * answers 403 when they are not.
 */
export function shopperCertificatesOpen(req: MedusaRequest, res: MedusaResponse): boolean {
  if (getPluginOptions(req.scope).shopperCertificates !== "off") return true
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

/** Middleware: the routes answer 403 under `shopperCertificates: "off"` (after the login check, before any body check). */
export function shopperCertificatesGate(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  if (shopperCertificatesOpen(req, res)) next()
}

/**
 * Pure: how many certificates count against a customer's cap: those active at the service that
 * they submitted (pending or approved: not rejected, not used) or that the plugin did not make (no
 * row), plus submissions in flight or lost.
 */
export function shopperCertificateCount(
  active: readonly Pick<CertificateRecord, "certificateId" | "disabledAt">[],
  by: Record<string, CertificateStanding>,
  inFlight: number,
): number {
  const mine = active.filter((c) => {
    const st = by[c.certificateId]
    if (c.disabledAt) return false
    return !st || (st.createdBy === "customer" && st.reviewStatus !== "rejected" && !st.usedOrderId && !st.usedAt)
  })
  return mine.length + inFlight
}

/**
 * Runs `fn` holding the customer's certificate lock (Medusa's Locking Module: every instance):
 * the cap's count and the reservation, and the adoption of lost submissions, never interleave.
 */
export async function underCustomerLock<T>(scope: MedusaRequest["scope"], customerId: string, fn: () => Promise<T>): Promise<T> {
  const locking = scope.resolve<ILockingModule | undefined>(Modules.LOCKING, { allowUnregistered: true })
  if (!locking) return fn()
  return locking.execute(`sales-tax:certificates:customer:${customerId}`, fn, { timeout: 30 })
}

/**
 * Adopts the customer's lost submissions (call under underCustomerLock): each lost placeholder
 * becomes the row of one of `certs` (active, at the service) that has none, pending review;
 * placeholders the service never wrote are dropped once stale (certificate-claims.ts). Returns the
 * rows of `certs` as they now are and the placeholders left (submissions in flight or lost).
 */
export async function reconcileCustomer(
  store: OriginStore,
  customerId: string,
  certs: readonly CertificateRecord[],
): Promise<{ by: Record<string, CertificateStanding>; inFlight: number }> {
  const active = certs.filter((c) => !c.disabledAt && c.customerId === customerId)
  const ids = active.map((c) => c.certificateId)
  let by = await store.certificateOrigins(ids)
  let held = await store.placeholders(customerId)
  const plan = reconcilePlaceholders(
    held,
    active.filter((c) => !by[c.certificateId]),
    Date.now(),
  )
  if (plan.adopt.length || plan.drop.length) {
    for (const a of plan.adopt) await store.adoptPlaceholder(a.rowId, a.certificateId)
    for (const id of plan.drop) await store.dropReservation(id)
    by = await store.certificateOrigins(ids)
    held = await store.placeholders(customerId)
  }
  return { by, inFlight: held.length }
}
