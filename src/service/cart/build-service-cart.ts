import * as nodeCrypto from "node:crypto"
import BigNumber from "bignumber.js"
import type { z } from "zod"
import { CartIn, type Address, type CalculateCartsRequest, type CartLineItemIn } from "../../../packages/contract/src/index"
import { dec } from "../../../packages/contract/src/money"
import { SHIPPING_ITEM_PREFIX } from "../../constants"
import { memoSet, runtimeSlot } from "../../runtime"
import type { CartSnapshot } from "./context"
import { planDestination, zipText, type DestinationPlan, type ResolvedDestination } from "../address/us-address"

/** The address part of Medusa's TaxCalculationContext. */
export interface MedusaAddressLike {
  country_code?: string | null
  province_code?: string | null
  address_1?: string | null
  address_2?: string | null
  city?: string | null
  postal_code?: string | null
}

/** SHA-256 of a string as hex: Node's cheaper one-shot `crypto.hash` where it exists, else createHash. */
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash
export function sha256Hex(data: string): string {
  return oneShot ? oneShot("sha256", data, "hex") : nodeCrypto.createHash("sha256").update(data).digest("hex")
}

/** Guest ids and line figures recur at every recalculation; built carts and sorted addresses hash as they are. */
const memoOf = runtimeSlot("serviceCarts", () => ({
  guestIds: new Map<string, string>(),
  lines: new Map<string, LineFigures | null>(),
  built: new WeakSet<CartIn>(),
  sorted: new WeakSet<Address>(),
  sortedCopies: new WeakMap<Address, Address>(),
}))

/** Why a US address has no destination to quote yet (planDestination says what to do next). */
export type NoDestinationReason = "not_us" | "no_state" | "no_zip" | "territory"

/** The destination when the typed US state agrees with its ZIP, else null with why and the `plan` to verify. */
export function taxableDestination(
  a: MedusaAddressLike | null | undefined,
): { address: Address; destination: ResolvedDestination } | { address: null; reason: NoDestinationReason; plan?: DestinationPlan } {
  if (!a || (a.country_code ?? "").trim().toLowerCase() !== "us") return { address: null, reason: "not_us" }
  const plan = planDestination(a.province_code, a.postal_code)
  if (plan.kind === "typed") return { address: serviceAddress(a, plan.destination), destination: plan.destination }
  const reason =
    plan.kind === "territory" ? "territory" : plan.kind === "unresolved" && plan.field === "postal_code" ? "no_zip" : "no_state"
  return { address: null, reason, plan }
}

/** The service's destination: the shopper's lines and city with the resolved state and ZIP, keys in sorted order. */
export function serviceAddress(a: MedusaAddressLike, d: Pick<ResolvedDestination, "state" | "zip" | "zip4">): Address {
  const address: Address = {
    city: (a.city ?? "").slice(0, 100),
    countryCode: "US",
    line1: (a.address_1 ?? "").slice(0, 100),
    line2: a.address_2 ? a.address_2.slice(0, 100) : undefined,
    state: d.state,
    zip: zipText(d),
  }
  memoOf().sorted.add(address)
  return address
}

/** Customer id sent to the service: the Medusa customer id, else a stable non-personal id from the cart id. */
export function serviceCustomerId(customerId: string | null | undefined, cartId: string): string {
  if (customerId && !customerId.includes("@") && customerId.length <= 50) return customerId
  // a cart's recalculations ask again and again: one hash per cart
  const { guestIds } = memoOf()
  return guestIds.get(cartId) ?? memoSet(guestIds, cartId, `guest_${sha256Hex(cartId).slice(0, 32)}`)
}

/** Medusa's taxable amount of an item: unit_price × quantity − discounts (never below 0). */
export function itemTaxable(it: { unit_price: string; quantity: string; discount: string }): BigNumber {
  return BigNumber.max(0, dec(it.unit_price).times(it.quantity).minus(it.discount))
}
export function shippingTaxable(sm: { amount: string; discount: string }): BigNumber {
  return BigNumber.max(0, dec(sm.amount).minus(sm.discount))
}

