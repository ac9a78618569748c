/**
 * Completion never commits tax computed for another cart state: the middleware refreshes the tax before completion,
 * outside Medusa's lock, and records the cart's fingerprint; the `validate` hook, inside the lock, refuses a changed
 * cart (not re-quoting: the payment was authorized for the old total).
 */
import { AsyncLocalStorage } from "node:async_hooks"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, type StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { graph } from "../../query"
import { amountNumber } from "../../money/amount"
import { runtimeOf, runtimeSlot } from "../../runtime"

export const CART_CHANGED_ERROR_CODE = "sales_tax_cart_changed"
export const CART_CHANGED_MESSAGE =
  "The cart changed while it was being completed (a promotion, an item or the address), after its sales tax was computed. Review the cart and place the order again."

type Row = Record<string, unknown>
type Fingerprint = { state: string; tax: string }
interface FingerprintCart {
  id: string
  customer_id?: string | null
  currency_code?: string | null
  shipping_address?: Row | null
  promotions?: ({ id?: string | null } | null)[] | null
  items?: (Row & { adjustments?: Row[] | null; tax_lines?: Row[] | null })[] | null
  shipping_methods?: (Row & { adjustments?: Row[] | null; tax_lines?: Row[] | null })[] | null
}

/** The shipping address fields that move tax, in the fingerprint's order. */
const ADDRESS = ["address_1", "city", "province", "postal_code", "country_code"] as const
const under = (relation: string, fields: readonly string[]) => fields.map((f) => `${relation}.${f}`)
/** What cartFingerprint reads; the shipping methods' adjustments have no promotion_id. */
const FINGERPRINT_FIELDS = [
  "id",
  "customer_id",
  "currency_code",
  "promotions.id",
  ...under("shipping_address", ADDRESS),
  ...under("items", ["id", "quantity", "unit_price", "is_tax_inclusive", "adjustments.promotion_id"]),
  ...under("shipping_methods", ["id", "amount", "shipping_option_id"]),
  ...["items", "shipping_methods"].flatMap((r) => under(r, ["adjustments.code", "adjustments.amount", "tax_lines.code", "tax_lines.rate"])),
]

const num = (v: unknown) => {
  const n = amountNumber(v)
  return n === null ? null : String(n)
}
const sorted = (xs: string[]) => [...xs].sort()

/** Pure: what moves a cart's tax (`state`) and its tax lines (`tax`), each a canonical string (rows sorted, amounts as numbers). */
export function cartFingerprint(c: FingerprintCart): Fingerprint {
  const a = c.shipping_address ?? {}
  const adj = (rows: Row[] | null | undefined) =>
    sorted((rows ?? []).map((r) => JSON.stringify([r.code ?? null, num(r.amount), r.promotion_id ?? null])))
  const taxLines = (rows: Row[] | null | undefined) => sorted((rows ?? []).map((r) => JSON.stringify([r.code ?? null, num(r.rate)])))
  const items = [...(c.items ?? [])].sort((x, y) => String(x.id).localeCompare(String(y.id)))
  const ships = [...(c.shipping_methods ?? [])].sort((x, y) => String(x.id).localeCompare(String(y.id)))
  const state = JSON.stringify({
    customer: c.customer_id ?? null,
    currency: c.currency_code ?? null,
    address: ADDRESS.map((k) =>
      String(a[k] ?? "")
        .trim()
        .toLowerCase(),
    ),
    promotions: sorted((c.promotions ?? []).flatMap((p) => (p?.id ? [p.id] : []))),
    items: items.map((i) => [i.id, num(i.quantity), num(i.unit_price), !!i.is_tax_inclusive, adj(i.adjustments)]),
    shipping: ships.map((s) => [s.id, num(s.amount), s.shipping_option_id ?? null, adj(s.adjustments)]),
  })
  const tax = JSON.stringify({
    items: items.map((i) => [i.id, taxLines(i.tax_lines)]),
    shipping: ships.map((s) => [s.id, taxLines(s.tax_lines)]),
  })
  return { state, tax }
}

/** The cart's fingerprint as it is now (one query), or undefined when there is no such cart. */
export async function readCartFingerprint(scope: MedusaContainer, cartId: string): Promise<Fingerprint | undefined> {
  const [c] = await graph<FingerprintCart>(scope, { entity: "cart", fields: FINGERPRINT_FIELDS, filters: { id: cartId } })
  return c ? cartFingerprint(c) : undefined
}

/**
 * A completion request's scope: the cart and its fingerprint right after the pre-completion tax refresh. In the
 * plugin's runtime: the middleware and the `validate` handler may be different module instances.
 */
export const completionStorage = runtimeSlot("completionScope", () => new AsyncLocalStorage<{ cartId: string; fingerprint: Fingerprint }>())

/** How many completions the `validate` handler compared, and refused (tests; one object per runtime). */
export const completionGuardStats = runtimeSlot("completionGuardStats", () => ({ checked: 0, refused: 0 }))

/** 400 with its code (Medusa's error handler keeps a NOT_ALLOWED error's code). */
export function cartChangedError(): MedusaError {
  return new MedusaError(MedusaError.Types.NOT_ALLOWED, CART_CHANGED_MESSAGE, CART_CHANGED_ERROR_CODE)
}

/** The cart-changed half of the `validate` handler: inside the completion's lock, the cart must be as the refresh left it. */
export async function validateCompletionUnchanged(
  { input }: { input: { id?: string } },
  { container }: StepExecutionContext,
): Promise<StepResponse<undefined>> {
  const rt = runtimeOf(container)
  const scope = completionStorage(rt).getStore()
  if (!scope || !input?.id || scope.cartId !== input.id) return new StepResponse(undefined)
  const now = await readCartFingerprint(container, input.id)
  const stats = completionGuardStats(rt)
  stats.checked++
  if (!now || now.state !== scope.fingerprint.state || now.tax !== scope.fingerprint.tax) {
    stats.refused++
    throw cartChangedError()
  }
  return new StepResponse(undefined)
}
