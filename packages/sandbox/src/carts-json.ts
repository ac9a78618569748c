/**
 * The POST carts answer as JSON, written for the hot path: the text JSON.stringify gives for the
 * answer the domain builds (fields in the contract's order, optional ones left out when absent),
 * in fewer and longer pieces than a generic serializer; when every string in it is plain ASCII,
 * as its bytes (Latin-1 is then UTF-8), which Fastify sends without measuring the text's UTF-8
 * length. carts-json.test.ts checks it against JSON.stringify on random answers.
 */
import type { Address, CalculateCartsResponse, CartOut, LineItemOut } from "@medusa-sales-tax/contract"

/** Set when a string of the answer being written was not plain ASCII. */
let escaped = false

/** True when s is ASCII that JSON writes as it is between quotes (no character needs escaping). */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 32 || c > 126 || c === 34 || c === 92) return false
  }
  return true
}

/** The inside of a string's JSON text (without its quotes), for templates that write the quotes. */
function inner(s: string): string {
  if (plain(s)) return s
  escaped = true
  return JSON.stringify(s).slice(1, -1)
}
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

/** JSON.stringify(answer), faster: its UTF-8 bytes, or the text when a string was not plain ASCII. */
export function calculateCartsJson(r: CalculateCartsResponse): Buffer | string {
  escaped = false
  let out = `{"connectionId":"${inner(r.connectionId)}","transactionDate":"${inner(r.transactionDate)}","items":[`
  for (let i = 0; i < r.items.length; i++) out += (i === 0 ? "" : ",") + cart(r.items[i]!)
  out += "]}"
  return escaped ? out : Buffer.from(out, "latin1")
}
