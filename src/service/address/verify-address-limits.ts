// Rate limits and the answer cache of address verification: the route is public and each miss is a
// paid service call. Per process, in the plugin's runtime.
import { createHash } from "node:crypto"
import { LRUCache } from "lru-cache"
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible"
import type { Address, ErrorDetail } from "../../../packages/contract/src/index"
import { runtimeSlot } from "../../runtime"

/** What the service said about one address: its normalized form, or why it cannot be verified. */
export type Verdict = { kind: "verified"; address: Address } | { kind: "invalid"; errors: ErrorDetail[] }

const tidy = (s: string | null | undefined) => (s ?? "").trim().replace(/\s+/g, " ")

/** The cache key of an address, whitespace tidied (case kept: the service echoes the lines), hashed: no personal data in clear. */
export function addressKey(a: Pick<Address, "line1" | "city" | "state" | "zip"> & { line2?: string | null }): string {
  const parts = [tidy(a.line1), tidy(a.line2), tidy(a.city), tidy(a.state).toUpperCase(), tidy(a.zip)]
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex")
}

export type LimitScope = "client" | "cart" | "anonymous"
export type Limited = { ok: true } | { ok: false; retryAfterSeconds: number; scope: LimitScope }

/** The one key of the shared budget of requests that name no cart. */
export const ANONYMOUS_KEY = "no-cart"

/** Pure: a rate limit's client address: the TCP peer, or with `trustProxy` n the n-th X-Forwarded-For entry from the right. */
export function clientAddress(
  remoteAddress: string | undefined | null,
  forwardedFor: string | string[] | undefined,
  trustProxy: false | number,
): string {
  const chain = [remoteAddress ?? ""]
  const hops = trustProxy === false ? 0 : trustProxy
  if (hops > 0 && forwardedFor !== undefined) {
    const list = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean)
    chain.push(...list.reverse())
  }
  const got = chain[Math.min(hops, chain.length - 1)] || "unknown"
  return got.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1")
}

export class VerifyAddressGuard {
  readonly #limits: Record<LimitScope, RateLimiterMemory>
  readonly #cache: LRUCache<string, Verdict, () => Promise<Verdict>>

  constructor(
    readonly perMinute: number,
    readonly anonymousPerMinute: number = perMinute,
    cache: LRUCache<string, Verdict, () => Promise<Verdict>> = newVerdictCache(),
  ) {
    const limit = (points: number, scope: LimitScope) =>
      new RateLimiterMemory({ points, duration: 60, keyPrefix: `verify-address:${scope}` })
    this.#limits = { client: limit(perMinute, "client"), cart: limit(perMinute, "cart"), anonymous: limit(anonymousPerMinute, "anonymous") }
    this.#cache = cache
  }

  /** Takes one request from the budget of `key` (client, cart, or the anonymous one); refused with the seconds to wait. */
  async take(scope: LimitScope, key: string): Promise<Limited> {
    try {
      await this.#limits[scope].consume(key, 1)
      return { ok: true }
    } catch (e) {
      if (e instanceof RateLimiterRes) return { ok: false, scope, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) }
      throw e
    }
  }

  /** The verdict for `key`: from the cache, or from `verify()` (once for concurrent callers) and then cached. */
  async verdict(key: string, verify: () => Promise<Verdict>): Promise<{ verdict: Verdict; cached: boolean }> {
    const cached = this.#cache.get(key)
    if (cached) return { verdict: cached, cached: true }
    const v = await this.#cache.fetch(key, { context: verify })
    if (!v) throw new Error("verify-address: no verdict")
    return { verdict: v, cached: false }
  }
}

function newVerdictCache(): LRUCache<string, Verdict, () => Promise<Verdict>> {
  return new LRUCache<string, Verdict, () => Promise<Verdict>>({
    max: 10_000,
    ttl: 24 * 60 * 60 * 1000,
    // the miss runs the service call handed over as context; a rejection (service unavailable) is not cached
    fetchMethod: (_key, _stale, { context }) => context(),
  })
}

const guardsOf = runtimeSlot("verifyAddressGuards", () => ({
  guards: new Map<string, VerifyAddressGuard>(),
  caches: new Map<string, LRUCache<string, Verdict, () => Promise<Verdict>>>(),
}))

/** One guard per service connection and limits; the verdict cache is per connection (route, checkout and filing share it). */
export function verifyAddressGuard(scopeKey: string, perMinute: number, anonymousPerMinute: number = perMinute): VerifyAddressGuard {
  const { guards, caches } = guardsOf()
  const key = `${scopeKey}|${perMinute}|${anonymousPerMinute}`
  let g = guards.get(key)
  if (!g) {
    let cache = caches.get(scopeKey)
    if (!cache) caches.set(scopeKey, (cache = newVerdictCache()))
    g = new VerifyAddressGuard(perMinute, anonymousPerMinute, cache)
    guards.set(key, g)
  }
  return g
}
