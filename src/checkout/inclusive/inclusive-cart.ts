/** A cart's tax-inclusive path: its tax-inclusive lines, the refused promotion mixes, and its quote at the nets each shown price contains. */
import type BigNumber from "bignumber.js"
import { MedusaError } from "@medusajs/framework/utils"
import type { CartIn } from "../../../packages/contract/src/index"
import { dec } from "../../../packages/contract/src/money"
import { cartHash, itemFigures, netUnitPrice, shippingFigures } from "../../service/cart/build-service-cart"
import { SHIPPING_ITEM_PREFIX, TAX_INCLUSIVE_ERROR_CODE } from "../../constants"
import type { CartSnapshot } from "../../service/cart/context"
import type { Quote, ServiceCart } from "../quote/quote-types"
import { resolveInclusive, type InclusiveLine } from "./inclusive"

/** A line's tax-inclusive adjustments (older hooks sent only the flag: then all of them). */
function inclusiveDiscount(l: { discount: string; has_tax_inclusive_discount: boolean; inclusive_discount?: string | null }): string {
  return l.inclusive_discount ?? (l.has_tax_inclusive_discount ? l.discount : "0")
}

/** The tax-inclusive lines of a snapshot, by service itemId, with what the shopper pays for each (quantity 0: left out). */
export function inclusiveLines(s: CartSnapshot): InclusiveLine[] {
  const out: InclusiveLine[] = []
  for (const it of s.items) {
    if (!it.is_tax_inclusive) continue
    const fig = itemFigures(it)
    if (fig) out.push({ itemId: it.id, gross: fig.taxable })
  }
  for (const sm of s.shipping_methods) {
    if (sm.is_tax_inclusive) out.push({ itemId: `${SHIPPING_ITEM_PREFIX}${sm.id}`, gross: shippingFigures(sm).taxable })
  }
  return out
}

/** Why the cart is refused, or null: a promotion whose kind differs from its line's price (Medusa's tax of it needs the unknown net). */
export function inclusiveMixRefusal(s: CartSnapshot): string | null {
  // the checkout hot path: no decimal arithmetic for a line without promotions of the other kind
  for (const l of [...s.items, ...s.shipping_methods]) {
    if (l.is_tax_inclusive) {
      if (l.discount !== "0" && !dec(l.discount).eq(inclusiveDiscount(l))) {
        return "A tax-exclusive promotion on a tax-inclusive price is not supported for US sales tax: make the promotion tax-inclusive, like the prices it applies to."
      }
    } else if (l.has_tax_inclusive_discount && !dec(inclusiveDiscount(l)).isZero()) {
      return "A tax-inclusive promotion on a tax-exclusive price is not supported for US sales tax: make the promotion tax-exclusive, like the prices it applies to."
    }
  }
  return null
}

/** The service cart with the given nets (dollars, per line) as the prices of those lines (net ÷ quantity, 6 places). */
export function withNets(cart: CartIn, nets: Map<string, BigNumber>): CartIn {
  return {
    ...cart,
    lineItems: cart.lineItems.map((li) => {
      const net = nets.get(li.itemId)
      return net === undefined ? li : { ...li, price: netUnitPrice(net, li.quantity) }
    }),
  }
}

export function refuseTaxInclusiveMix(s: CartSnapshot): void {
  const why = inclusiveMixRefusal(s)
  if (why) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, why, TAX_INCLUSIVE_ERROR_CODE)
}

/** Pure: the cache key of a tax-inclusive quote: the carts as first built (the shown prices), under the connection. */
export function inclusiveQuoteHash(carts: readonly ServiceCart[], connectionId: string): string {
  const basis = `${connectionId}\0tax-inclusive`
  return carts.length === 1 ? cartHash(carts[0]!.cart, basis) : cartHash({ carts: carts.map((c) => c.cart) }, basis)
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
  // the last answer's lines (a copy: the answer is not changed), each tax-inclusive line with its split
  const lines: Quote["lines"] = { ...last!.lines }
  for (const [id, s] of r.splits) lines[id] = { ...lines[id], amount: s.amount, rate: s.rate, net: s.net, residual: s.residual }
  return { hash, exemptionId, lines, inclusiveCalls: r.calls }
}
