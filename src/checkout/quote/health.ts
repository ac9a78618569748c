/**
 * Whether the checkout path is in an outage, as this process last saw it: set by the provider
 * (an outage on a quote; a successful service call), read by the store middlewares that refuse
 * cart requests while tax cannot be computed (src/checkout/store/tax-resync.ts). In the plugin's
 * runtime (src/runtime.ts): the provider is loaded by the Tax Module, the middlewares by the HTTP layer.
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
