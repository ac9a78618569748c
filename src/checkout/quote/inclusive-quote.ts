/** The tax-inclusive path of a quote: the net each shown price contains, found by quoting (src/checkout/inclusive/). */
import type BigNumber from "bignumber.js"
import { MedusaError } from "@medusajs/framework/utils"
import { TAX_INCLUSIVE_ERROR_CODE } from "../../constants"
import { cartHash } from "../../service/cart/build-service-cart"
import type { CartSnapshot } from "../../service/cart/context"
import { resolveInclusive, type InclusiveLine, type InclusiveSplit } from "../inclusive/inclusive"
import { inclusiveMixRefusal, withNets } from "../inclusive/inclusive-cart"
import type { Quote, ServiceCart } from "./quote-types"

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

/** The quote of a cart with tax-inclusive lines (`carts` at their shown prices): `call` quotes them at resolveInclusive's nets. */
export async function quoteInclusive(
  carts: readonly ServiceCart[],
  inclusive: InclusiveLine[],
  start: ReadonlyMap<string, BigNumber> | undefined,
  call: (sent: readonly ServiceCart[]) => Promise<Quote>,
  hash: string,
  exemptionId: string | null,
): Promise<Quote> {
  let last: Quote | undefined
  const r = await resolveInclusive(
    inclusive,
    async (nets) => new Map(Object.entries((last = await call(carts.map((c) => ({ ...c, cart: withNets(c.cart, nets) })))).lines)),
    start,
  )
  return { hash, exemptionId, lines: withSplits(last!.lines, r.splits), inclusiveCalls: r.calls }
}
