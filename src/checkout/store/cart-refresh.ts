/**
 * One tax computation per store cart mutation, in Medusa's cart refresh (`beforeRefreshingPaymentCollection`: the
 * cart's final state, in the refresh's lock): Medusa's refresh does not recompute tax after a quantity change, while
 * the service's amounts depend on it. Only in a store cart request's scope (tax-resync.ts), for a cart the provider quotes.
 */
import { tracingChannel } from "node:diagnostics_channel"
import type { ICartModuleService, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { StepResponse, type StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { updateTaxLinesWorkflow } from "@medusajs/medusa/core-flows"
import { graph } from "../../query"
import { runtimeSlot } from "../../runtime"
import { cartRefreshStorage, type CartRefreshScope } from "../hooks/request-actor"
import { TAXED_FIELDS, hasAddedTaxLineContextHandlers, updateTaxLinesContextHandler } from "../hooks/tax-line-context-handler"
import { UPDATE_TAX_LINES_CART_FIELDS, directTaxRunOn, setCartTaxLines, taxRunFields, type TaxRunCart } from "../../medusa/update-tax-lines"
import { installedRefreshFields, uncoveredFields } from "../../medusa/update-tax-lines"
import { installedRefreshTaxWritesGuarded, refreshLeftTaxLines } from "../../medusa/update-tax-lines"
import { unwrapWorkflowError } from "../../medusa/store-cart-routes"
import { nestedRunOn, runNested } from "../../medusa/nested-workflow"
import { RESTORE_FIELDS, cartRestoreOn, quotedCartState, type CartRow } from "../../medusa/cart-restore"
import type { OrderToBe } from "../hooks/destination-guard"

/** The part of a cart that says whether the provider quotes it. */
type DestinationCart = { id: string } & Pick<OrderToBe, "region" | "shipping_address">

/** Pure: the provider quotes the cart (automatic taxes, a US shipping address). */
export function usTaxedOf(c: DestinationCart): boolean {
  return c.region?.automatic_taxes !== false && (c.shipping_address?.country_code ?? "").toLowerCase() === "us"
}

/** usTaxedOf in one query. */
export async function isUsTaxedCart(scope: MedusaContainer, cartId: string): Promise<boolean> {
  const [c] = await graph<DestinationCart>(scope, {
    entity: "cart",
    fields: ["id", "region.automatic_taxes", "shipping_address.country_code"],
    filters: { id: cartId },
  })
  return !!c && usTaxedOf(c)
}

/** Whether the provider quotes the scope's cart: as Medusa's refresh read it, else as read before a route that cannot change its destination, else read now. */
export async function usTaxedInScope(scope: CartRefreshScope, container: MedusaContainer): Promise<boolean> {
  return scope.destination?.usTaxed ?? (scope.knownUs || (!scope.knownNotUs && (await isUsTaxedCart(container, scope.cartId))))
}

/**
 * The TracingChannel whose spans are the plugin's phases of a store cart request (free without a subscriber): the
 * address step's check, `remember` (the change's lock and restore read), `refresh-hook` (here), `after-route` (a
 * route without that refresh) and `restore` (a refused change put back).
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
export function storeCartSpan<T>(ctx: StoreCartSpan, fn: () => Promise<T>): Promise<T> {
  return storeCartTrace.hasSubscribers ? storeCartTrace.tracePromise(fn, ctx) : fn()
}

/** The one read of the cart for a workflow run: what updateTaxLinesWorkflow and the context handler read. */
const WORKFLOW_RUN_CART_FIELDS = [...new Set<string>([...UPDATE_TAX_LINES_CART_FIELDS, ...TAXED_FIELDS])]

/** The direct run's read: its own and, with the restore on, the restore's but tax lines (it writes them) and payment collection. */
function directRunFields(): string[] {
  const own = taxRunFields(hasAddedTaxLineContextHandlers(), TAXED_FIELDS)
  if (!cartRestoreOn()) return own
  // not the payment collection: one may be made before the next change (that one reads it)
  return [...new Set<string>([...own, ...RESTORE_FIELDS.filter((f) => !f.includes("tax_lines") && !f.startsWith("payment_collection"))])]
}

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

/**
 * The cart as it is now: Medusa's read in this refresh with the adjustments read again (the promotions step after it
 * may change them) and, for the restore point, the billing address that read lacks; not the promotion links.
 */
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

/** refreshCartItemsWorkflow's input, as its beforeRefreshingPaymentCollection hook receives it. */
type RefreshInput = { cart_id?: string } & Parameters<typeof refreshLeftTaxLines>[0]

// whether the installed refresh writes tax lines after its read only when asked to (refreshTaxWritesGuarded)
const refreshTaxWritesKnown = runtimeSlot("refreshTaxWritesGuarded", installedRefreshTaxWritesGuarded)

/** The hook: a US-taxed cart's tax lines on its final state, by module calls (the plugin's handler) or the workflow nested. */
export async function salesTaxBeforeRefreshingPaymentCollection(
  { input }: { input: RefreshInput },
  stepContext: StepExecutionContext,
): Promise<StepResponse<undefined>> {
  const scope = cartRefreshStorage().getStore()
  const cartId = input?.cart_id
  if (!scope || !cartId || scope.cartId !== cartId) return new StepResponse(undefined)
  const { container } = stepContext
  const span: StoreCartSpan = { phase: "refresh-hook", cartId }
  await storeCartSpan(span, async () => {
    const taxed = await usTaxedInScope(scope, container)
    span.taxed = taxed
    // the boot check turned both runs off: the after-route refresh does the work (scope.ran stays unset)
    const handler = directTaxRunOn() ? updateTaxLinesContextHandler() : undefined
    if (taxed && !handler && !nestedRunOn()) return
    if (taxed) {
      // one read serves the tax run, the context handler and the next restore point (none when Medusa's field list changed)
      const fields = handler ? directRunFields() : directTaxRunOn() ? WORKFLOW_RUN_CART_FIELDS : null
      const refreshRead = handler && scope.refreshRead?.id === cartId ? scope.refreshRead : undefined
      const [cart] = refreshRead
        ? [await finalCartOf(container, refreshRead, scope.billingBefore)]
        : fields
          ? await graph<TaxRunCart & CartRow>(container, { entity: "cart", fields, filters: { id: cartId } })
          : []
      if (cart) scope.taxCart = cart
      try {
        if (cart && handler) {
          // Medusa's read carries the cart's tax lines, current when no tax workflow ran after it
          const current = !!refreshRead && refreshTaxWritesKnown() && refreshLeftTaxLines(input)
          const written = await setCartTaxLines(container, cart, handler, current)
          if (cartRestoreOn()) scope.quoted = quotedCartState(cart, written.items, written.shipping)
        } else
          // as runAsStep runs it: the nested run does not take the cart's lock again (src/medusa/nested-workflow.ts)
          await runNested(updateTaxLinesWorkflow, stepContext, cart ? { cart_id: cartId, cart } : { cart_id: cartId })
      } catch (e) {
        throw unwrapWorkflowError(e)
      } finally {
        delete scope.taxCart
      }
    }
    scope.ran = { taxed }
  })
  return new StepResponse(undefined)
}

/** updateCartPromotionsWorkflow's `validate` hook, in every refresh: notes whether the provider quotes the cart; never throws. */
export function salesTaxCartPromotionsValidate(data: { cart?: Partial<DestinationCart> | null }): StepResponse<undefined> {
  const scope = cartRefreshStorage().getStore()
  const cart = data?.cart
  // a cart read without its region or shipping address (a caller's own input) says nothing
  if (scope && cart?.id === scope.cartId && cart.region !== undefined && cart.shipping_address !== undefined) {
    scope.destination = { usTaxed: usTaxedOf(cart as DestinationCart) }
    // Medusa's full read (cartFieldsForRefreshSteps): the tax run's cart, once the adjustments are read again
    const full = cart as Partial<TaxRunCart & CartRow>
    const read = (["items", "shipping_methods", "customer", "completed_at"] as const).every((k) => full[k] !== undefined)
    if (read && refreshReadUsable()) scope.refreshRead = cart as TaxRunCart & CartRow
  }
  return new StepResponse(undefined)
}
