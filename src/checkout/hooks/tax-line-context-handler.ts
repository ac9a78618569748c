/**
 * The plugin's tax-line context handler, public as `medusa-sales-tax/workflows/hooks/tax-line-context-handler`
 * (package.json exports) for host apps; importing it registers nothing (src/workflows/hooks/tax-line-context.ts does).
 */
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { CONTEXT_KEY, DEFAULT_TIC } from "../../constants"
import type { CartSnapshotInput } from "../../service/cart/context"
import { graph } from "../../query"
import { amountString, isAmount } from "../../money/amount"
import { cachedProductTics } from "../../service/tics/product-tic-cache"
import { getPluginOptions } from "../../options"
import { exemptionIdentity, preparedTaxCart, requestScope } from "./request-actor"
import { resolveLineLocations, type LineLocations } from "../origins/origin-locations"
import {
  taxLineContextOutput,
  type Adjustment,
  type TaxLineContext,
  type TaxLineContextHandler,
  type NewLine,
  type TaxLineHookInput,
  type TaxedEntity,
  type TaxedShipping,
} from "../../medusa/taxed-entity"
import { runtimeOf, runtimeSlot, salesTaxRuntime, type SalesTaxRuntime } from "../../runtime"
import { appContainer, linesOwner } from "../../medusa/tax-line-context-fallback"
import { recordedData } from "../../medusa/tax-line-record"

export * from "../../medusa/taxed-entity"

/** A line's snapshot fields of its price and discounts (all, and the tax-inclusive ones), and its stock location. */
function pricing(l: { is_tax_inclusive?: boolean | null; adjustments?: readonly Adjustment[] | null }, location: string | undefined) {
  const all = (l.adjustments ?? []).filter((a) => a?.amount !== null && a?.amount !== undefined)
  const inclusive = all.filter((a) => a.is_tax_inclusive)
  const sum = (xs: readonly Adjustment[]) => xs.reduce((t, a) => t.plus(amountString(a.amount)), MathBN.convert(0)).toString()
  return {
    discount: sum(all),
    is_tax_inclusive: !!l.is_tax_inclusive,
    has_tax_inclusive_discount: inclusive.length > 0,
    inclusive_discount: sum(inclusive),
    ...(location !== undefined ? { origin_location_id: location } : {}),
  }
}

/** The plugin's default TIC (options are parsed once per configuration, not per cart change; without the plugin's options, DEFAULT_TIC). */
function defaultTicOf(container: MedusaContainer): number {
  try {
    return getPluginOptions(container).defaultTic
  } catch {
    return DEFAULT_TIC
  }
}

/** Pure: a cart line's quantity, or an order line's (from its `detail`: see ORDER_FIELDS). */
export function lineQuantity(i: { quantity?: unknown; detail?: { quantity?: unknown } | null }): unknown {
  return i.quantity ?? i.detail?.quantity
}

/** What pricing() reads of a line (an item or a shipping method). */
const PRICING_FIELDS = ["is_tax_inclusive", "adjustments.amount", "adjustments.is_tax_inclusive"]

/** The fields of a cart (or an order) the snapshot is built from. */
export const TAXED_FIELDS: readonly string[] = [
  "id",
  "currency_code",
  "customer_id",
  "sales_channel_id",
  ...["id", "product_id", "variant_id", "quantity", "unit_price", "is_giftcard", ...PRICING_FIELDS].map((f) => `items.${f}`),
  ...["id", "shipping_option_id", "amount", ...PRICING_FIELDS].map((f) => `shipping_methods.${f}`),
]

/** An order's fields: who may be exempt, its lines' quantities (on `order_item`: `items.quantity` finds none), and TAXED_FIELDS. */
const ORDER_FIELDS = [
  "is_draft_order",
  "customer.has_account",
  ...["data", "tax_rate_id", "code"].map((f) => `items.tax_lines.${f}`),
  "items.detail.quantity",
  ...TAXED_FIELDS,
]

/** Reads a cart or an order with the fields the provider needs; undefined when there is none with that id. */
async function readTaxedEntity(container: MedusaContainer, entity: "cart" | "order", id: string): Promise<TaxedEntity | undefined> {
  const fields = entity === "order" ? ORDER_FIELDS : TAXED_FIELDS
  const [row] = await graph<TaxedEntity>(container, { entity, fields, filters: { id } })
  return row
}