/** A line's taxable amount (and as a string: `String(taxable)`, kept for the back-solve memo's key), quantity and net unit price. */
export interface LineFigures {
  taxable: BigNumber
  taxableKey: string
  quantity: number
  price: number
}

/** An item's taxable amount, quantity and net unit price (null when quantity ≤ 0), memoized. */
export function itemFigures(it: { unit_price: string; quantity: string; discount: string }): LineFigures | null {
  const key = `i|${it.unit_price}|${it.quantity}|${it.discount}`
  const memo = memoOf().lines
  const got = memo.get(key)
  if (got !== undefined) return got
  if (!dec(it.quantity).gt(0)) return memoSet(memo, key, null)
  const taxable = itemTaxable(it)
  return memoSet(memo, key, {
    taxable,
    taxableKey: String(taxable),
    quantity: dec(it.quantity).toNumber(),
    price: netUnitPrice(taxable, it.quantity),
  })
}

/** A shipping method's taxable amount, memoized. */
export function shippingFigures(sm: { amount: string; discount: string }): LineFigures {
  const key = `s|${sm.amount}|${sm.discount}`
  const memo = memoOf().lines
  const got = memo.get(key)
  if (got) return got
  const taxable = shippingTaxable(sm)
  return memoSet(memo, key, { taxable, taxableKey: String(taxable), quantity: 1, price: taxable.toNumber() }) as LineFigures
}

/** Net unit price sent to the service: taxable ÷ quantity, to 6 decimals (exact whenever it divides). */
export function netUnitPrice(taxable: BigNumber, quantity: BigNumber.Value): number {
  return taxable.div(quantity).decimalPlaces(6, BigNumber.ROUND_HALF_UP).toNumber()
}

export interface BuildCartInput {
  snapshot: CartSnapshot
  origin: Address
  destination: Address
  shippingTic: number
  defaultTic: number
  exemptionId?: string | null
  /** The service cart's id when it is not the Medusa cart's (a further origin's cart: origins.ts), as is. */
  serviceCartId?: string
}

/** One service cart per Medusa cart: items net of discounts (quantity 0 left out: the service needs > 0) and shipping lines. */
export function buildServiceCart(input: BuildCartInput): CartIn {
  const { snapshot: s } = input
  const lineItems: CartLineItemIn[] = []
  // keys in sorted order: the cart hash then takes the native JSON.stringify path
  for (const it of s.items) {
    const fig = itemFigures(it)
    if (!fig) continue
    const productId = it.product_id ? { productId: it.product_id } : {}
    lineItems.push({
      index: lineItems.length,
      itemId: it.id,
      price: fig.price,
      ...productId,
      quantity: fig.quantity,
      tic: it.tic ?? input.defaultTic,
    })
  }
  for (const sm of s.shipping_methods) {
    lineItems.push({
      index: lineItems.length,
      itemId: `${SHIPPING_ITEM_PREFIX}${sm.id}`,
      price: shippingFigures(sm).price,
      quantity: 1,
      tic: input.shippingTic,
    })
  }
  const cartId = input.serviceCartId ?? s.cart_id.slice(0, 50)
  const currency = { currencyCode: s.currency_code.toUpperCase() }
  const customerId = serviceCustomerId(s.customer_id, s.cart_id)
  const destination = sortedKeys(input.destination)
  const origin = sortedKeys(input.origin)
  const exemption = input.exemptionId ? { exemption: { exemptionId: input.exemptionId } } : {}
  const cart: CartIn = { cartId, currency, customerId, destination, ...exemption, lineItems, origin }
  // plain data with keys in sorted order, never mutated (withNets builds a new one): hashed as it is
  memoOf().built.add(cart)
  return cart
}

/** An address with its keys in sorted order: itself when written so, else one copy per address object (the `origin` option is the same for every cart). */
function sortedKeys(a: Address): Address {
  const { sorted, sortedCopies } = memoOf()
  if (sorted.has(a)) return a
  let out = sortedCopies.get(a)
  if (!out) {
    const copy = {} as Record<string, unknown>
    for (const k of Object.keys(a).sort()) copy[k] = (a as Record<string, unknown>)[k]
    out = copy as Address
    sorted.add(out)
    sortedCopies.set(a, out)
  }
  return out
}

