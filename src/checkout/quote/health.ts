/**
 * Whether the checkout path is in an outage, as this process last saw it: set by the provider, read
 * by the store middlewares that refuse cart requests while tax cannot be computed. In the plugin's
 * runtime: the provider and the middlewares are loaded by different layers.
 */
import { runtimeSlot } from "../../runtime"

export interface QuoteHealth {
  outageAt: number | null
  okAt: number | null
  /** The provider's failure policy (set when it is constructed). */
  policy?: "block" | "fallback"
  /** One real POST carts of a tiny fixed cart through the provider's breaker and deadline; rejects when it fails. */
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