/** The cart as the provider needs it, read fresh, or as the cart-refresh hook read it for this tax run (`prepared`). */
export async function buildCartSnapshot(
  container: MedusaContainer,
  cartId: string,
  prepared?: TaxedEntity | null,
): Promise<CartSnapshotInput | undefined> {
  const cart = prepared && prepared.id === cartId ? prepared : await readTaxedEntity(container, "cart", cartId)
  return cart && snapshotFromEntity(container, cart, "cart")
}

/** Pure: whether an order's charged tax lines record a certificate applied under a verified identity. */
export function checkedOutExempt(order: {
  items?: { tax_lines?: { tax_rate_id?: string | null; data?: Record<string, unknown> | null }[] | null }[] | null
}): boolean {
  return (order.items ?? []).some((i) =>
    (i.tax_lines ?? []).map(recordedData).some((d) => typeof d?.exemption_id === "string" && typeof d?.exemption_basis === "string"),
  )
}

/** A new order line (an edit's, an exchange's) has no quantity before confirmation: quoted for one unit (Medusa keeps only the rate). */
export function newLineForSnapshot<T extends { quantity?: unknown }>(item: T): T & { quantity: unknown } {
  const q = item.quantity
  const known = isAmount(q) && MathBN.convert(q).gt(0)
  return { ...item, quantity: known ? q : 1 }
}

/** Same for an order (order edits, exchanges: updateOrderTaxLinesWorkflow). */
export async function buildOrderSnapshot(
  container: MedusaContainer,
  orderId: string,
  items?: readonly NewLine[] | null,
  shippingMethods?: readonly TaxedShipping[] | null,
): Promise<CartSnapshotInput | undefined> {
  const order = await readTaxedEntity(container, "order", orderId)
  if (!order) return undefined
  // a run for some lines only (an edit's, exchange's or claim's) quotes those alone: the others get no quantity
  if (items?.length) order.items = (order.items ?? []).map((i) => ({ ...i, quantity: undefined, detail: undefined }))
  const known = new Set((order.items ?? []).map((i) => i.id))
  for (const it of items ?? []) {
    if (it?.id && !known.has(it.id)) (order.items ??= []).push(newLineForSnapshot({ ...it, id: it.id }))
  }
  const knownSm = new Set((order.shipping_methods ?? []).map((s) => s.id))
  for (const sm of shippingMethods ?? []) if (sm?.id && !knownSm.has(sm.id)) (order.shipping_methods ??= []).push(sm)
  return snapshotFromEntity(container, order, "order")
}

async function snapshotFromEntity(container: MedusaContainer, e: TaxedEntity, kind: "cart" | "order"): Promise<CartSnapshotInput> {
  const actor = requestScope(runtimeOf(container))?.actor()
  const identity = exemptionIdentity(kind, kind === "order" ? { ...e, checkedOutExempt: checkedOutExempt(e) } : e, actor)
  const items = (e.items ?? []).filter((i) => !i.is_giftcard)
  const defaultTic = defaultTicOf(container)
  const productIds = items.flatMap((i) => (i.product_id ? [i.product_id] : []))
  const [tics, where] = await Promise.all([
    // TIC per product id (product → type → category → default), cached across requests
    cachedProductTics(container, productIds, defaultTic),
    // never fails the snapshot
    resolveLineLocations(container, e).catch((): LineLocations | null => null),
  ])
  return {
    v: 1,
    cart_id: e.id,
    customer_id: e.customer_id ?? null,
    ...(e.sales_channel_id ? { sales_channel_id: e.sales_channel_id } : {}),
    currency_code: e.currency_code,
    items: items.map((i) => {
      const t = i.product_id ? tics.get(i.product_id) : undefined
      return {
        id: i.id,
        product_id: i.product_id ?? null,
        variant_id: i.variant_id ?? null,
        quantity: amountString(lineQuantity(i)),
        unit_price: amountString(i.unit_price),
        ...pricing(i, where?.items.get(i.id)),
        tic: t?.tic ?? defaultTic,
        tic_source: t?.source ?? "default",
      }
    }),
    shipping_methods: (e.shipping_methods ?? []).map((s) => ({
      id: s.id,
      shipping_option_id: s.shipping_option_id ?? null,
      amount: amountString(s.amount),
      ...pricing(s, where?.shipping.get(s.id)),
    })),
    ...(where && Object.keys(where.locations).length ? { locations: where.locations } : {}),
    source: "hook",
    ...(identity ? { exemption_customer_id: identity.customerId, exemption_basis: identity.basis } : {}),
  }
}

