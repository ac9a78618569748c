/** Pure: what a failed service call means for the checkout (an outage, the breaker, a refused key). */
import { isSalesTaxError } from "../../service/client"
import { BrokenCircuitError } from "./circuit-breaker"

/** Whether a failure means "the service is not answering properly" (counts for the breaker and the policy). */
export function isOutage(err: unknown): boolean {
  if (err instanceof BrokenCircuitError) return true
  if (!isSalesTaxError(err)) return true // unexpected: treat as an outage, never as a shopper error
  if (err.code === "validation") return false // refused by the client before sending: not the service's fault
  if (err.code === "timeout" || err.code === "network" || err.code === "response_validation") return true
  return err.status === null || err.status >= 500 || err.status === 429 || err.status === 401 || err.status === 403
}

/**
 * Whether a failure counts toward opening a circuit breaker: an outage but not a 429, which is
 * throttling: counting it would let anyone driving enough cart states open the breaker for every
 * shopper. A 429 still follows the failure policy.
 */
export function countsForBreaker(err: unknown): boolean {
  return isOutage(err) && !(isSalesTaxError(err) && err.code === "http" && err.status === 429)
}

/** Whether the service refused the connection's API key (401 or 403 from the service). */
export function isKeyRefused(err: unknown): boolean {
  return isSalesTaxError(err) && err.code === "http" && (err.status === 401 || err.status === 403)
}

/** A refused API key is logged at most once per this many ms per connection. */
export const KEY_REFUSED_LOG_EVERY_MS = 60_000
