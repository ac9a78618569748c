import type { OperationId } from "../../../packages/contract/src/index"

/** How many times and for how long a call is retried. */
export interface RetryPolicy {
  /** Attempts in all, the first one included (1 = never retry). */
  maxAttempts: number
  /** Backoff cap of the first retry; doubles each retry. */
  baseDelayMs: number
  /** Upper bound of one computed backoff (a longer Retry-After is still honoured, within maxElapsedMs). */
  maxDelayMs: number
  /** Bound on the whole call: attempts, waits and the per-attempt timeouts together. */
  maxElapsedMs: number
}

export const DEFAULT_RETRY_POLICY: Readonly<Omit<RetryPolicy, "maxElapsedMs">> = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
})

/** Default total-time bound: the checkout path and background work differ. */
export const DEFAULT_MAX_ELAPSED_MS = { foreground: 10_000, background: 60_000 } as const

/** Statuses after which repeating the same request can help. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

export type FailureKind = { kind: "status"; status: number } | { kind: "timeout" } | { kind: "network"; connectRefused: boolean }

/**
 * Whether an operation may be repeated after a failure. Every operation is idempotent (order creations
 * are reconciled by the client, refunds carry an idempotency key) except createCertificate: the service
 * assigns its id, so it is retried only when certainly not processed (429, or the connection refused).
 */
export function isRetryable(operation: OperationId, failure: FailureKind): boolean {
  if (operation === "createCertificate") {
    if (failure.kind === "status") return failure.status === 429
    return failure.kind === "network" && failure.connectRefused
  }
  if (failure.kind === "status") return RETRYABLE_STATUSES.has(failure.status)
  return true
}

/** Exponential backoff with "equal jitter": a wait in [cap/2, cap], the cap doubling per retry (from 1) up to maxDelayMs. */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">,
  random: number = Math.random(),
): number {
  const exp = Math.min(Math.max(retry - 1, 0), 30)
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exp)
  const r = Math.min(Math.max(random, 0), 1)
  return Math.round(cap / 2 + (cap / 2) * r)
}

/** Parses a Retry-After header (delta-seconds or an HTTP date) into ms to wait (0 for a past date); undefined when unparseable. */
export function parseRetryAfter(value: string | string[] | number | undefined | null, now: number = Date.now()): number | undefined {
  if (Array.isArray(value)) value = value[0]
  if (value === undefined || value === null) return undefined
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined
  const s = value.trim()
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000)
  if (/^-/.test(s)) return undefined
  // an HTTP date must name a day or month: refuse bare numbers-with-garbage that Date.parse accepts
  if (!/[A-Za-z]{3}/.test(s)) return undefined
  const t = Date.parse(s)
  if (Number.isNaN(t)) return undefined
  return Math.max(0, t - now)
}

/** The wait before the next attempt: the backoff, or the server's Retry-After when longer. */
export function nextDelay(
  retry: number,
  policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">,
  retryAfterMs: number | undefined,
  random?: number,
): number {
  const b = backoffDelay(retry, policy, random)
  return retryAfterMs !== undefined ? Math.max(b, retryAfterMs) : b
}

export function resolvePolicy(retry: Partial<RetryPolicy> | false | undefined, background: boolean): RetryPolicy {
  const given: Partial<RetryPolicy> = retry === false ? { maxAttempts: 1 } : (retry ?? {})
  const p: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxElapsedMs: DEFAULT_MAX_ELAPSED_MS[background ? "background" : "foreground"] }
  for (const k of Object.keys(p) as (keyof RetryPolicy)[]) {
    p[k] = given[k] ?? p[k]
    if (!Number.isFinite(p[k]) || p[k] < 0) throw new TypeError(`retry.${k} must be a finite number >= 0`)
  }
  if (p.maxAttempts < 1 || !Number.isInteger(p.maxAttempts)) throw new TypeError("retry.maxAttempts must be an integer >= 1")
  return p
}
