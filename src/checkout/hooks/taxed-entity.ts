/**
 * The cart or order as the tax-line context handler reads it (TAXED_FIELDS), in a file of its own
 * so that the request scope that carries a read cart (cart-refresh-scope.ts) and the handler that
 * reads it both import it without importing each other.
 */

/** A promotion adjustment as read (amount: Medusa's BigNumber value, a number or a string). */
export interface Adjustment {
  amount?: unknown
  is_tax_inclusive?: boolean | null
}

/** A cart or order line as readTaxedEntity reads it. */
export interface TaxedItem {
  id: string
  product_id?: string | null
  variant_id?: string | null
  quantity?: unknown
  unit_price?: unknown
  is_tax_inclusive?: boolean | null
  is_giftcard?: boolean | null
  adjustments?: readonly Adjustment[] | null
  /** an order line's order_item (ORDER_ITEM_QUANTITY) */
  detail?: { quantity?: unknown } | null
  tax_lines?: { data?: Record<string, unknown> | null; code?: string | null }[] | null
}

export interface TaxedShipping {
  id: string
  shipping_option_id?: string | null
  amount?: unknown
  is_tax_inclusive?: boolean | null
  adjustments?: readonly Adjustment[] | null
}

/** A cart or an order with the fields the provider needs (TAXED_FIELDS; an order's too). */
export interface TaxedEntity {
  id: string
  currency_code: string
  customer_id?: string | null
  sales_channel_id?: string | null
  is_draft_order?: boolean | null
  customer?: { has_account?: boolean | null } | null
  items?: TaxedItem[] | null
  shipping_methods?: TaxedShipping[] | null
}
