/**
 * The plugin's ONE handler of `completeCartWorkflow.hooks.validate` (Medusa allows one handler per
 * hook), run inside the completion's lock before the order is created and the payment authorized:
 *  1. a US destination the plugin cannot quote (state not found, or not USD) is refused
 *     (`sales_tax_address_unresolved`, `sales_tax_currency_unsupported`; destination-guard.ts, issue 26);
 *  2. a cart that changed after the pre-completion tax refresh is refused (`sales_tax_cart_changed`;
 *     complete-cart-guard.ts, issue 27);
 *  3. a single-purchase certificate the cart is priced under is claimed for it, or the completion is
 *     refused when another cart holds it (`sales_tax_certificate_used`; single-purchase-claim.ts).
 * An app with its own validate handler sets MEDUSA_SALES_TAX_REGISTER_HOOKS=false and calls
 * `salesTaxValidateCompletion` from its handler.
 */
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { registerHook } from "../../medusa/workflow-hooks"
import { validateCompletionUnchanged } from "../../checkout/hooks/complete-cart-guard"
import { validateCompletionDestination, type OrderToBe } from "../../checkout/hooks/destination-guard"
import { claimSinglePurchase } from "../../checkout/hooks/single-purchase-claim"

export async function salesTaxValidateCompletion(data: { input: { id?: string }; cart: OrderToBe }, ctx: StepExecutionContext) {
  await validateCompletionDestination({ cart: data.cart }, { container: ctx.container })
  const out = await validateCompletionUnchanged({ input: data.input }, ctx)
  await claimSinglePurchase({ input: data.input }, { container: ctx.container })
  return out
}

if (process.env.MEDUSA_SALES_TAX_REGISTER_HOOKS !== "false") {
  registerHook(completeCartWorkflow, "validate", salesTaxValidateCompletion, (e) =>
    console.warn(
      `[medusa-sales-tax] could not register the completeCartWorkflow validate hook (${e.message}); ` +
        `call salesTaxValidateCompletion from your handler, or an unquotable US destination, a cart changed after its tax refresh and a second use of a single-purchase certificate are not refused at completion.`,
    ),
  )
}
