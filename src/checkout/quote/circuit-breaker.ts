/**
 * A consecutive-failure circuit breaker (cockatiel is ESM-only: Medusa's CommonJS build cannot require it): open after
 * `failures` counted failures, half-open after `halfOpenAfterMs`: ONE probe goes through.
 */
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