/** For a Medusa without the setTaxLineContext hooks: the snapshot of the lines' cart or order, and its gift-card lines. */
export async function snapshotOfLines(
  itemIds: readonly string[],
  shippingIds: readonly string[],
): Promise<{ snapshot: CartSnapshotInput; giftCards: readonly string[] } | undefined> {
  const request = requestScope()
  const container = request?.container ?? appContainer()
  if (!container) return undefined
  const owner = await linesOwner(container, itemIds, shippingIds, request?.path)
  if (!owner) return undefined
  const snapshot =
    owner.entity === "cart"
      ? await buildCartSnapshot(container, owner.id, preparedTaxCart(owner.id, runtimeOf(container)))
      : await buildOrderSnapshot(container, owner.id, owner.newItems, owner.newShipping)
  return snapshot && { snapshot, giftCards: owner.giftCards ?? [] }
}

/** The plugin's setTaxLineContext handler: cart workflows pass `{ cart }`, the order workflow `{ order, items, shipping_methods }`. */
export async function salesTaxTaxLineContext(
  input: TaxLineHookInput,
  { container }: { container: MedusaContainer },
): Promise<StepResponse<TaxLineContext>> {
  let snapshot: CartSnapshotInput | undefined
  try {
    const cartId = input?.cart?.id
    const orderId = input?.order?.id
    if (cartId) snapshot = await buildCartSnapshot(container, cartId, preparedTaxCart(cartId, runtimeOf(container)))
    else if (orderId) snapshot = await buildOrderSnapshot(container, orderId, input.items, input.shipping_methods)
  } catch (e) {
    // never break a cart or order flow over the context: the provider then quotes from the lines
    try {
      const logger = container.resolve<{ warn(m: string): void }>(ContainerRegistrationKeys.LOGGER)
      logger.warn(`sales-tax: tax-line context could not be built (${(e as Error)?.message ?? e})`)
    } catch {
      /* no logger */
    }
  }
  return new StepResponse(snapshot ? { [CONTEXT_KEY]: snapshot } : {})
}

/** One handler out of several, their results merged (later ones win on clashes, but `sales_tax` stays the plugin's). */
export function composeTaxLineContext(
  ...handlers: TaxLineContextHandler[]
): (input: TaxLineHookInput, ctx: { container: MedusaContainer }) => Promise<StepResponse<TaxLineContext>> {
  return async (input, ctx) => {
    const results = await Promise.all(handlers.map(async (h) => taxLineContextOutput(await h(input, ctx))))
    const merged: TaxLineContext = Object.assign({}, ...results)
    const ours = results.filter((r) => r && CONTEXT_KEY in r).find((r) => r[CONTEXT_KEY] !== undefined)
    if (ours) merged[CONTEXT_KEY] = ours[CONTEXT_KEY]
    return new StepResponse(merged)
  }
}

/** The handlers a host app added, and the plugin's handler once Medusa accepted it on updateTaxLinesWorkflow's hook. */
const handlers = runtimeSlot("taxLineContextHandlers", () => ({
  added: [] as TaxLineContextHandler[],
  onUpdateTaxLines: undefined as TaxLineContextHandler | undefined,
}))

/** Lets a host app add its own tax-line context without registering the hook (which can have one handler only). */
export function addTaxLineContextHandler(handler: TaxLineContextHandler): void {
  handlers().added.push(handler)
}

/** What the plugin registers: its own handler composed with the host's added ones. */
export const registeredTaxLineContext = (input: TaxLineHookInput, ctx: { container: MedusaContainer }) =>
  composeTaxLineContext(salesTaxTaxLineContext, ...handlers().added)(input, ctx)

/** Whether a host added handlers (they may read more of the hook input than the plugin's). */
export function hasAddedTaxLineContextHandlers(): boolean {
  return handlers().added.length > 0
}

export function updateTaxLinesContextHandler(rt: SalesTaxRuntime = salesTaxRuntime()): TaxLineContextHandler | undefined {
  return handlers(rt).onUpdateTaxLines
}
/** Called by tax-line-context.ts once Medusa accepted `handler` on updateTaxLinesWorkflow's hook. */
export function rememberUpdateTaxLinesContextHandler(handler: TaxLineContextHandler, rt: SalesTaxRuntime = salesTaxRuntime()): void {
  handlers(rt).onUpdateTaxLines = handler
}
