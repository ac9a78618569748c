/**
 * The tax-inclusive path of a quote: the net each shown price contains is found by quoting (the
 * shown price, the derived net, at most one re-quote: src/checkout/inclusive/inclusive.ts), each
 * call through the breaker within the quote's one deadline.
 */
import type BigNumber from "bignumber.js"
import { MedusaError } from "@medusajs/framework/utils"
import type { Address, CalculateCartsRequest } from "../../service/contract"
import { TAX_INCLUSIVE_ERROR_CODE } from "../../constants"
import { cartHash, cartsRequest } from "../../service/cart/build-service-cart"
import type { CartSnapshot } from "../../service/cart/context"
import { resolveInclusive, type InclusiveSplit, type LineAnswer } from "../inclusive/inclusive"
import { inclusiveLines, inclusiveMixRefusal, withNets } from "../inclusive/inclusive-cart"
import type { InclusiveHints } from "../inclusive/inclusive-hints"
import type { QuoteCache } from "./result-cache"
import type { ProviderStats, Quote, QuoteRun, ServiceCart } from "./quote-types"
import type { RateRecorder } from "./rate-recorder"

/** Refuses a promotion whose kind differs from its line's price (inclusiveMixRefusal). */
export function refuseTaxInclusiveMix(s: CartSnapshot): void {
  const why = inclusiveMixRefusal(s)
  if (why) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, why, TAX_INCLUSIVE_ERROR_CODE)
}

/** Pure: the cache key of a tax-inclusive quote: the carts as first built (the shown prices), under the connection. */
export function inclusiveQuoteHash(carts: readonly ServiceCart[], connectionId: string): string {
  const basis = `${connectionId}\0tax-inclusive`
  return carts.length === 1 ? cartHash(carts[0]!.cart, basis) : cartHash({ carts: carts.map((c) => c.cart) }, basis)
}

/** Pure: the last answer's lines with each tax-inclusive line's split (its net, tax, rate and residual). */
export function withSplits(lines: Quote["lines"], splits: ReadonlyMap<string, InclusiveSplit>): Quote["lines"] {
  const out: Quote["lines"] = { ...lines }
  for (const [id, s] of splits) {
    out[id] = { ...out[id], amount: s.amount, rate: s.rate, net: s.net, residual: s.residual }
  }
  return out
}

export interface InclusiveQuoteDeps {
  cache: QuoteCache<Quote>
  stats: ProviderStats
  inclusiveHints: InclusiveHints
  /** after a live, non-exempt answer, off the shopper's path: the rates to remember */
  rates: Pick<RateRecorder, "rateMemory" | "rememberAll">
  /** one POST carts of `sent` (through the run's breaker and deadline) */
  call(
    sent: readonly ServiceCart[],
    hash: string,
    exemptionId: string | null,
    request: { body: CalculateCartsRequest; json: string },
  ): Promise<Quote>
}

/**
 * A cart with tax-inclusive lines: `carts` (one per origin) carry their shown prices. Cached under
 * the cart as first built (the shown prices), so an unchanged cart makes no call.
 */
export async function quoteInclusive(
  deps: InclusiveQuoteDeps,
  carts: ServiceCart[],
  inclusive: ReturnType<typeof inclusiveLines>,
  destination: Address,
  exemptionId: string | null,
  run: Pick<QuoteRun, "conn">,
): Promise<Quote> {
  const { conn } = run
  const hash = inclusiveQuoteHash(carts, conn.connectionId)
  let lastCarts = carts
  let lastQuote: Quote | undefined
  const { value, hit } = await deps.cache.getOrLoad(hash, async () => {
    // the rates already known for this ZIP and TIC: the first quote at the net they predict (one call)
    const start = exemptionId
      ? undefined
      : await deps.inclusiveHints.start(carts, inclusive, destination.zip, conn.connectionId, () => deps.rates.rateMemory())
    const r = await resolveInclusive(
      inclusive,
      async (nets: Map<string, BigNumber>) => {
        lastCarts = carts.map((c) => ({ ...c, cart: withNets(c.cart, nets) }))
        const sent = lastCarts
        const request = cartsRequest(
          sent.map((c) => c.cart),
          conn.connectionId,
        )
        lastQuote = await deps.call(sent, hash, exemptionId, request)
        const out = new Map<string, LineAnswer>()
        for (const [id, l] of Object.entries(lastQuote.lines)) out.set(id, { amount: l.amount, rate: l.rate })
        return out
      },
      start,
    )
    return { hash, exemptionId, lines: withSplits(lastQuote!.lines, r.splits), inclusiveCalls: r.calls }
  })
  if (hit) deps.stats.cacheHits++
  else if (!exemptionId && lastQuote) {
    const remembered = lastQuote
    const sent = lastCarts
    deps.inclusiveHints.record(carts, value.lines, destination.zip, conn.connectionId)
    setImmediate(() => deps.rates.rememberAll(sent, remembered, destination))
  }
  return value
}
