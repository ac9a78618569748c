/**
 * One tax computation per store cart mutation, inside Medusa's own cart refresh.
 *
 * Medusa's `refreshCartItemsWorkflow` (run by the store routes that change a cart's items,
 * address, shipping methods or customer: update cart, add / update / delete line items, add a
 * shipping method, transfer the customer) re-prices the items, re-applies the promotions and then
 * refreshes the payment collection, but computes tax lines only when told to
 * (`force_refresh`: before the promotions; new items: those items, before the promotions): after a
 * line's quantity change or a deleted line it does not compute tax at all. The service's amounts
 * (which the provider turns into rates) depend on quantities and discounts, so the plugin
 * computes the cart's tax lines once more on the cart's final state.
 *
 * It does so here, in the refresh's `beforeRefreshingPaymentCollection` hook: after the promotions
 * (the cart's final state), inside the refresh's lock, and before Medusa refreshes the payment
 * collection (so its amount is the total with the new tax, never a cent off), and before the
 * route reads the cart for its answer (so the answer is fresh without another read). It acts only
 * inside a store cart request that the plugin's middleware opened a scope for
 * (src/checkout/store/tax-resync.ts) and only for a cart the provider quotes (automatic taxes,
 * a US shipping address); everywhere else (admin, jobs, host code) the hook does nothing.
 * The middleware sees whether the hook ran: when it did not (a route without Medusa's refresh, such
 * as the promotions routes, or the hook not registered), it refreshes after the route as before.
 *
 * A tax refusal (`sales_tax_unavailable`) thrown here fails Medusa's workflow: Medusa compensates
 * its steps, the route answers the refusal, and the middleware puts the cart back as it was.
 *
 * Medusa allows ONE handler per hook: an app that needs this hook itself sets
 * MEDUSA_SALES_TAX_REGISTER_HOOKS=false (or registers its own handler first) and calls
 * `salesTaxBeforeRefreshingPaymentCollection` from its handler; without it the plugin still keeps
 * tax lines fresh through its after-route refresh (one workflow run and one cart read more).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { StepResponse, type StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { refreshCartItemsWorkflow, updateTaxLinesWorkflow } from "@medusajs/core-flows"
import { graph } from "../../query"
import { cartRefreshStorage } from "../../checkout/hooks/cart-refresh-scope"
import { TAXED_FIELDS, hasAddedTaxLineContextHandlers, updateTaxLinesContextHandler } from "../../checkout/hooks/tax-line-context-handler"
import { UPDATE_TAX_LINES_CART_FIELDS, directTaxRunOn, setCartTaxLines, taxRunFields, type TaxRunCart } from "../../medusa/update-tax-lines"
import { nestedRunOn, runNested } from "../../medusa/nested-workflow"

export { cartRefreshStorage, type CartRefreshScope } from "../../checkout/hooks/cart-refresh-scope"
export { UPDATE_TAX_LINES_CART_FIELDS } from "../../medusa/update-tax-lines"

/** Only carts the provider quotes: automatic taxes and a US shipping address (one query). */
export async function isUsTaxedCart(scope: MedusaContainer, cartId: string): Promise<boolean> {
  const [c] = await graph<{
    id: string
    region?: { automatic_taxes?: boolean | null } | null
    shipping_address?: { country_code?: string | null } | null
  }>(scope, { entity: "cart", fields: ["id", "region.automatic_taxes", "shipping_address.country_code"], filters: { id: cartId } })
  return !!c && c.region?.automatic_taxes !== false && (c.shipping_address?.country_code ?? "").toLowerCase() === "us"
}

/** The one read of the cart for a workflow run: what updateTaxLinesWorkflow and the context handler read. */
const WORKFLOW_RUN_CART_FIELDS = [...new Set<string>([...UPDATE_TAX_LINES_CART_FIELDS, ...TAXED_FIELDS])]

/** A workflow's thrown error may carry the step's error inside `errors[].error`. */
function unwrap(err: unknown): unknown {
  const e = err as { errors?: { error?: unknown }[] } | null
  const inner = Array.isArray(e?.errors) ? e!.errors.find((x) => x?.error)?.error : undefined
  return inner ?? err
}

/** Bench-only (`SALES_TAX_BENCH_PHASES=1`): names the phase for bench/store.bench.ts's SQL log (see tax-resync.ts). */
function benchMark(phase: string): void {
  if (process.env.SALES_TAX_BENCH_PHASES === "1")
    (globalThis as Record<symbol, string>)[Symbol.for("medusa-sales-tax/bench-phase-now")] = phase
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
  { input }: { input: { cart_id?: string } },
  stepContext: StepExecutionContext,
): Promise<StepResponse<undefined>> {
  const scope = cartRefreshStorage().getStore()
  const cartId = input?.cart_id
  if (!scope || !cartId || scope.cartId !== cartId) return new StepResponse(undefined)
  const t = performance.now()
  benchMark("in refresh hook")
  const { container } = stepContext
  // known either way from the cart as the middleware read it before a route that cannot change
  // its destination (tax-resync.ts); else read now
  const taxed = scope.knownUs || (!scope.knownNotUs && (await isUsTaxedCart(container, cartId)))
  // neither the direct run nor a nested run of the workflow (the boot check turned both off, one
  // error logged): the after-route refresh does the work (scope.ran stays unset)
  const handler = directTaxRunOn() ? updateTaxLinesContextHandler() : undefined
  if (taxed && !handler && !nestedRunOn()) return new StepResponse(undefined)
  if (taxed) {
    // one read serves the tax run (its cart) and the context handler (scope.taxCart: no read of
    // its own), in the refresh's lock, on the cart's final state
    // (when the boot check found Medusa's field list changed, the workflow reads the cart itself)
    const fields = handler ? taxRunFields(hasAddedTaxLineContextHandlers()) : directTaxRunOn() ? WORKFLOW_RUN_CART_FIELDS : null
    const [cart] = fields ? await graph<TaxRunCart>(container, { entity: "cart", fields, filters: { id: cartId } }) : []
    if (cart) scope.taxCart = cart
    try {
      if (cart && handler) await setCartTaxLines(container, cart, handler)
      else
        // as runAsStep runs it: the nested run does not take the cart's lock again (src/medusa/nested-workflow.ts)
        await runNested(updateTaxLinesWorkflow, stepContext, cart ? { cart_id: cartId, cart } : { cart_id: cartId })
    } catch (e) {
      throw unwrap(e)
    } finally {
      delete scope.taxCart
    }
  }
  scope.ran = { taxed, ms: performance.now() - t }
  benchMark("after refresh hook")
  return new StepResponse(undefined)
}

// a Medusa without the hook: the boot check logs it once, with what is turned off (src/medusa/boot-check.ts)
const hookExists =
  typeof (refreshCartItemsWorkflow.hooks as object as Record<string, unknown>).beforeRefreshingPaymentCollection === "function"
if (process.env.MEDUSA_SALES_TAX_REGISTER_HOOKS !== "false" && hookExists) {
  try {
    refreshCartItemsWorkflow.hooks.beforeRefreshingPaymentCollection(salesTaxBeforeRefreshingPaymentCollection)
  } catch (e) {
    console.warn(
      `[medusa-sales-tax] could not register the refreshCartItemsWorkflow beforeRefreshingPaymentCollection hook (${(e as Error).message}); ` +
        `tax lines are refreshed after each store cart route instead (call salesTaxBeforeRefreshingPaymentCollection from your handler to keep the cheaper path).`,
    )
  }
}
