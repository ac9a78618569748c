// Pure decisions on shopper submissions whose answer was lost, on certificates the plugin did not
// make, and on single-purchase certificates claimed by one cart at completion.

export type ReviewStatus = "pending" | "approved" | "rejected"

/** What the store keeps about a certificate made through it (the certificate-origin row). */
export interface CertificateStanding {
  createdBy: "customer" | "staff"
  reviewStatus: ReviewStatus
  rejectionReason: string | null
  reviewedAt: string | null
  usedOrderId: string | null
  usedAt: string | null
  /** the cart that claimed this single-purchase certificate at completion (below) */
  claimedCartId?: string | null
  claimedAt?: string | null
}

/** A customer's submission in flight: a placeholder row made before the service call. */
export const RESERVED_PREFIX = "reserved:"
/** A submission whose answer was lost: the service may hold the certificate (adopted when seen). */
export const LOST_PREFIX = "lost:"
/** A placeholder older than this is no longer in flight: adopted when an unknown certificate is seen, else dropped. */
export const PLACEHOLDER_STALE_MS = 15 * 60_000
/** A claim by a cart that has not become an order may be taken over after this (its completion failed). */
export const CLAIM_HOLD_MS = 15 * 60_000

/** Pure: whether a row is a placeholder (in flight or lost), not a certificate's. */
export function isPlaceholder(certificateId: string): boolean {
  return certificateId.startsWith(RESERVED_PREFIX) || certificateId.startsWith(LOST_PREFIX)
}

/** Pure: whether a failed create may have written the certificate: only a 4xx (but 408) or an unsent request proves not. */
export function createMayHaveWritten(e: unknown): boolean {
  const err = e as { name?: unknown; code?: unknown; status?: unknown } | null
  if (err?.name !== "SalesTaxError") return true
  if (err.code === "validation") return false
  return !(err.code === "http" && typeof err.status === "number" && err.status >= 400 && err.status < 500 && err.status !== 408)
}

export interface PlaceholderRow {
  id: string
  certificateId: string
  createdAt: Date
}

/**
 * Pure: each lost (or stale in-flight) placeholder adopts one certificate the store has no row for, oldest
 * first, as a pending submission; a stale one left without is dropped (the service never wrote it).
 */
export function reconcilePlaceholders(
  placeholders: readonly PlaceholderRow[],
  unknown: readonly { certificateId: string; createdDate: string }[],
  now: number,
): { adopt: { rowId: string; certificateId: string }[]; drop: string[] } {
  const stale = (p: PlaceholderRow) => now - p.createdAt.getTime() >= PLACEHOLDER_STALE_MS
  const open = placeholders
    .filter((p) => p.certificateId.startsWith(LOST_PREFIX) || stale(p))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  const certs = [...unknown].sort((a, b) => a.createdDate.localeCompare(b.createdDate))
  const adopt = open.slice(0, certs.length).map((p, i) => ({ rowId: p.id, certificateId: certs[i]!.certificateId }))
  const drop = open
    .slice(certs.length)
    .filter(stale)
    .map((p) => p.id)
  return { adopt, drop }
}

/** What the claim of a single-purchase certificate sees: the row's claim and use. */
export type ClaimState = Pick<CertificateStanding, "usedOrderId" | "usedAt" | "claimedCartId" | "claimedAt">

/**
 * Pure: claiming a single-purchase certificate for `cartId` at completion: refused when used or held by
 * another cart; a claim held past CLAIM_HOLD_MS is taken over unless `otherCartCompleted` ("ask" first), then
 * "final": that cart is an order, its claim is final and this one refused.
 */
export function claimDecision(
  st: ClaimState | undefined,
  cartId: string,
  now: number,
  otherCartCompleted?: boolean,
): "claim" | "refuse" | "ask" | "final" {
  if (st?.usedOrderId || st?.usedAt) return "refuse"
  if (!st?.claimedCartId || st.claimedCartId === cartId) return "claim"
  if (claimedByOther(st, cartId, now)) return "refuse"
  if (otherCartCompleted === undefined) return "ask"
  return otherCartCompleted ? "final" : "claim"
}

/** Pure: whether a claim on a certificate keeps it from exempting `cartId` (another cart holds it). */
export function claimedByOther(
  st: Pick<ClaimState, "claimedCartId" | "claimedAt"> | undefined,
  cartId: string | null,
  now: number,
): boolean {
  if (!st?.claimedCartId || st.claimedCartId === cartId) return false
  return st.claimedAt ? now - Date.parse(st.claimedAt) < CLAIM_HOLD_MS : true
}
