/**
 * The POST carts answer as JSON text, written for the hot path: the text JSON.stringify gives for
 * the answer the domain builds (fields in the contract's order, optional ones left out when
 * absent), in fewer and longer pieces than a generic serializer. carts-json.test.ts checks it
 * against JSON.stringify on random answers.
 */
import type { Address, CalculateCartsResponse, CartOut, LineItemOut } from "@medusa-sales-tax/contract"

/** A string as JSON: quoted as it is unless a character needs escaping (then JSON.stringify's text). */
function str(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s)
  }
  return '"' + s + '"'
}

const orNull = (s: string | null): string => (s === null ? "null" : str(s))

function address(a: Address): string {
  return (
    `{"line1":${str(a.line1)}${a.line2 === undefined ? "" : `,"line2":${orNull(a.line2)}`}` +
    `,"city":${str(a.city)},"state":${str(a.state)},"zip":${str(a.zip)}` +
    `${a.countryCode === undefined ? "" : `,"countryCode":${str(a.countryCode)}`}}`
  )
}

// numbers are finite (validated prices and quantities, computed taxes): their text is JSON's
const line = (l: LineItemOut): string =>
  `{"index":${l.index},"itemId":${str(l.itemId)},"price":${l.price},"quantity":${l.quantity},"tic":${l.tic}` +
  `,"tax":{"amount":${l.tax.amount},"rate":${l.tax.rate}}}`

function cart(c: CartOut): string {
  const e = c.exemption
  let out =
    `{"cartId":${str(c.cartId)},"customerId":${str(c.customerId)},"currency":{"currencyCode":${str(c.currency.currencyCode)}}` +
    `,"deliveredBySeller":${c.deliveredBySeller},"origin":${address(c.origin)},"destination":${address(c.destination)}` +
    `,"exemption":{"exemptionId":${orNull(e.exemptionId)},"isExempt":${e.isExempt}${e.flag === undefined ? "" : `,"flag":${orNull(e.flag)}`}}` +
    `,"lineItems":[`
  for (let i = 0; i < c.lineItems.length; i++) out += (i === 0 ? "" : ",") + line(c.lineItems[i]!)
  return out + "]}"
}

/** JSON.stringify(answer), faster. */
export function calculateCartsJson(r: CalculateCartsResponse): string {
  let out = `{"connectionId":${str(r.connectionId)},"transactionDate":${str(r.transactionDate)},"items":[`
  for (let i = 0; i < r.items.length; i++) out += (i === 0 ? "" : ",") + cart(r.items[i]!)
  return out + "]}"
}