/** Canonical JSON (sorted keys, undefined dropped) so equal carts hash equally. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== "object") {
    // the common leaves written directly (what JSON.stringify writes for them)
    if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null"
    if (typeof v === "boolean") return v ? "true" : "false"
    return JSON.stringify(v) ?? "null"
  }
  if (Array.isArray(v)) {
    let out = "["
    for (let i = 0; i < v.length; i++) out += (i ? "," : "") + canonicalJson(v[i])
    return out + "]"
  }
  const o = v as Record<string, unknown>
  const keys = Object.keys(o).sort()
  let out = "{"
  let first = true
  for (const k of keys) {
    const x = o[k]
    if (x === undefined) continue
    out += (first ? "" : ",") + JSON.stringify(k) + ":" + canonicalJson(x)
    first = false
  }
  return out + "}"
}

/** The property names of a schema's objects, nested ones included. */
function keysOf(s: z.core.$ZodType, out = new Set<string>()): Set<string> {
  const def = s._zod.def as {
    type: string
    shape?: Record<string, z.core.$ZodType>
    innerType?: z.core.$ZodType
    element?: z.core.$ZodType
  }
  if (def.type === "object") for (const [k, v] of Object.entries(def.shape!)) keysOf(v, out.add(k))
  else if (def.innerType) keysOf(def.innerType, out)
  else if (def.element) keysOf(def.element, out)
  return out
}
/** Every property name of a service cart, sorted: as JSON.stringify's replacer it writes keys in sorted order. */
const CART_KEY_SET = keysOf(CartIn)
const CART_KEYS = [...CART_KEY_SET].sort()

/** Whether `v` is plain JSON data (no toJSON, function, symbol, bigint) whose object keys are all in CART_KEY_SET. */
function plainCartData(v: unknown): boolean {
  if (v === null) return true
  const t = typeof v
  if (t === "string" || t === "number" || t === "boolean" || t === "undefined") return true
  if (t !== "object") return false
  if (Array.isArray(v)) {
    for (const x of v) if (!plainCartData(x)) return false
    return true
  }
  const proto = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) return false
  for (const k in v as Record<string, unknown>) {
    if (!Object.hasOwn(v as object, k)) return false
    if (!CART_KEY_SET.has(k) || !plainCartData((v as Record<string, unknown>)[k])) return false
  }
  return true
}

/** Whether every object in plain data `v` already lists its keys in sorted order. */
function sortedPlain(v: unknown): boolean {
  if (v === null || typeof v !== "object") return true
  if (Array.isArray(v)) {
    for (const x of v) if (!sortedPlain(x)) return false
    return true
  }
  let prev: string | undefined
  for (const k in v as Record<string, unknown>) {
    if (prev !== undefined && !(prev < k)) return false
    if (!sortedPlain((v as Record<string, unknown>)[k])) return false
    prev = k
  }
  return true
}

/** canonicalJson of a cart, through the faster native JSON.stringify when it is plain cart data. */
export function canonicalCartJson(cart: unknown): string {
  if (cart === undefined || !plainCartData(cart)) return canonicalJson(cart)
  return sortedPlain(cart) ? JSON.stringify(cart) : JSON.stringify(cart, CART_KEYS)
}

/** Hash of everything that moves tax: the service cart(s) as sent, plus the connection. */
export function cartHash(cart: CartIn | { carts: CartIn[] } | { ids: readonly string[] }, connectionId: string): string {
  const json = memoOf().built.has(cart as CartIn) ? JSON.stringify(cart) : canonicalCartJson(cart)
  return sha256Hex(`${connectionId}\0${json}`)
}

/** A POST carts body, its JSON as sent and that JSON's hash with the connection (the quote cache's key). */
export function cartsRequest(carts: CartIn[], connectionId: string): { body: CalculateCartsRequest; json: string; hash: string } {
  const body = { items: carts }
  const { built } = memoOf()
  const json = carts.every((c) => built.has(c)) ? JSON.stringify(body) : `{"items":[${carts.map(canonicalCartJson).join(",")}]}`
  return { body, json, hash: sha256Hex(`${connectionId}\0${json}`) }
}
