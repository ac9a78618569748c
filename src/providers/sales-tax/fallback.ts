/** Pure helpers of the outage path: coverage of the fallback options, and one deadline per quote. */
import type { PluginOptions } from "../../options"
import { US_STATES } from "../../contract"

/** The 50 states and DC (the destinations the service taxes): the contract's list. */
export { US_STATES }

/**
 * Pure: the US states for which "fallback" has nothing configured: no `fallbackRates` entry, no
 * `fallbackRate`, and (when known) no default rate of a US tax region (country-wide: `all`, or
 * for the state). Empty under "block" or when everything is covered.
 */
export function fallbackGaps(
  o: Pick<PluginOptions, "failurePolicy" | "fallbackRate" | "fallbackRates">,
  region?: { all: boolean; states: readonly string[] },
): string[] {
  if (o.failurePolicy !== "fallback" || o.fallbackRate !== undefined || region?.all) return []
  const covered = new Set([...Object.keys(o.fallbackRates ?? {}), ...(region?.states ?? [])].map((s) => s.toUpperCase()))
  return US_STATES.filter((s) => !covered.has(s))
}

export class QuoteTimeoutError extends Error {
  override name = "QuoteTimeoutError"
  constructor(ms: number) {
    super(`no quote within the checkout timeout (${ms} ms, certificate lookup included)`)
  }
}

/**
 * Runs `fn` and rejects with QuoteTimeoutError once `ms` have passed (at once when ms ≤ 0). The
 * call left behind is not awaited: its answer can still fill a cache.
 */
export function withDeadline<T>(fn: () => Promise<T>, ms: number): Promise<T> {
  const budget = Math.floor(ms)
  if (budget <= 0) return Promise.reject(new QuoteTimeoutError(0))
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new QuoteTimeoutError(budget)), budget)
    let p: Promise<T>
    try {
      p = fn()
    } catch (e) {
      clearTimeout(timer)
      reject(e)
      return
    }
    p.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (e) => {
        clearTimeout(timer)
        reject(e)
      },
    )
  })
}
