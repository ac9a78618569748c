/** The Medusa rows filing reads through Query (`any[]` in a plugin: each read names its fields) and the pure readings filing,
 * backfill and reconciliation share. Amounts are `unknown`: read with src/money's `amountString`. */
import { dec } from "../../packages/contract/src/money"
import { amountString } from "../money/amount"
import { SHIPPING_ITEM_PREFIX } from "../constants"
import type { RefundItem } from "../modules/sales-tax-filing/types"
import type { MedusaAddressLike } from "../service/cart/build-service-cart"
import type { Adjustment } from "../medusa/taxed-entity"

export const quantityOf = (v: unknown): number => dec(amountString(v)).toNumber()

/** Pure: `xs` grouped by `key`, each group in the order of `xs`. */
export function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>()
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x])
  return m
}

export function refundItems(list: ChangeItemRow[] | null | undefined, qty: (i: ChangeItemRow) => unknown = (i) => i.quantity) {
  return (list ?? []).map((i) => ({ itemId: i.item_id, quantity: quantityOf(qty(i)) })).filter((i) => i.quantity > 0)
}

/** Pure: a claim's claimed units: its return's items, else its claim items. */
export function claimedItems(c: Pick<ClaimRow, "return" | "claim_items">): RefundItem[] {
  const returned = refundItems(c.return?.items)
  return returned.length ? returned : refundItems(c.claim_items)
}

export const shippingLink = (m: ShippingLinks & { detail?: ShippingLinks | null }, k: keyof ShippingLinks): string | null =>
  m.detail?.[k] ?? m[k] ?? null

/** Pure: a shipping method of the order itself (not a claim's, an exchange's or a return's). */
export const ownShipping = (m: ShippingLinks & { detail?: ShippingLinks | null }): boolean =>
  !shippingLink(m, "claim_id") && !shippingLink(m, "exchange_id") && !shippingLink(m, "return_id")

/** Pure: a return refunds the order's shipping when its metadata says so (`refund_shipping: true`). */
export function refundsShipping(metadata: unknown): boolean {
  const m = metadata as Record<string, unknown> | null | undefined
  return m?.refund_shipping === true || m?.refund_shipping === "true"
}

/** Pure: a received return's items, with the order's own shipping (`shippingIds`) when it refunds shipping. */
export function returnedItems(r: Pick<ReturnRow, "items" | "metadata">, shippingIds: string[]): RefundItem[] {
  const items = refundItems(r.items, (i) => i.received_quantity)
  return refundsShipping(r.metadata) ? [...items, ...shippingIds.map((id) => ({ itemId: id, quantity: 1 }))] : items
}

export const hasPaymentRefunds = (o: Pick<OrderRow, "payment_collections">): boolean =>
  (o.payment_collections ?? []).some((pc) => (pc.payments ?? []).some((p) => (p.refunds ?? []).length))

export const ownShippingIds = (methods: ShippingMethodRow[] | null | undefined) =>
  (methods ?? []).filter(ownShipping).map((m) => `${SHIPPING_ITEM_PREFIX}${m.id}`)

/** A tax line as the provider wrote it (its `data`: amount, TIC, certificate, origin). */
export interface TaxLineRow {
  rate?: unknown
  code?: string | null
  data?: Record<string, unknown> | null
}

export interface OrderItemRow {
  id: string
  product_id?: string | null
  unit_price?: unknown
  quantity?: unknown
  is_tax_inclusive?: boolean | null
  is_giftcard?: boolean | null
  adjustments?: Adjustment[] | null
  tax_lines?: TaxLineRow[] | null
  tax_total?: unknown
  total?: unknown
}

/** Which claim, exchange or return a shipping method belongs to (on the method or its detail). */
export interface ShippingLinks {
  claim_id?: string | null
  exchange_id?: string | null
  return_id?: string | null
}

export interface ShippingMethodRow extends ShippingLinks {
  id: string
  amount?: unknown
  is_tax_inclusive?: boolean | null
  total?: unknown
  tax_total?: unknown
  discount_subtotal?: unknown
  tax_lines?: TaxLineRow[] | null
  adjustments?: Adjustment[] | null
  detail?: ShippingLinks | null
}

export type AddressRow = MedusaAddressLike & { province?: string | null }

/** An exchange as filing reads it (EXCHANGE_FIELDS): its new items and its returned items. */
export interface ExchangeRow {
  id: string
  order_id: string
  created_at: string | Date
  canceled_at?: string | Date | null
  additional_items?: { item_id: string }[] | null
  return?: { items?: ChangeItemRow[] | null } | null
}

/** An order as filing reads it (order-reader.ts: ORDER_FIELDS). */
export interface OrderRow {
  id: string
  display_id?: number | null
  created_at: string | Date
  currency_code: string
  customer_id?: string | null
  sales_channel_id?: string | null
  canceled_at?: string | Date | null
  status?: string | null
  tax_total?: unknown
  total?: unknown
  cart?: { id: string } | null
  shipping_address?: AddressRow | null
  items?: OrderItemRow[] | null
  shipping_methods?: ShippingMethodRow[] | null
  fulfillments?: { created_at?: string | Date | null }[] | null
  payment_collections?: { payments?: { captured_at?: string | Date | null; refunds?: { id: string }[] | null }[] | null }[] | null
}

export interface ChangeItemRow {
  item_id: string
  quantity?: unknown
  received_quantity?: unknown
}

/** A claim as filing reads it (CLAIM_FIELDS): its new items, its claimed units (claim items, or its return's items). */
export interface ClaimRow extends ExchangeRow {
  type?: string | null
  claim_items?: ChangeItemRow[] | null
}

/** A return as filing, backfill and reconciliation read it (RETURN_FIELDS). */
export interface ReturnRow {
  id: string
  order_id: string
  claim_id?: string | null
  exchange_id?: string | null
  canceled_at?: string | Date | null
  received_at?: string | Date | null
  metadata?: unknown
  items?: ChangeItemRow[] | null
}
