/**
 * The plugin's tax-line context handler, WITHOUT registering it (importing this file has no side
 * effect). `tax-line-context.ts` beside it registers the handler on Medusa's workflows; a host app
 * that needs its own context adds it with `addTaxLineContextHandler`, or (when it disabled our
 * registration) registers `composeTaxLineContext(salesTaxTaxLineContext, its own)` itself.
 */
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import { CONTEXT_KEY } from "../../constants"
import type { CartSnapshotInput } from "../../service/cart/context"
import { graph } from "../../query"
import { amountString, isAmount } from "../../money"
import { cachedProductTics } from "../../service/tics/product-tic-cache"
import { findRawPluginOptions, resolvePluginOptions } from "../../options"
import { DEFAULT_TIC } from "../../constants"
import { exemptionIdentity, requestScope } from "./request-actor"
import { resolveLineLocations, type LineLocations } from "../origins/origin-locations"
import { preparedTaxCart } from "./cart-refresh-scope"
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

function sumAdjustments(adjs: readonly Adjustment[] | null | undefined): { total: string; taxInclusive: boolean; inclusiveTotal: string } {
  let t = MathBN.convert(0)
  let it = MathBN.convert(0)
  let incl = false
  for (const a of adjs ?? []) {
    if (a?.amount === null || a?.amount === undefined) continue
    t = t.plus(amountString(a.amount))
    if (a.is_tax_inclusive) {
      incl = true
      it = it.plus(amountString(a.amount))
    }
  }
  return { total: t.toString(), taxInclusive: incl, inclusiveTotal: it.toString() }
}

/** The plugin's default TIC per app configuration (options are parsed once per configuration, not per cart change). */
const defaultTics = runtimeSlot("defaultTics", () => new WeakMap<object, number>())
function defaultTicOf(container: MedusaContainer): number {
  try {
    const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
    const memo = defaultTics(runtimeOf(container))
    const got = memo.get(config)
    if (got !== undefined) return got
    const raw = findRawPluginOptions(config)
    const tic = raw === undefined ? DEFAULT_TIC : resolvePluginOptions(raw).defaultTic
    memo.set(config, tic)
    return tic
  } catch {
    return DEFAULT_TIC
  }
}

/**
 * TIC per product id, resolved product → type → category (nearest ancestor) → default
 * (src/tics/product-tics.ts), kept across requests (product-tic-cache.ts).
 */
export async function resolveProductTics(
  container: MedusaContainer,
  productIds: string[],
): Promise<Record<string, { tic: number; source: string }>> {
  const got = await cachedProductTics(container, productIds, defaultTicOf(container))
  const out: Record<string, { tic: number; source: string }> = {}
  for (const [id, t] of got) out[id] = { tic: t.tic, source: t.source }
  return out
}

/**
 * An order line's quantity: it lives on `order_item`, not on `order_line_item` (where query.graph
 * maps `items.quantity`, and finds none); without it a draft order's lines would get no tax line.
 */
const ORDER_ITEM_QUANTITY = "items.detail.quantity"

/** Pure: a cart line's quantity, or an order line's (from its `detail`, see ORDER_ITEM_QUANTITY). */
export function lineQuantity(i: { quantity?: unknown; detail?: { quantity?: unknown } | null }): unknown {
  return i.quantity ?? i.detail?.quantity
}

/** The fields of a cart (or an order) the snapshot is built from. */
export const TAXED_FIELDS = [
  "id",
  "currency_code",
  "customer_id",
  "sales_channel_id",
  "items.id",
  "items.product_id",
  "items.variant_id",
  "items.quantity",
  "items.unit_price",
  "items.is_tax_inclusive",
  "items.is_giftcard",
  "items.adjustments.amount",
  "items.adjustments.is_tax_inclusive",
  "shipping_methods.id",
  "shipping_methods.shipping_option_id",
  "shipping_methods.amount",
  "shipping_methods.is_tax_inclusive",
  "shipping_methods.adjustments.amount",
  "shipping_methods.adjustments.is_tax_inclusive",
] as const

