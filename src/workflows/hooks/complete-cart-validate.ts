// The plugin's handler of `completeCartWorkflow.hooks.validate`, in the completion's lock before the order
// exists: refuses an unquotable US destination or a cart changed after its tax refresh, and claims a
// single-purchase certificate. An app with its own handler calls `salesTaxValidateCompletion` from it.
import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { registerHook } from "../../medusa/workflow-hooks"
import { validateCompletionUnchanged } from "../../checkout/hooks/complete-cart-guard"
import { refuseUnquotableDestination, type OrderToBe } from "../../checkout/hooks/destination-guard"
import { claimSinglePurchase } from "../../checkout/hooks/single-purchase-claim"

export async function salesTaxValidateCompletion(data: { input: { id?: string }; cart: OrderToBe }, ctx: StepExecutionContext) {
  await refuseUnquotableDestination(ctx.container, data.cart)
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
