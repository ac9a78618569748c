/**
 * The POST carts answer as JSON text, written for the hot path: the text JSON.stringify gives for
 * the answer the domain builds (fields in the contract's order, optional ones left out when
 * absent), in fewer and longer pieces than a generic serializer. carts-json.test.ts checks it
 * against JSON.stringify on random answers.
 */
import type { Address, CalculateCartsResponse, CartOut, LineItemOut } from "@medusa-sales-tax/contract"

/** True when JSON writes s as it is between quotes (no character needs escaping). */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return false
  }
  return true
}

/** The inside of a string's JSON text (without its quotes), for templates that write the quotes. */
const inner = (s: string): string => (plain(s) ? s : JSON.stringify(s).slice(1, -1))
const orNull = (s: string | null): string => (s === null ? "null" : `"${inner(s)}"`)

/**
 * A number's text, kept per value: prices, amounts and rates recur from answer to answer, and
 * V8's own cache of number texts misses them (converting one is most of writing a line).
 */
const NUMBER_TEXT = new Map<number, string>()
function num(x: number): string {
  let t = NUMBER_TEXT.get(x)
  if (t === undefined) {
    if (NUMBER_TEXT.size >= 4096) NUMBER_TEXT.clear()
    NUMBER_TEXT.set(x, (t = String(x)))
  }
  return t
}

function address(a: Address): string {
  return (
    `{"line1":"${inner(a.line1)}"${a.line2 === undefined ? "" : `,"line2":${orNull(a.line2)}`}` +
    `,"city":"${inner(a.city)}","state":"${inner(a.state)}","zip":"${inner(a.zip)}"` +
    `${a.countryCode === undefined ? "" : `,"countryCode":"${inner(a.countryCode)}"`}}`
  )
}

// numbers are finite (validated prices and quantities, computed taxes): their text is JSON's
const line = (l: LineItemOut): string =>
  `{"index":${l.index},"itemId":"${inner(l.itemId)}","price":${num(l.price)},"quantity":${l.quantity},"tic":${l.tic}` +
  `,"tax":{"amount":${num(l.tax.amount)},"rate":${num(l.tax.rate)}}}`

function cart(c: CartOut): string {
  const e = c.exemption
  let out =
    `{"cartId":"${inner(c.cartId)}","customerId":"${inner(c.customerId)}","currency":{"currencyCode":"${inner(c.currency.currencyCode)}"}` +
    `,"deliveredBySeller":${c.deliveredBySeller},"origin":${address(c.origin)},"destination":${address(c.destination)}` +
    `,"exemption":{"exemptionId":${orNull(e.exemptionId)},"isExempt":${e.isExempt}${e.flag === undefined ? "" : `,"flag":${orNull(e.flag)}`}}` +
    `,"lineItems":[`
  for (let i = 0; i < c.lineItems.length; i++) out += (i === 0 ? "" : ",") + line(c.lineItems[i]!)
  return out + "]}"
}

/** JSON.stringify(answer), faster. */
export function calculateCartsJson(r: CalculateCartsResponse): string {
  let out = `{"connectionId":"${inner(r.connectionId)}","transactionDate":"${inner(r.transactionDate)}","items":[`
  for (let i = 0; i < r.items.length; i++) out += (i === 0 ? "" : ",") + cart(r.items[i]!)
  return out + "]}"
}
