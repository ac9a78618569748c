import { z } from "zod"

// What the tax-line context hooks put under `additional_context.sales_tax`: the cart as far as tax is
// concerned, amounts as decimal strings (Medusa's BigNumber values, exactly).
const DECIMAL_RE = /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i
const Decimal = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .pipe(z.string().regex(DECIMAL_RE, "must be a decimal number"))
const BASES = ["authenticated_customer", "admin_order", "admin_draft_order"] as const
const SnapshotLocation = z.object({
  name: z.string().nullish(),
  address_1: z.string().nullish(),
  address_2: z.string().nullish(),
  city: z.string().nullish(),
  country_code: z.string().nullish(),
  province: z.string().nullish(),
  postal_code: z.string().nullish(),
})

export const SnapshotItem = z.object({
  id: z.string(),
  product_id: z.string().nullish(),
  variant_id: z.string().nullish(),
  quantity: Decimal,
  unit_price: Decimal,
  /** Sum of the line's adjustment amounts (promotions), tax-exclusive. */
  discount: Decimal.default("0"),
  is_tax_inclusive: z.boolean().default(false),
  has_tax_inclusive_discount: z.boolean().default(false),
  /** Sum of the line's tax-inclusive adjustments (part of `discount`); absent from older hooks. */
  inclusive_discount: Decimal.nullish(),
  tic: z.number().int().nonnegative().nullish(),
  tic_source: z.string().nullish(),
  origin_location_id: z.string().nullish(),
})
export type SnapshotItem = z.infer<typeof SnapshotItem>

export const SnapshotShipping = z.object({
  id: z.string(),
  shipping_option_id: z.string().nullish(),
  amount: Decimal,
  discount: Decimal.default("0"),
  is_tax_inclusive: z.boolean().default(false),
  has_tax_inclusive_discount: z.boolean().default(false),
  inclusive_discount: Decimal.nullish(),
  origin_location_id: z.string().nullish(),
})
export type SnapshotShipping = z.infer<typeof SnapshotShipping>

export const CartSnapshot = z.object({
  v: z.literal(1),
  /** Medusa cart (or order) id: becomes the service cartId. */
  cart_id: z.string().min(1),
  customer_id: z.string().nullish(),
  /** The cart's (order's) sales channel: picks its connection (option `connections`, src/service/connections.ts). */
  sales_channel_id: z.string().nullish(),
  /** Whose certificates may apply: set ONLY for the authenticated cart customer or an admin's order (hooks/request-actor.ts). */
  exemption_customer_id: z.string().nullish(),
  /** Why `exemption_customer_id` was trusted (recorded on the tax lines). */
  exemption_basis: z.enum(BASES).nullish(),
  currency_code: z.string().min(3),
  items: z.array(SnapshotItem),
  shipping_methods: z.array(SnapshotShipping).default([]),
  /** The stock locations the lines ship from, with their addresses (origins.ts decides which are usable). */
  locations: z.record(z.string(), SnapshotLocation).nullish(),
  /** "hook" when built by the plugin's hook, "lines" when rebuilt from getTaxLines' own input. */
  source: z.enum(["hook", "lines"]).default("hook"),
})
export type CartSnapshot = z.infer<typeof CartSnapshot>
export type CartSnapshotInput = z.input<typeof CartSnapshot>

/** Thrown inside fastSnapshot when the input is not the plain common case: zod decides then. */
const NOT_FAST = Symbol("not fast")
const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false
  return Object.getPrototypeOf(v) === Object.prototype
}
const str = (v: unknown, min = 0): string => {
  if (typeof v !== "string" || v.length < min) throw NOT_FAST
  return v
}
const optStr = (v: unknown): string | null | undefined => (v === undefined || v === null ? v : str(v))
const decimal = (v: unknown, dflt?: string): string => {
  if (v === undefined && dflt !== undefined) return dflt
  if (typeof v !== "string" && typeof v !== "number") throw NOT_FAST
  const s = String(v)
  if (!DECIMAL_RE.test(s)) throw NOT_FAST
  return s
}
const optDecimal = (v: unknown): string | null | undefined => (v === undefined || v === null ? v : decimal(v))
const bool = (v: unknown): boolean => {
  if (v === undefined) return false
  if (typeof v !== "boolean") throw NOT_FAST
  return v
}
const optOf = <T extends string>(v: unknown, allowed: readonly T[]): T | null | undefined => {
  if (v === undefined || v === null) return v
  if (!allowed.includes(v as T)) throw NOT_FAST
  return v as T
}

