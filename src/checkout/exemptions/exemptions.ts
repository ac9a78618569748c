import type { CertificateRecord } from "../../../packages/contract/src/index"
import { medusaStore, SingleFlight, type CachingModuleLike, MemoryStore, type QuoteStore } from "../quote/result-cache"
import { runtimeOf, runtimeSlot, tryResolve, type ScopeLike } from "../../runtime"
import { claimedByOther, type CertificateStanding } from "../../service/exemptions/certificate-claims"
import { externalCertificatesMode, type PluginOptions } from "../../options"
import type { QuoteConnection } from "../quote/quote-types"
import { certificateStatus, type ExternalCertificates } from "./certificate-rules"
import { registerForgetCertificates, registeredCertificateReviews, type CertificateReviews } from "../../service/exemptions/registry"

/**
 * Active certificates per customer, cached with the quote TTL in Medusa's Caching Module when the Tax Module has it,
 * else in the plugin's runtime. The plugin's routes invalidate an entry at once; a change made elsewhere shows on expiry.
 */
export const certificateCache = runtimeSlot("certificateCache", () => new MemoryStore<ListedCertificate[]>(10_000))
const flight = runtimeSlot("certificateLookups", () => new SingleFlight<ListedCertificate[]>())

/** Key of a customer's certificate list in the Caching Module (the same for every instance). */
export function certificateCacheKey(customerId: string): string {
  return `sales-tax:certificates:${customerId}`
}

/** The non-default connections whose lists this process keyed (a certificate lives on one): an invalidation clears each. */
const otherConnections = runtimeSlot("certificateConnections", () => new Set<string>())

/** Pure: the cache key of a customer's list on a connection (the default: the customer id alone). */
export function certificateListKey(customerId: string, connectionId?: string | null): string {
  return connectionId ? `${customerId}@${connectionId}` : customerId
}

export function registerCertificateConnections(connectionIds: readonly string[]): void {
  for (const c of connectionIds) otherConnections().add(c)
}

/** A certificate as the provider lists it, with whether it may exempt (`mayExempt`) and its claim. */
export type ListedCertificate = CertificateRecord & { approved?: boolean } & Pick<CertificateStanding, "claimedCartId" | "claimedAt">

/**
 * Pure: whether a certificate may exempt. Made through this store: once approved and, single-purchase, not used yet.
 * Made elsewhere (no row): where `external` is "exempt", and not while the customer has a submission in flight or lost.
 */
export function mayExempt(
  standing: CertificateStanding | undefined,
  reserved: boolean,
  external: ExternalCertificates = "exempt",
): boolean {
  // what the widgets show as active (certificateStatus), less a certificate that may be a submission in flight
  return (!!standing || !reserved) && certificateStatus({ disabledAt: null }, standing, external) === "active"
}

/**
 * The list with `approved` from the review store. None registered: all approved (no certificate can have been submitted
 * through this store). It failing: none approved (never exempt on an unknown review) and `ok` false (not cached).
 */
export async function withApproval(
  customerId: string,
  list: CertificateRecord[],
  reviews: CertificateReviews | undefined = registeredCertificateReviews(),
  external: ExternalCertificates = "exempt",
): Promise<{ list: ListedCertificate[]; ok: boolean }> {
  if (!reviews || !list.length) return { list: list.map((c) => ({ ...c, approved: true })), ok: true }
  try {
    const { byId, reserved } = await reviews.certificateStandings(
      customerId,
      list.map((c) => c.certificateId),
    )
    return {
      list: list.map((c) => {
        const st = byId[c.certificateId]
        return {
          ...c,
          approved: mayExempt(st, reserved, external),
          claimedCartId: st?.claimedCartId ?? null,
          claimedAt: st?.claimedAt ?? null,
        }
      }),
      ok: true,
    }
  } catch {
    return { list: list.map((c) => ({ ...c, approved: false })), ok: false }
  }
}

