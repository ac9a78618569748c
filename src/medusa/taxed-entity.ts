/** Medusa's cart and order rows as the tax-line context reads them, and its setTaxLineContext hooks' shape. */
import type { MedusaContainer } from "@medusajs/framework/types"

/** A promotion adjustment as read (amount: Medusa's BigNumber value, a number or a string). */
export interface Adjustment {
  amount?: unknown
  is_tax_inclusive?: boolean | null
}

export interface TaxedItem {
  id: string
  product_id?: string | null
  variant_id?: string | null
  quantity?: unknown
  unit_price?: unknown
  is_tax_inclusive?: boolean | null
  is_giftcard?: boolean | null
  adjustments?: readonly Adjustment[] | null
  /** an order line's order_item (`items.detail.quantity` in tax-line-context-handler.ts's ORDER_FIELDS) */
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

/** A cart or an order with the fields the provider needs (TAXED_FIELDS). */
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

export type TaxLineContext = Record<string, unknown>

/** A line the order workflow passes (an edit's or an exchange's new line): at least its id. */
export type NewLine = Partial<TaxedItem> & { id?: string | null }

/** What the setTaxLineContext hooks pass: a `cart` or an `order`, its `items` and `shipping_methods`. */
export interface TaxLineHookInput {
  cart?: { id?: string | null } | null
  order?: { id?: string | null } | null
  items?: readonly NewLine[] | null
  shipping_methods?: readonly TaxedShipping[] | null
  [key: string]: unknown
}

export type TaxLineContextHandler = (input: TaxLineHookInput, ctx: { container: MedusaContainer }) => Promise<unknown> | unknown

/** A handler's result as the hook hands it on: a StepResponse's output (of any copy of the SDK), or the value itself. */
export function taxLineContextOutput(v: unknown): TaxLineContext {
  if (v && typeof v === "object" && "__type" in v && "output" in v) return ((v as { output?: unknown }).output ?? {}) as TaxLineContext
  return (v ?? {}) as TaxLineContext
}