const ticValue = (tic: unknown): number | null | undefined => {
  if (!(tic === undefined || tic === null || (typeof tic === "number" && Number.isSafeInteger(tic) && tic >= 0))) throw NOT_FAST
  return tic
}

function fastItem(v: unknown): SnapshotItem {
  if (!isPlain(v)) throw NOT_FAST
  const item: SnapshotItem = {
    id: str(v.id),
    quantity: decimal(v.quantity),
    unit_price: decimal(v.unit_price),
    discount: decimal(v.discount, "0"),
    is_tax_inclusive: bool(v.is_tax_inclusive),
    has_tax_inclusive_discount: bool(v.has_tax_inclusive_discount),
  }
  // the optional keys present in `v`, in the schema's order (zod's output has a key exactly when the input has it)
  if ("product_id" in v) item.product_id = optStr(v.product_id)
  if ("variant_id" in v) item.variant_id = optStr(v.variant_id)
  if ("tic" in v) item.tic = ticValue(v.tic)
  if ("tic_source" in v) item.tic_source = optStr(v.tic_source)
  if ("inclusive_discount" in v) item.inclusive_discount = optDecimal(v.inclusive_discount)
  if ("origin_location_id" in v) item.origin_location_id = optStr(v.origin_location_id)
  return item
}
function fastShipping(v: unknown): SnapshotShipping {
  if (!isPlain(v)) throw NOT_FAST
  const ship: SnapshotShipping = {
    id: str(v.id),
    amount: decimal(v.amount),
    discount: decimal(v.discount, "0"),
    is_tax_inclusive: bool(v.is_tax_inclusive),
    has_tax_inclusive_discount: bool(v.has_tax_inclusive_discount),
  }
  if ("shipping_option_id" in v) ship.shipping_option_id = optStr(v.shipping_option_id)
  if ("inclusive_discount" in v) ship.inclusive_discount = optDecimal(v.inclusive_discount)
  if ("origin_location_id" in v) ship.origin_location_id = optStr(v.origin_location_id)
  return ship
}
const LOCATION_KEYS = new Set(Object.keys(SnapshotLocation.shape))
function locationsValue(v: unknown): CartSnapshot["locations"] {
  if (v === undefined || v === null) return v
  if (!isPlain(v)) throw NOT_FAST
  const out: NonNullable<CartSnapshot["locations"]> = {}
  for (const [id, loc] of Object.entries(v)) {
    if (!isPlain(loc)) throw NOT_FAST
    const copy: Record<string, string | null | undefined> = {}
    for (const [k, x] of Object.entries(loc)) {
      if (!LOCATION_KEYS.has(k)) continue // zod strips unknown keys too
      copy[k] = optStr(x)
    }
    out[id] = copy
  }
  return out
}
function fastSnapshot(v: unknown): CartSnapshot {
  if (!isPlain(v) || v.v !== 1 || !Array.isArray(v.items)) throw NOT_FAST
  const ships = v.shipping_methods
  if (!(ships === undefined || Array.isArray(ships))) throw NOT_FAST
  if (!(v.source === undefined || v.source === "hook" || v.source === "lines")) throw NOT_FAST
  const snap: CartSnapshot = {
    v: 1,
    cart_id: str(v.cart_id, 1),
    currency_code: str(v.currency_code, 3),
    items: v.items.map(fastItem),
    shipping_methods: ships === undefined ? [] : ships.map(fastShipping),
    source: (v.source ?? "hook") as "hook" | "lines",
  }
  if ("customer_id" in v) snap.customer_id = optStr(v.customer_id)
  if ("sales_channel_id" in v) snap.sales_channel_id = optStr(v.sales_channel_id)
  if ("exemption_customer_id" in v) snap.exemption_customer_id = optStr(v.exemption_customer_id)
  if ("exemption_basis" in v) snap.exemption_basis = optOf(v.exemption_basis, BASES)
  if ("locations" in v) snap.locations = locationsValue(v.locations)
  return snap
}

/** CartSnapshot.safeParse, with a hand-written fast path to the same output for plain well-formed snapshots. */
export function parseCartSnapshot(raw: unknown): ReturnType<typeof CartSnapshot.safeParse> {
  try {
    return { success: true, data: fastSnapshot(raw) } as ReturnType<typeof CartSnapshot.safeParse>
  } catch {
    // NOT_FAST, or anything odd on the way (a throwing getter): zod decides, and reports
    return CartSnapshot.safeParse(raw)
  }
}
