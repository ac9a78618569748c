/** The cart a quote is made of: the snapshot the tax-line hooks put in the context, else rebuilt from Medusa's lines. */
import type { ItemTaxCalculationLine, ShippingTaxCalculationLine, TaxCalculationContext } from "@medusajs/framework/types"
import { CONTEXT_KEY } from "../../constants"
import { cartHash } from "../../service/cart/build-service-cart"
import { parseCartSnapshot, type CartSnapshot, type SnapshotItem, type SnapshotShipping } from "../../service/cart/context"

/** Why a snapshot was rebuilt from the lines: the context had none, or an invalid one. */
export type NoHook = "absent" | "invalid"

/** Pure: the cart as the hook described it (plus the lines it did not see), else rebuilt from the lines (`onNoHook` told). */
export function snapshotFor(
  itemLines: readonly ItemTaxCalculationLine[],
  shippingLines: readonly ShippingTaxCalculationLine[],
  context: TaxCalculationContext,
  onNoHook?: (why: NoHook) => void,
): CartSnapshot {
  const raw = (context.additional_context as Record<string, unknown> | undefined)?.[CONTEXT_KEY]
  const parsed = raw === undefined ? undefined : parseCartSnapshot(raw)
  if (parsed?.success) {
    const snap = parsed.data
    // lines the hook did not see (a host's own items)
    addMissing(snap.items, itemLines, (l) => l.line_item.id, itemFromLine)
    addMissing(snap.shipping_methods, shippingLines, (l) => l.shipping_line.id, shippingFromLine)
    return snap
  }
  onNoHook?.(parsed && !parsed.success ? "invalid" : "absent")
  const ids = [...itemLines.map((l) => l.line_item.id), ...shippingLines.map((l) => l.shipping_line.id)].sort()
  return {
    v: 1,
    cart_id: `lines_${cartHash({ ids }, "").slice(0, 40)}`,
    customer_id: context.customer?.id ?? null,
    currency_code: itemLines[0]?.line_item.currency_code ?? shippingLines[0]?.shipping_line.currency_code ?? "usd",
    items: itemLines.map((l) => itemFromLine(l)),
    shipping_methods: (context.shipping_methods ?? []).map((m) => plainShipping(m.id, m.shipping_option_id, m.amount)),
    source: "lines",
  }
}

/** Appends the lines `entries` lacks; Medusa passes the snapshot's order: sets only when one is out of place. */
function addMissing<T extends { id: string }, L>(entries: T[], lines: readonly L[], idOf: (l: L) => string, make: (l: L) => T): void {
  if (lines.every((l, k) => entries[k]?.id === idOf(l))) return
  const known = new Set(entries.map((e) => e.id))
  for (const l of lines) if (!known.has(idOf(l))) entries.push(make(l))
}

/** The context with the snapshot `read` finds when the hooks put none, and the item lines less its gift cards (as Medusa does). */
export async function contextWithLinesSnapshot(
  itemLines: ItemTaxCalculationLine[],
  shippingLines: readonly ShippingTaxCalculationLine[],
  context: TaxCalculationContext,
  read: (itemIds: string[], shippingIds: string[]) => Promise<{ snapshot: unknown; giftCards?: readonly string[] } | undefined>,
  warn: (m: string) => void,
): Promise<{ context: TaxCalculationContext; itemLines: ItemTaxCalculationLine[] }> {
  const extra = context.additional_context as Record<string, unknown> | undefined
  if (extra?.[CONTEXT_KEY] !== undefined) return { context, itemLines }
  let found: Awaited<ReturnType<typeof read>>
  try {
    found = await read(
      itemLines.map((l) => l.line_item.id),
      shippingLines.map((l) => l.shipping_line.id),
    )
  } catch (e) {
    warn(`sales-tax: the cart of the tax lines could not be read (${(e as Error)?.message ?? e}); quoted from the lines`)
    return { context, itemLines }
  }
  if (!found) return { context, itemLines }
  const giftCards = new Set(found.giftCards)
  return {
    context: { ...context, additional_context: { ...extra, [CONTEXT_KEY]: found.snapshot } },
    itemLines: giftCards.size ? itemLines.filter((l) => !giftCards.has(l.line_item.id)) : itemLines,
  }
}

export function noHookWarning(why: NoHook): string {
  return `sales-tax: no cart context from the tax-line hooks${why === "invalid" ? " (invalid)" : ""}: discounts are not seen, items and shipping are quoted separately, and tax-inclusive prices are quoted as tax-exclusive (Medusa does not tell a tax provider which prices include tax). See docs/provider.md (hook composition).`
}

/** Pure: a snapshot item from Medusa's item line (no discount, tax-exclusive, no TIC). */
export function itemFromLine(l: ItemTaxCalculationLine): SnapshotItem {
  return {
    id: l.line_item.id,
    product_id: l.line_item.product_id,
    quantity: String(l.line_item.quantity ?? 0),
    unit_price: String(l.line_item.unit_price ?? 0),
    discount: "0",
    is_tax_inclusive: false,
    has_tax_inclusive_discount: false,
    tic: null,
  }
}

/** Pure: a snapshot shipping method from Medusa's shipping line (no discount, tax-exclusive). */
export function shippingFromLine(l: ShippingTaxCalculationLine): SnapshotShipping {
  return plainShipping(l.shipping_line.id, l.shipping_line.shipping_option_id, l.shipping_line.unit_price)
}

function plainShipping(id: string, optionId: string | null | undefined, amount: unknown): SnapshotShipping {
  return {
    id,
    shipping_option_id: optionId,
    amount: String(amount ?? 0),
    discount: "0",
    is_tax_inclusive: false,
    has_tax_inclusive_discount: false,
  }
}
