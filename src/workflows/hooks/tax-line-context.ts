/**
 * Registers the plugin's tax-line context handler on Medusa's three setTaxLineContext hooks
 * (loaded by Medusa from the plugin's src/workflows). Medusa allows ONE handler per hook per app:
 * - to add your own context, call `addTaxLineContextHandler(fn)` (from
 *   "medusa-sales-tax/workflows/hooks/tax-line-context-handler") instead of registering the hook;
 * - or set MEDUSA_SALES_TAX_REGISTER_HOOKS=false and register
 *   `composeTaxLineContext(salesTaxTaxLineContext, yourHandler)` yourself.
 */
import { updateTaxLinesWorkflow, upsertTaxLinesWorkflow, updateOrderTaxLinesWorkflow } from "@medusajs/medusa/core-flows"
import { registeredTaxLineContext, rememberUpdateTaxLinesContextHandler } from "../../checkout/hooks/tax-line-context-handler"

function register(name: string, hooks: object, fn: () => void): void {
  // a Medusa without the hook: the boot check logs it once, with what is turned off (src/medusa/boot-check.ts)
  if (typeof (hooks as { setTaxLineContext?: unknown }).setTaxLineContext !== "function") return
  try {
    fn()
  } catch (e) {
    console.warn(
      `[medusa-sales-tax] could not register the ${name} setTaxLineContext hook (${(e as Error).message}). ` +
        `If your app registers it, compose with the plugin: composeTaxLineContext(salesTaxTaxLineContext, yours).`,
    )
  }
}

if (process.env.MEDUSA_SALES_TAX_REGISTER_HOOKS !== "false") {
  register("updateTaxLinesWorkflow", updateTaxLinesWorkflow.hooks, () => {
    updateTaxLinesWorkflow.hooks.setTaxLineContext(registeredTaxLineContext)
    // the cart-refresh hook's tax run calls what Medusa would (cart-tax-lines.ts)
    rememberUpdateTaxLinesContextHandler(registeredTaxLineContext)
  })
  register("upsertTaxLinesWorkflow", upsertTaxLinesWorkflow.hooks, () =>
    upsertTaxLinesWorkflow.hooks.setTaxLineContext(registeredTaxLineContext),
  )
  register("updateOrderTaxLinesWorkflow", updateOrderTaxLinesWorkflow.hooks, () =>
    updateOrderTaxLinesWorkflow.hooks.setTaxLineContext(registeredTaxLineContext),
  )
}
