/**
 * The plugin's ONE handler of `completeCartWorkflow.hooks.validate` (Medusa allows one handler per
 * hook), run inside the completion's lock before the order is created and the payment authorized:
 *  1. a US destination the plugin cannot quote (state not found, or not USD) is refused
 *     (`sales_tax_address_unresolved`, `sales_tax_currency_unsupported`; destination-guard.ts, issue 26);
 *  2. a cart that changed after the pre-completion tax refresh is refused (`sales_tax_cart_changed`;
 *     complete-cart-guard.ts, issue 27).
 * An app with its own validate handler sets MEDUSA_SALES_TAX_REGISTER_HOOKS=false and calls
 * `salesTaxValidateCompletion` from its handler.
 */
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { validateCompletionUnchanged } from "../../checkout/hooks/complete-cart-guard"
import { validateCompletionDestination, type OrderToBe } from "../../checkout/hooks/destination-guard"

export async function salesTaxValidateCompletion(data: { input: { id?: string }; cart: OrderToBe }, ctx: StepExecutionContext) {
  await validateCompletionDestination({ cart: data.cart }, { container: ctx.container })
  return validateCompletionUnchanged({ input: data.input }, ctx)
}

if (process.env.MEDUSA_SALES_TAX_REGISTER_HOOKS !== "false") {
  try {
    completeCartWorkflow.hooks.validate(salesTaxValidateCompletion)
  } catch (e) {
    console.warn(
      `[medusa-sales-tax] could not register the completeCartWorkflow validate hook (${(e as Error).message}); ` +
        `call salesTaxValidateCompletion from your handler, or an unquotable US destination and a cart changed after its tax refresh are not refused at completion.`,
    )
  }
}
