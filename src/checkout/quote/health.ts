/**
 * What a failed service call means for the checkout, and whether it is in an outage as this process last saw it (in
 * the plugin's runtime: the provider sets it, the store middlewares, loaded by another layer, read it).
 */
import { isSalesTaxError } from "../../service/client"
import { runtimeSlot } from "../../runtime"
import { BrokenCircuitError } from "./circuit-breaker"

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

/** A refused API key is logged at most once per this many ms per connection. */
export const KEY_REFUSED_LOG_EVERY_MS = 60_000
