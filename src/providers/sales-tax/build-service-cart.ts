import { createHash } from "node:crypto"
import BigNumber from "bignumber.js"
import { US_STATES, US_ZIP_RE, type Address, type CartIn, type CartLineItemIn } from "../../contract"
import { dec } from "../../money"
import { SHIPPING_ITEM_PREFIX } from "./constants"
import type { CartSnapshot } from "./context"

/** The address part of Medusa's TaxCalculationContext. */
export interface MedusaAddressLike {
  country_code?: string | null
  province_code?: string | null
  address_1?: string | null
  address_2?: string | null
  city?: string | null
  postal_code?: string | null
}

const US_STATE_SET = new Set<string>(US_STATES)

/** "CA", "ca", "us-ca", "US-CA" → "CA"; anything else → null. */
export function normalizeState(province: string | null | undefined): string | null {
  if (!province) return null
  const p = province.trim().toUpperCase().replace(/^US-/, "")
  return US_STATE_SET.has(p) ? p : null
}

/** "94107", "94107-1234", "941071234", " 94107 " → normalized; anything else → null. */
export function normalizeZip(zip: string | null | undefined): string | null {
  if (!zip) return null
  const z = zip.trim()
  if (US_ZIP_RE.test(z)) return z
  if (/^\d{9}$/.test(z)) return `${z.slice(0, 5)}-${z.slice(5)}`
  if (/^\d{5} \d{4}$/.test(z)) return z.replace(" ", "-")
  return null
}

/**
 * The destination when tax can be computed for it (US, a state or DC, a ZIP), else null with why.
 * No service call is made for a null destination.
 */
export function taxableDestination(a: MedusaAddressLike | null | undefined): { address: Address } | { address: null; reason: "not_us" | "no_state" | "no_zip" } {
  if (!a || (a.country_code ?? "").toLowerCase() !== "us") return { address: null, reason: "not_us" }
  const state = normalizeState(a.province_code)
  if (!state) return { address: null, reason: "no_state" }
  const zip = normalizeZip(a.postal_code)
  if (!zip) return { address: null, reason: "no_zip" }
  return {
    address: {
      line1: (a.address_1 ?? "").slice(0, 100),
      line2: a.address_2 ? a.address_2.slice(0, 100) : undefined,
      city: (a.city ?? "").slice(0, 100),
      state,
      zip,
      countryCode: "US",
    },
  }
}

/** Customer id sent to the service: the Medusa customer id, else a stable non-personal id from the cart id. */
export function serviceCustomerId(customerId: string | null | undefined, cartId: string): string {
  if (customerId && !customerId.includes("@") && customerId.length <= 50) return customerId
  return `guest_${createHash("sha256").update(cartId).digest("hex").slice(0, 32)}`
}

/** Medusa's taxable amount of an item: unit_price × quantity − discounts (never below 0). */
export function itemTaxable(it: { unit_price: string; quantity: string; discount: string }): BigNumber {
  return BigNumber.max(0, dec(it.unit_price).times(it.quantity).minus(it.discount))
}
export function shippingTaxable(sm: { amount: string; discount: string }): BigNumber {
  return BigNumber.max(0, dec(sm.amount).minus(sm.discount))
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
}

/**
 * One service cart for the whole Medusa cart: every item (net of discounts) and every shipping
 * method as a line with the shipping TIC; cartId = the Medusa cart id. Items with quantity 0 are
 * left out (the service needs quantity > 0; Medusa taxes them 0 anyway).
 */
export function buildServiceCart(input: BuildCartInput): CartIn {
  const { snapshot: s } = input
  const lineItems: CartLineItemIn[] = []
  for (const it of s.items) {
    if (!dec(it.quantity).gt(0)) continue
    const qty = dec(it.quantity).toNumber()
    lineItems.push({
      index: lineItems.length,
      itemId: it.id,
      price: netUnitPrice(itemTaxable(it), it.quantity),
      quantity: qty,
      tic: it.tic ?? input.defaultTic,
      ...(it.product_id ? { productId: it.product_id } : {}),
    })
  }
  for (const sm of s.shipping_methods) {
    lineItems.push({
      index: lineItems.length,
      itemId: `${SHIPPING_ITEM_PREFIX}${sm.id}`,
      price: shippingTaxable(sm).toNumber(),
      quantity: 1,
      tic: input.shippingTic,
    })
  }
  return {
    cartId: s.cart_id.slice(0, 50),
    customerId: serviceCustomerId(s.customer_id, s.cart_id),
    currency: { currencyCode: s.currency_code.toUpperCase() },
    origin: input.origin,
    destination: input.destination,
    ...(input.exemptionId ? { exemption: { exemptionId: input.exemptionId } } : {}),
    lineItems,
  }
}

/** Canonical JSON (sorted keys, undefined dropped) so equal carts hash equally. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null"
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`
  const o = v as Record<string, unknown>
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(",")}}`
}

/** Hash of everything that moves tax: the service cart as sent, plus the connection. */
export function cartHash(cart: CartIn, connectionId: string): string {
  return createHash("sha256").update(connectionId).update("\0").update(canonicalJson(cart)).digest("hex")
}
