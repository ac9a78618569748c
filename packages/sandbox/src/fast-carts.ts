/**
 * A fast path in front of zod for the sandbox's hottest request, POST carts.
 *
 * Profiling `bench:sandbox` showed zod's parse of a 10-line cart as one of the two largest costs of
 * a request (with the tax engine). This function accepts ONLY the plain shape of a valid request
 * (no exemption, no transactionDate, no unknown keys, every field of the expected type and within
 * the contract's bounds) and builds exactly the object zod would (same keys, same order). Anything
 * else — including every invalid request — returns undefined and zod decides, so errors are always
 * zod's located errors. `fast-carts.test.ts` checks on random requests, valid and broken, that
 * whenever this function accepts, zod accepts and yields a deep-equal, byte-identical value.
 */
import {
  CA_POSTAL_RE,
  CA_PROVINCES,
  US_STATES,
  US_TERRITORIES,
  US_ZIP_RE,
  type Address,
  type CalculateCartsRequest,
  type CartLineItemIn,
} from "@medusa-sales-tax/contract"

const STATES = new Set<string>([...US_STATES, ...US_TERRITORIES, ...CA_PROVINCES])

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v)
const str = (v: unknown, min: number, max: number): v is string => typeof v === "string" && v.length >= min && v.length <= max
/** true when o is a plain object with `known` keys and no other (a key holding undefined counts as another) */
function only(o: Obj, known: number): boolean {
  let n = 0
  for (const _ in o) n++
  return n === known && Object.getPrototypeOf(o) === Object.prototype
}
const has = (v: unknown) => (v === undefined ? 0 : 1)

function address(v: unknown): Address | undefined {
  if (!isObj(v)) return undefined
  const { line1, line2, city, state, zip, countryCode } = v
  if (!only(v, 4 + has(line2) + has(countryCode))) return undefined
  if (!str(line1, 0, 100) || !str(city, 0, 100) || typeof state !== "string" || !STATES.has(state) || typeof zip !== "string")
    return undefined
  if (line2 !== undefined && line2 !== null && !str(line2, 0, 100)) return undefined
  if (countryCode !== undefined && countryCode !== "US" && countryCode !== "CA") return undefined
  if (!(countryCode === "CA" ? CA_POSTAL_RE : US_ZIP_RE).test(zip)) return undefined
  const out: Address = { line1 } as Address
  if (line2 !== undefined) out.line2 = line2 as string | null
  out.city = city
  out.state = state
  out.zip = zip
  if (countryCode !== undefined) out.countryCode = countryCode
  return out
}

function line(v: unknown): CartLineItemIn | undefined {
  if (!isObj(v)) return undefined
  const { index, itemId, price, quantity, tic, productId } = v
  if (!only(v, 4 + has(tic) + has(productId))) return undefined
  if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0) return undefined
  if (!str(itemId, 1, 100)) return undefined
  if (typeof price !== "number" || !Number.isFinite(price)) return undefined
  if (typeof quantity !== "number" || !Number.isFinite(quantity) || !(quantity > 0)) return undefined
  if (tic !== undefined && tic !== null && (typeof tic !== "number" || !Number.isSafeInteger(tic) || tic < 0)) return undefined
  if (productId !== undefined && productId !== null && !str(productId, 0, 100)) return undefined
  const out = { index, itemId, price, quantity } as CartLineItemIn
  if (tic !== undefined) out.tic = tic as number | null
  if (productId !== undefined) out.productId = productId as string | null
  return out
}

const CURRENCY_RE = /^[A-Z]{3}$/
type CartIn = CalculateCartsRequest["items"][number]
function cart(v: unknown): CartIn | undefined {
  if (!isObj(v)) return undefined
  const { cartId, customerId, currency, deliveredBySeller, lineItems } = v
  if (!only(v, 5 + has(cartId) + has(deliveredBySeller))) return undefined
  if (cartId !== undefined && !str(cartId, 1, 50)) return undefined
  if (!str(customerId, 1, 50) || customerId.includes("@")) return undefined
  if (!isObj(currency) || !only(currency, 1) || typeof currency.currencyCode !== "string" || !CURRENCY_RE.test(currency.currencyCode))
    return undefined
  if (deliveredBySeller !== undefined && typeof deliveredBySeller !== "boolean") return undefined
  const origin = address(v.origin)
  const destination = origin && address(v.destination)
  if (!destination || !Array.isArray(lineItems) || lineItems.length === 0) return undefined
  const lines: CartLineItemIn[] = new Array(lineItems.length)
  for (let i = 0; i < lineItems.length; i++) {
    const l = line(lineItems[i])
    if (!l) return undefined
    lines[i] = l
  }
  const out = {} as CartIn
  if (cartId !== undefined) out.cartId = cartId as string
  out.customerId = customerId
  out.currency = { currencyCode: currency.currencyCode }
  if (deliveredBySeller !== undefined) out.deliveredBySeller = deliveredBySeller as boolean
  out.origin = origin!
  out.destination = destination
  out.lineItems = lines
  return out
}

/** The parsed request when it is a plain valid one (see above), else undefined: let zod decide. */
export function fastCalculateCartsRequest(body: unknown): CalculateCartsRequest | undefined {
  if (!isObj(body) || !only(body, 1) || !Array.isArray(body.items)) return undefined
  const items = body.items
  if (items.length === 0 || items.length > 100) return undefined
  const out: CalculateCartsRequest["items"] = new Array(items.length)
  for (let i = 0; i < items.length; i++) {
    const c = cart(items[i])
    if (!c) return undefined
    out[i] = c
  }
  return { items: out }
}
