import type BigNumber from "bignumber.js"
import type { CartIn } from "../../../packages/contract/src/index"
import { dec } from "../../../packages/contract/src/money"
import { itemFigures, netUnitPrice, shippingFigures } from "../../service/cart/build-service-cart"
import { SHIPPING_ITEM_PREFIX } from "../../constants"
import type { CartSnapshot } from "../../service/cart/context"
import type { InclusiveLine } from "./inclusive"

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
  const check = (l: CartSnapshot["items"][number] | CartSnapshot["shipping_methods"][number]): string | null => {
    if (l.is_tax_inclusive) {
      if (l.discount !== "0" && !dec(l.discount).eq(inclusiveDiscount(l))) {
        return "A tax-exclusive promotion on a tax-inclusive price is not supported for US sales tax: make the promotion tax-inclusive, like the prices it applies to."
      }
    } else if (l.has_tax_inclusive_discount && !dec(inclusiveDiscount(l)).isZero()) {
      return "A tax-inclusive promotion on a tax-exclusive price is not supported for US sales tax: make the promotion tax-exclusive, like the prices it applies to."
    }
    return null
  }
  for (const lines of [s.items, s.shipping_methods]) {
    for (const l of lines) {
      const why = check(l)
      if (why) return why
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
