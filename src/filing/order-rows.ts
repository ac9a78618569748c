/**
 * The shapes of the Medusa rows filing reads through Query (`core/query.ts`: Query's rows are
 * `any[]` in a plugin, so each read names the fields it asked for). Amounts are `unknown`: Medusa
 * answers numbers, strings, BigNumber instances or raw `{ value }` (read with src/money's `amountString`).
 */

/** A tax line as the provider wrote it (its `data`: amount, TIC, certificate, origin). */
export interface TaxLineRow {
  rate?: unknown
  code?: string | null
  data?: Record<string, unknown> | null
}

export interface AdjustmentRow {
  amount?: unknown
  is_tax_inclusive?: boolean | null
}

export interface OrderItemRow {
  id: string
  product_id?: string | null
  variant_id?: string | null
  unit_price?: unknown
  quantity?: unknown
  is_tax_inclusive?: boolean | null
  /** a Medusa gift card line (left out of the tax context at checkout) */
  is_giftcard?: boolean | null
  adjustments?: AdjustmentRow[] | null
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
  adjustments?: AdjustmentRow[] | null
  detail?: ShippingLinks | null
}

export interface AddressRow {
  country_code?: string | null
  province?: string | null
  province_code?: string | null
  address_1?: string | null
  address_2?: string | null
  city?: string | null
  postal_code?: string | null
}

/** A claim's or an exchange's new items (their order item ids). */
export interface AddedItemsRow {
  id: string
  canceled_at?: string | Date | null
  additional_items?: { item_id: string }[] | null
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

/** The order with its claims, exchanges and returns (queried apart: the order entity has no relation to them). */
export interface LoadedOrder extends OrderRow {
  claims?: ClaimRow[] | null
  exchanges?: ExchangeRow[] | null
  returns?: ReturnRow[] | null
}

/** An item of a return, a claim or an exchange (its order item and quantities). */
export interface ChangeItemRow {
  item_id: string
  quantity?: unknown
  received_quantity?: unknown
}

/** A claim as filing reads it (CLAIM_FIELDS): its new items, its claimed units (claim items, or its return's items). */
export interface ClaimRow extends AddedItemsRow {
  order_id: string
  type?: string | null
  created_at: string | Date
  claim_items?: ChangeItemRow[] | null
  return?: { items?: ChangeItemRow[] | null } | null
}

/** An exchange as filing reads it (EXCHANGE_FIELDS): its new items and its returned items. */
export interface ExchangeRow extends AddedItemsRow {
  order_id: string
  created_at: string | Date
  return?: { items?: ChangeItemRow[] | null } | null
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
