/**
 * What a failed service call means for the checkout, and whether it is in an outage as this process last saw it (in
 * the plugin's runtime: the provider sets it, the store middlewares, loaded by another layer, read it); and the
 * consecutive-failure circuit breaker (cockatiel is ESM-only: Medusa's CommonJS build cannot require it): open after
 * `failures` counted failures, half-open after `halfOpenAfterMs`: ONE probe goes through.
 */
import { isSalesTaxError } from "../../service/client"
import { runtimeSlot } from "../../runtime"

export interface QuoteHealth {
  outageAt: number | null
  okAt: number | null
  policy?: "block" | "fallback"
  probe?: () => Promise<void>
}

export const quoteHealth = runtimeSlot("quoteHealth", (): QuoteHealth => ({ outageAt: null, okAt: null }))

export function markOutage(now = Date.now()): void {
  quoteHealth().outageAt = now
}

export function markServiceOk(now = Date.now()): void {
  quoteHealth().okAt = now
}

/** Pure: an outage was seen and no service call has succeeded since. */
export function isDegraded(h: QuoteHealth = quoteHealth()): boolean {
  return h.outageAt !== null && (h.okAt === null || h.okAt < h.outageAt)
}

/** Whether a failure means "the service is not answering properly" (counts for the breaker and the policy). */
export function isOutage(err: unknown): boolean {
  if (err instanceof BrokenCircuitError) return true
  if (!isSalesTaxError(err)) return true // unexpected: treat as an outage, never as a shopper error
  if (err.code === "validation") return false // refused by the client before sending: not the service's fault
  if (err.code === "timeout" || err.code === "network" || err.code === "response_validation") return true
  return err.status === null || err.status >= 500 || err.status === 429 || err.status === 401 || err.status === 403
}

/** Whether a failure counts toward the breaker: an outage except a 429 (counting throttling would let anyone open it for every shopper). */
export function countsForBreaker(err: unknown): boolean {
  return isOutage(err) && !(isSalesTaxError(err) && err.code === "http" && err.status === 429)
}

export class BrokenCircuitError extends Error {
  override name = "BrokenCircuitError"
  constructor() {
    super("circuit open: the Sales Tax Service failed repeatedly; not calling it until the next probe")
  }
}

export type BreakerState = "closed" | "open" | "half-open"

export interface BreakerOptions {
  failures: number
  halfOpenAfterMs: number
  /** Which errors count as failures (others pass through and reset nothing). */
  isFailure?: (err: unknown) => boolean
  now?: () => number
}

export class CircuitBreaker {
  #state: BreakerState = "closed"
  #consecutive = 0
  #openedAt = 0
  #probing = false
  readonly #now: () => number

  constructor(private readonly opts: BreakerOptions) {
    this.#now = opts.now ?? Date.now
  }

  get state(): BreakerState {
    if (this.#state === "open" && this.#now() - this.#openedAt >= this.opts.halfOpenAfterMs) return "half-open"
    return this.#state
  }

  async execute<T>(fn: () => Promise<T>): Promise<T> {
    const state = this.state
    if (state === "open") throw new BrokenCircuitError()
    const probe = state === "half-open"
    if (probe) {
      if (this.#probing) throw new BrokenCircuitError()
      this.#probing = true
    }
    try {
      const v = await fn()
      this.#consecutive = 0
      this.#state = "closed"
      return v
    } catch (err) {
      if (this.opts.isFailure?.(err) ?? true) {
        this.#consecutive++
        if (probe || this.#consecutive >= this.opts.failures) {
          this.#state = "open"
          this.#openedAt = this.#now()
        }
      } else if (probe) {
        // the service answered (a 4xx): it is up
        this.#state = "closed"
        this.#consecutive = 0
      }
      throw err
    } finally {
      if (probe) this.#probing = false
    }
  }

  get consecutiveFailures(): number {
    return this.#consecutive
  }

  reset(): void {
    this.#state = "closed"
    this.#consecutive = 0
    this.#probing = false
  }
}