/** An order's fields besides TAXED_FIELDS: who may be exempt (see request-actor.ts) and its lines' quantities. */
const ORDER_FIELDS = [
  "is_draft_order",
  "customer.has_account",
  "items.tax_lines.data",
  "items.tax_lines.tax_rate_id",
  "items.tax_lines.code",
  ORDER_ITEM_QUANTITY,
] as const

/** Reads a cart or an order with the fields the provider needs; undefined when there is none with that id. */
async function readTaxedEntity(container: MedusaContainer, entity: "cart" | "order", id: string): Promise<TaxedEntity | undefined> {
  const rows = await graph<TaxedEntity>(container, {
    entity,
    fields: entity === "order" ? [...ORDER_FIELDS, ...TAXED_FIELDS] : TAXED_FIELDS,
    filters: { id },
  })
  return rows[0]
}

/** The cart as the provider needs it, read fresh, or as the cart-refresh hook read it for this tax run (`prepared`). */
export async function buildCartSnapshot(
  container: MedusaContainer,
  cartId: string,
  prepared?: TaxedEntity | null,
): Promise<CartSnapshotInput | undefined> {
  const cart = prepared && prepared.id === cartId ? prepared : await readTaxedEntity(container, "cart", cartId)
  if (!cart) return undefined
  return {
    ...(await snapshotFromEntity(container, cart, cart.customer_id)),
    ...exemptionFields(exemptionIdentity("cart", cart, requestScope(runtimeOf(container))?.actor())),
  }
}

function exemptionFields(id: ReturnType<typeof exemptionIdentity>): Pick<CartSnapshotInput, "exemption_customer_id" | "exemption_basis"> {
  return id ? { exemption_customer_id: id.customerId, exemption_basis: id.basis } : {}
}

/** Pure: whether an order's charged tax lines record a certificate applied under a verified identity. */
export function checkedOutExempt(order: {
  items?: { tax_lines?: { tax_rate_id?: string | null; data?: Record<string, unknown> | null }[] | null }[] | null
}): boolean {
  return (order.items ?? []).some((i) =>
    (i.tax_lines ?? []).map(recordedData).some((d) => typeof d?.exemption_id === "string" && typeof d?.exemption_basis === "string"),
  )
}

/**
 * A line the order workflow passes that is not on the order yet (an exchange's or an edit's): it
 * comes without a quantity (its `order_item` is written on confirmation, after the tax step), so it
 * is quoted for one unit; Medusa keeps only the rate and applies it to the quantity itself.
 */
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
  // a run for some lines only (an edit's, exchange's or claim's new lines) quotes those alone: the
  // order's other lines are left out (no quantity); a run for the whole order quotes every line
  if (items?.length) order.items = (order.items ?? []).map((i) => ({ ...i, quantity: undefined, detail: undefined }))
  const known = new Set((order.items ?? []).map((i) => i.id))
  for (const it of items ?? []) {
    if (it?.id && !known.has(it.id)) (order.items ??= []).push(newLineForSnapshot({ ...it, id: it.id }))
  }
  const knownSm = new Set((order.shipping_methods ?? []).map((s) => s.id))
  for (const sm of shippingMethods ?? []) if (sm?.id && !knownSm.has(sm.id)) (order.shipping_methods ??= []).push(sm)
  const identity = exemptionIdentity(
    "order",
    { ...order, checkedOutExempt: checkedOutExempt(order) },
    requestScope(runtimeOf(container))?.actor(),
  )
  return { ...(await snapshotFromEntity(container, order, order.customer_id)), ...exemptionFields(identity) }
}