/** Forgets a customer's cached list (every customer's when no id), here and in the Caching Module; never throws. */
export async function invalidateCustomerCertificates(
  customerId?: string,
  scope?: ScopeLike,
): Promise<{ cachingCleared: boolean; error?: string }> {
  const rt = runtimeOf(scope)
  const cache = certificateCache(rt)
  const listKeys = (id: string) => [id, ...[...otherConnections(rt)].map((c) => certificateListKey(id, c))]
  if (customerId === undefined) cache.clear()
  else for (const k of listKeys(customerId)) cache.delete(k)
  if (!scope || customerId === undefined) return { cachingCleared: false }
  const caching = tryResolve(scope, "caching") as { clear?: (a: { key: string }) => Promise<unknown> } | undefined
  if (typeof caching?.clear !== "function") return { cachingCleared: false }
  try {
    for (const k of listKeys(customerId)) await caching.clear({ key: certificateCacheKey(k) })
    return { cachingCleared: true }
  } catch (e) {
    return { cachingCleared: false, error: (e as Error)?.message ?? String(e) }
  }
}
// filing forgets the list of a customer whose single-purchase certificate was used (it imports no checkout)
registerForgetCertificates(invalidateCustomerCertificates)

/** Where certificate lists are kept: the Caching Module when usable (keys from certificateCacheKey), else in process. */
export function certificateStoreOn(caching: CachingModuleLike | undefined): QuoteStore<ListedCertificate[]> {
  return medusaStore<ListedCertificate[]>(caching, undefined, certificateCacheKey) ?? certificateCache()
}

/** The customer's active certificates on the connection: cached, else one service call wrapped by `guard`. */
export async function activeCertificates(
  conn: QuoteConnection,
  customerId: string,
  options: Pick<PluginOptions, "cacheTtlSeconds"> & Partial<Pick<PluginOptions, "shopperCertificates" | "externalCertificates">>,
  opts: {
    store?: QuoteStore<ListedCertificate[]>
    guard?: <T>(fn: () => Promise<T>) => Promise<T>
    /** the review store (default: the one the plugin's module registered) */
    reviews?: CertificateReviews
  } = {},
): Promise<ListedCertificate[]> {
  const store = opts.store ?? certificateCache()
  const connectionId = conn.isDefault ? null : conn.connectionId
  const key = certificateListKey(customerId, connectionId)
  if (connectionId) otherConnections().add(connectionId)
  const hit = options.cacheTtlSeconds > 0 ? await store.get(key) : undefined
  if (hit) return hit
  const guard = opts.guard ?? (<T>(fn: () => Promise<T>) => fn())
  return flight().do(key, async () => {
    const got = await guard(async () => {
      const list: CertificateRecord[] = []
      for await (const c of conn.client.certificates({ customerId, disabled: false })) {
        if (!c.disabledAt) list.push(c)
        if (list.length >= 500) break
      }
      return list
    })
    const { list: out, ok } = await withApproval(customerId, got, opts.reviews, externalCertificatesMode(options))
    if (ok) await store.set(key, out, options.cacheTtlSeconds)
    return out
  })
}

/** Pure: the oldest active, approved certificate for `state`, neither `refused` nor claimed by another cart, or null. */
export function pickExemption(
  certs: readonly (Pick<CertificateRecord, "certificateId" | "states" | "createdDate" | "disabledAt"> &
    Pick<ListedCertificate, "approved" | "claimedCartId" | "claimedAt">)[],
  state: string,
  refused: ReadonlySet<string> = new Set(),
  cart: { cartId: string | null; now: number } = { cartId: null, now: Date.now() },
): string | null {
  const st = state.toUpperCase()
  const match = certs
    .filter(
      (c) =>
        c.approved === true &&
        !c.disabledAt &&
        !refused.has(c.certificateId) &&
        !claimedByOther(c, cart.cartId, cart.now) &&
        c.states.some((s) => s.abbreviation.toUpperCase() === st),
    )
    .sort((a, b) => (a.createdDate < b.createdDate ? -1 : a.createdDate > b.createdDate ? 1 : 0))[0]
  return match?.certificateId ?? null
}
