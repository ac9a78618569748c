/**
 * One tax computation per store cart mutation, inside Medusa's own cart refresh: its
 * `beforeRefreshingPaymentCollection` hook runs after the promotions (the cart's final state), in
 * the refresh's lock, before the payment collection is refreshed and the route reads its answer.
 * Medusa's refresh computes tax lines only when told to, not after a quantity change, while the
 * service's amounts depend on quantities and discounts. Acts only inside a store cart request's
 * scope (tax-resync.ts) for a cart the provider quotes, learnt from Medusa's own read in the same
 * refresh (updateCartPromotionsWorkflow's `validate` hook). A refusal thrown here fails Medusa's
 * workflow; the middleware puts the cart back. Registered by src/workflows/hooks/cart-refresh-tax.ts.
 */
import { tracingChannel } from "node:diagnostics_channel"
import type { ICartModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { StepResponse, type StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { updateTaxLinesWorkflow } from "@medusajs/medusa/core-flows"
import { graph } from "../../query"
import { runtimeSlot } from "../../runtime"
import { cartRefreshStorage, type CartRefreshScope } from "../hooks/cart-refresh-scope"
import { TAXED_FIELDS, hasAddedTaxLineContextHandlers, updateTaxLinesContextHandler } from "../hooks/tax-line-context-handler"
import { UPDATE_TAX_LINES_CART_FIELDS, directTaxRunOn, setCartTaxLines, taxRunFields, type TaxRunCart } from "../../medusa/update-tax-lines"
import { installedRefreshFields, uncoveredFields } from "../../medusa/update-tax-lines"
import { REFRESH_CART_ITEMS_SOURCE, refreshLeftTaxLines, refreshTaxWritesGuarded } from "../../medusa/update-tax-lines"
import { installedSource } from "../../medusa/installed"
import { nestedRunOn, runNested } from "../../medusa/nested-workflow"
import { RESTORE_FIELDS, cartRestoreOn, quotedCartState, type CartRow } from "../../medusa/cart-restore"

/** The part of a cart that says whether the provider quotes it. */
export interface DestinationCart {
  id: string
  region?: { automatic_taxes?: boolean | null } | null
  shipping_address?: { country_code?: string | null } | null
}

/** Pure: the provider quotes the cart (automatic taxes, a US shipping address). */
export function usTaxedOf(c: DestinationCart): boolean {
  return c.region?.automatic_taxes !== false && (c.shipping_address?.country_code ?? "").toLowerCase() === "us"
}

/** Only carts the provider quotes: automatic taxes and a US shipping address (one query). */
export async function isUsTaxedCart(scope: MedusaContainer, cartId: string): Promise<boolean> {
  const [c] = await graph<DestinationCart>(scope, {
    entity: "cart",
    fields: ["id", "region.automatic_taxes", "shipping_address.country_code"],
    filters: { id: cartId },
  })
  return !!c && usTaxedOf(c)
}

/**
 * Tracing (like Node's own `http.client.request` channels; no subscriber, no work but a flag
 * check): the plugin's phases of a store cart request run in spans of the TracingChannel
 * STORE_CART_TRACE, whose context says what the phase did. A subscriber (an APM, bench/store.bench.ts,
 * integration-tests/http/checkout-block.spec.ts) binds a store to `start` to attribute what runs inside:
 *   address-step address-step.ts, before POST /store/carts/:id giving a US address: its refusal check
 *   remember     tax-resync.ts, before the route: the plugin's lock of the cart's change and, when
 *                the cart may be taxed, its read for the restore (`read`)
 *   refresh-hook here, inside Medusa's cart refresh: whether the provider quotes the cart (`taxed`)
 *                and, when it does, the tax run
 *   after-route  tax-resync.ts, after a route without that refresh: the same, then the answer read again
 *   restore      cart-restore.ts's put-back of a refused change
 */
export const STORE_CART_TRACE = "medusa-sales-tax:store-cart"
export interface StoreCartSpan {
  phase: "address-step" | "remember" | "refresh-hook" | "after-route" | "restore"
  cartId: string
  /** remember: whether the cart was read for its restore */
  read?: boolean
  /** refresh-hook, after-route: whether the provider quotes the cart */
  taxed?: boolean
}
const storeCartTrace = tracingChannel<unknown, StoreCartSpan>(STORE_CART_TRACE)
/** Runs `fn` in a span of STORE_CART_TRACE (directly when nothing subscribes). */
export function storeCartSpan<T>(ctx: StoreCartSpan, fn: () => Promise<T>): Promise<T> {
  return storeCartTrace.hasSubscribers ? storeCartTrace.tracePromise(fn, ctx) : fn()
}

/** The one read of the cart for a workflow run: what updateTaxLinesWorkflow and the context handler read. */
const WORKFLOW_RUN_CART_FIELDS = [...new Set<string>([...UPDATE_TAX_LINES_CART_FIELDS, ...TAXED_FIELDS])]

/** The direct run's read: its own fields and, while the restore is on, the restore's (not its tax lines: the run writes them). */
function directRunFields(): string[] {
  const own = taxRunFields(hasAddedTaxLineContextHandlers(), TAXED_FIELDS)
  if (!cartRestoreOn()) return own
  // nor its payment collection: one may be made before the next change (that one reads it)
  return [...new Set<string>([...own, ...RESTORE_FIELDS.filter((f) => !f.includes("tax_lines") && !f.startsWith("payment_collection"))])]
}

/**
 * The cart as it is now, from Medusa's read in this refresh (updateCartPromotionsWorkflow's, with
 * cartFieldsForRefreshSteps: its items, shipping methods, addresses, region, customer and groups
 * are final by then) and what the promotions step after it may have changed: the adjustments. For
 * the restore point, the billing address that read lacks, unless the route cannot change it (then
 * as remembered before it); not the promotion links (the state says so: promotionsUnread).
 */
/** What the direct run takes from Medusa's refresh read (finalCartOf reads the rest; `customer_id` is `customer.id`). */
export function fieldsFromRefreshRead(): string[] {
  return [...taxRunFields(true, TAXED_FIELDS), ...RESTORE_FIELDS].filter(
    (f) => f !== "customer_id" && !f.includes("adjustments") && !/^(billing_address|promotions|payment_collection)\./.test(f),
  )
}

// whether the installed Medusa's refresh read names them all (else the run reads the cart itself)
const refreshReadUsable = runtimeSlot(
  "refreshReadCovers",
  () => uncoveredFields(installedRefreshFields() ?? [], fieldsFromRefreshRead()).length === 0,
)

/** An item or a shipping method as both the tax run and the restore read it. */
type RunLine<K extends "items" | "shipping_methods"> = NonNullable<TaxRunCart[K]>[number] & NonNullable<CartRow[K]>[number]

async function finalCartOf(
  container: MedusaContainer,
  read: TaxRunCart & CartRow,
  billing: CartRefreshScope["billingBefore"],
): Promise<TaxRunCart & CartRow> {
  const carts = container.resolve<ICartModuleService>(Modules.CART)
  const itemIds = (read.items ?? []).map((i) => i.id)
  const methodIds = (read.shipping_methods ?? []).map((m) => m.id)
  const restore = cartRestoreOn()
  const [itemAdjustments, methodAdjustments, [rest]] = await Promise.all([
    itemIds.length ? carts.listLineItemAdjustments({ item_id: itemIds }) : [],
    methodIds.length ? carts.listShippingMethodAdjustments({ shipping_method_id: methodIds }) : [],
    restore && !billing
      ? graph<Pick<CartRow, "id" | "billing_address">>(container, {
          entity: "cart",
          fields: ["id", "billing_address.*"],
          filters: { id: read.id },
        })
      : [undefined],
  ])
  return {
    ...read,
    customer_id: read.customer?.id ?? null,
    items: (read.items ?? []).map((i: RunLine<"items">) => ({
      ...i,
      adjustments: itemAdjustments.filter((a) => a.item_id === i.id).map((a) => ({ ...a })),
    })),
    shipping_methods: (read.shipping_methods ?? []).map((m: RunLine<"shipping_methods">) => ({
      ...m,
      adjustments: methodAdjustments.filter((a) => a.shipping_method_id === m.id).map((a) => ({ ...a })),
    })),
    // the promotion links not read: the restore point says so (promotionsUnread)
    ...(restore ? { billing_address: billing ? billing.address : (rest?.billing_address ?? null), promotions: undefined } : {}),
  }
}

/** A workflow's thrown error may carry the step's error inside `errors[].error`. */
function unwrap(err: unknown): unknown {
  const e = err as { errors?: { error?: unknown }[] } | null
  const inner = Array.isArray(e?.errors) ? e!.errors.find((x) => x?.error)?.error : undefined
  return inner ?? err
}

/**
 * The handler: when the request's scope names this cart and the cart is US-taxed, the cart's tax
 * lines are computed on its final state, in the refresh's lock (the refresh holds it). When the
 * plugin's handler is the one on updateTaxLinesWorkflow's setTaxLineContext hook, that workflow's
 * work is done as module calls here (src/medusa/update-tax-lines.ts: no workflow run of its own); otherwise
 * (a host's handler is on it) `updateTaxLinesWorkflow` runs as a sub-workflow of the refresh (as
 * `runAsStep` runs one: the sub-workflow does not take the lock again).
 */
export async function salesTaxBeforeRefreshingPaymentCollection(
  { input }: { input: RefreshInput },
  stepContext: StepExecutionContext,
): Promise<StepResponse<undefined>> {
  const scope = cartRefreshStorage().getStore()
  const cartId = input?.cart_id
  if (!scope || !cartId || scope.cartId !== cartId) return new StepResponse(undefined)
  const span: StoreCartSpan = { phase: "refresh-hook", cartId }
  await storeCartSpan(span, () => taxInRefresh(scope, input, stepContext, span))
  return new StepResponse(undefined)
}

/** refreshCartItemsWorkflow's input, as its beforeRefreshingPaymentCollection hook receives it. */
type RefreshInput = { cart_id?: string } & Parameters<typeof refreshLeftTaxLines>[0]

// whether the installed refresh writes tax lines after its read only when asked to (refreshTaxWritesGuarded)
const refreshTaxWritesKnown = runtimeSlot("refreshTaxWritesGuarded", () =>
  refreshTaxWritesGuarded(installedSource("@medusajs/core-flows", REFRESH_CART_ITEMS_SOURCE)),
)

async function taxInRefresh(
  scope: CartRefreshScope,
  input: RefreshInput,
  stepContext: StepExecutionContext,
  span: StoreCartSpan,
): Promise<void> {
  const { container } = stepContext
  const cartId = scope.cartId
  // as Medusa's refresh read the cart (salesTaxCartPromotionsValidate), else as the middleware
  // read it before a route that cannot change its destination (tax-resync.ts); else read now
  const taxed = scope.destination?.usTaxed ?? (scope.knownUs || (!scope.knownNotUs && (await isUsTaxedCart(container, cartId))))
  span.taxed = taxed
  // neither the direct run nor a nested run of the workflow (the boot check turned both off, one
  // error logged): the after-route refresh does the work (scope.ran stays unset)
  const handler = directTaxRunOn() ? updateTaxLinesContextHandler() : undefined
  if (taxed && !handler && !nestedRunOn()) return
  if (taxed) {
    // one read serves the tax run (its cart) and the context handler (scope.taxCart: no read of
    // its own), in the refresh's lock, on the cart's final state
    // (when the boot check found Medusa's field list changed, the workflow reads the cart itself)
    // the direct run's read is also the restore point of the cart's next store change
    // (quotedCartState: no read before that change), its tax lines being the ones written here
    // (the direct run on Medusa's own read in this refresh: only what changed since is read)
    const fields = handler ? directRunFields() : directTaxRunOn() ? WORKFLOW_RUN_CART_FIELDS : null
    const fromRefresh = !!handler && scope.refreshRead?.id === cartId
    const [cart] =
      fromRefresh && scope.refreshRead
        ? [await finalCartOf(container, scope.refreshRead, scope.billingBefore)]
        : fields
          ? await graph<TaxRunCart & CartRow>(container, { entity: "cart", fields, filters: { id: cartId } })
          : []
    if (cart) scope.taxCart = cart
    try {
      if (cart && handler) {
        // Medusa's read carries the cart's tax lines, current when no tax workflow ran after it
        const current = fromRefresh && refreshTaxWritesKnown() && refreshLeftTaxLines(input)
        const written = await setCartTaxLines(container, cart, handler, current)
        if (cartRestoreOn()) scope.quoted = quotedCartState(cart, written.items, written.shipping)
      } else
        // as runAsStep runs it: the nested run does not take the cart's lock again (src/medusa/nested-workflow.ts)
        await runNested(updateTaxLinesWorkflow, stepContext, cart ? { cart_id: cartId, cart } : { cart_id: cartId })
    } catch (e) {
      throw unwrap(e)
    } finally {
      delete scope.taxCart
    }
  }
  scope.ran = { taxed }
}

/**
 * The plugin's handler of updateCartPromotionsWorkflow's `validate` hook: that workflow runs in
 * every cart refresh of Medusa's (after the route's change, before beforeRefreshingPaymentCollection)
 * and in the promotions routes, and reads the cart with its region and shipping address. Inside a
 * store cart request's scope, for its cart, this notes whether the provider quotes the cart as
 * read there, so that neither the hook nor the after-route refresh reads it again to find out (a
 * cart the plugin does not tax then costs no statement of the plugin's). Reads nothing, never throws.
 * An app with its own handler of this hook calls this one from it (or the plugin reads the cart).
 */
export function salesTaxCartPromotionsValidate(data: { cart?: Partial<DestinationCart> | null }): StepResponse<undefined> {
  const scope = cartRefreshStorage().getStore()
  const cart = data?.cart
  // a cart read without its region or shipping address (a caller's own input) says nothing
  if (scope && cart?.id === scope.cartId && cart.region !== undefined && cart.shipping_address !== undefined) {
    scope.destination = { usTaxed: usTaxedOf(cart as DestinationCart) }
    // Medusa's full read (cartFieldsForRefreshSteps): the tax run's cart, once the adjustments are read again
    const full = cart as Partial<TaxRunCart & CartRow>
    if (
      full.items !== undefined &&
      full.shipping_methods !== undefined &&
      full.customer !== undefined &&
      full.completed_at !== undefined &&
      refreshReadUsable()
    )
      scope.refreshRead = cart as TaxRunCart & CartRow
  }
  return new StepResponse(undefined)
}
