import { z } from "zod"

/**
 * What the tax-line context hooks put under `additional_context.sales_tax`: the whole cart as far
 * as tax is concerned. Amounts are decimal strings (Medusa's BigNumber values, exactly).
 */
const Decimal = z.union([z.string(), z.number()]).transform((v) => String(v)).pipe(z.string().regex(/^-?\d+(\.\d+)?(e[-+]?\d+)?$/i, "must be a decimal number"))

export const SnapshotItem = z.object({
  id: z.string(),
  product_id: z.string().nullish(),
  variant_id: z.string().nullish(),
  quantity: Decimal,
  unit_price: Decimal,
  /** Sum of the line's adjustment amounts (promotions), tax-exclusive. */
  discount: Decimal.default("0"),
  is_tax_inclusive: z.boolean().default(false),
  /** A tax-inclusive adjustment on the line. */
  has_tax_inclusive_discount: z.boolean().default(false),
  tic: z.number().int().nonnegative().nullish(),
  tic_source: z.string().nullish(),
})
export type SnapshotItem = z.infer<typeof SnapshotItem>

export const SnapshotShipping = z.object({
  id: z.string(),
  shipping_option_id: z.string().nullish(),
  amount: Decimal,
  discount: Decimal.default("0"),
  is_tax_inclusive: z.boolean().default(false),
  has_tax_inclusive_discount: z.boolean().default(false),
})
export type SnapshotShipping = z.infer<typeof SnapshotShipping>

export const CartSnapshot = z.object({
  v: z.literal(1),
  /** Medusa cart (or order) id: becomes the service cartId. */
  cart_id: z.string().min(1),
  customer_id: z.string().nullish(),
  /**
   * The customer whose exemption certificates may be applied, set by the hook ONLY when the
   * request is authenticated as the cart's customer (or an admin works on the customer's draft
   * order / exempt order): see src/workflows/hooks/request-actor.ts. Absent: taxed as a guest.
   */
  exemption_customer_id: z.string().nullish(),
  /** Why `exemption_customer_id` was trusted (recorded on the tax lines). */
  exemption_basis: z.enum(["authenticated_customer", "admin_order", "admin_draft_order"]).nullish(),
  currency_code: z.string().min(3),
  items: z.array(SnapshotItem),
  shipping_methods: z.array(SnapshotShipping).default([]),
  /** "hook" when built by the plugin's hook, "lines" when rebuilt from getTaxLines' own input. */
  source: z.enum(["hook", "lines"]).default("hook"),
})
export type CartSnapshot = z.infer<typeof CartSnapshot>
export type CartSnapshotInput = z.input<typeof CartSnapshot>