async function snapshotFromEntity(
  container: MedusaContainer,
  e: TaxedEntity,
  customerId: string | null | undefined,
): Promise<CartSnapshotInput> {
  const items = (e.items ?? []).filter((i) => !i.is_giftcard)
  const [tics, where] = await Promise.all([
    resolveProductTics(
      container,
      items.flatMap((i) => (i.product_id ? [i.product_id] : [])),
    ),
    // the stock location of each line (origin per stock location); never fails the snapshot
    resolveLineLocations(container, e).catch((): LineLocations | null => null),
  ])
  const defaultTic = defaultTicOf(container)
  return {
    v: 1,
    cart_id: e.id,
    customer_id: customerId ?? null,
    // only when set: a snapshot without it is the default connection's, as before
    ...(e.sales_channel_id ? { sales_channel_id: e.sales_channel_id } : {}),
    currency_code: e.currency_code,
    items: items.map((i) => {
      const adj = sumAdjustments(i.adjustments)
      const t = i.product_id ? tics[i.product_id] : undefined
      const location = where?.items.get(i.id)
      return {
        id: i.id,
        product_id: i.product_id ?? null,
        variant_id: i.variant_id ?? null,
        quantity: amountString(lineQuantity(i)),
        unit_price: amountString(i.unit_price),
        discount: adj.total,
        is_tax_inclusive: !!i.is_tax_inclusive,
        has_tax_inclusive_discount: adj.taxInclusive,
        inclusive_discount: adj.inclusiveTotal,
        tic: t?.tic ?? defaultTic,
        tic_source: t?.source ?? "default",
        ...(location !== undefined ? { origin_location_id: location } : {}),
      }
    }),
    shipping_methods: (e.shipping_methods ?? []).map((s) => {
      const adj = sumAdjustments(s.adjustments)
      const location = where?.shipping.get(s.id)
      return {
        id: s.id,
        shipping_option_id: s.shipping_option_id ?? null,
        amount: amountString(s.amount),
        discount: adj.total,
        is_tax_inclusive: !!s.is_tax_inclusive,
        has_tax_inclusive_discount: adj.taxInclusive,
        inclusive_discount: adj.inclusiveTotal,
        ...(location !== undefined ? { origin_location_id: location } : {}),
      }
    }),
    ...(where && Object.keys(where.locations).length ? { locations: where.locations } : {}),
    source: "hook",
  }
}

/**
 * What the setTaxLineContext hooks would have put in the context, for a Medusa without them: the
 * lines' cart (or order) found on the request's container, else the app's, built as the hook builds
 * it, with the lines that are gift cards. Undefined when the owner is not found (quoted from the lines).
 */
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

/**
 * The plugin's setTaxLineContext handler for the cart workflows (input `{ cart }`) and the order
 * workflow (input `{ order, items, shipping_methods }`). Returns `{ sales_tax: snapshot }`.
 */
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

/**
 * One handler out of several: each runs with the same input, their results are merged (later
 * handlers win on key clashes, except `sales_tax`, which stays the plugin's).
 */
export function composeTaxLineContext(
  ...handlers: TaxLineContextHandler[]
): (input: TaxLineHookInput, ctx: { container: MedusaContainer }) => Promise<StepResponse<TaxLineContext>> {
  return async (input, ctx) => {
    const results = await Promise.all(handlers.map(async (h) => taxLineContextOutput(await h(input, ctx))))
    const merged: TaxLineContext = {}
    let ours: unknown
    for (const r of results) {
      Object.assign(merged, r)
      if (r && CONTEXT_KEY in r && ours === undefined) ours = r[CONTEXT_KEY]
    }
    if (ours !== undefined) merged[CONTEXT_KEY] = ours
    return new StepResponse(merged)
  }
}

/**
 * The handlers a host app added (the plugin's registered handler runs them too), and the handler
 * Medusa accepted on updateTaxLinesWorkflow's hook when the plugin registered it (else the host's
 * handler is there, and the refresh hook runs the workflow).
 */
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

/** Whether a host added handlers of its own (they may read more of the hook input than the plugin's). */
export function hasAddedTaxLineContextHandlers(): boolean {
  return handlers().added.length > 0
}

/** The handler the plugin registered on updateTaxLinesWorkflow's setTaxLineContext hook, if it did. */
export function updateTaxLinesContextHandler(rt: SalesTaxRuntime = salesTaxRuntime()): TaxLineContextHandler | undefined {
  return handlers(rt).onUpdateTaxLines
}
/** Called by tax-line-context.ts once Medusa accepted `handler` on updateTaxLinesWorkflow's hook. */
export function rememberUpdateTaxLinesContextHandler(handler: TaxLineContextHandler, rt: SalesTaxRuntime = salesTaxRuntime()): void {
  handlers(rt).onUpdateTaxLines = handler
}
