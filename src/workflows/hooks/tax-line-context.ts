// Registers the plugin's tax-line context handler on Medusa's three setTaxLineContext hooks. To add your
// own context call `addTaxLineContextHandler(fn)` ("medusa-sales-tax/workflows/hooks/tax-line-context-handler"),
// or set MEDUSA_SALES_TAX_REGISTER_HOOKS=false and register `composeTaxLineContext(salesTaxTaxLineContext, yours)`.
import { updateTaxLinesWorkflow, upsertTaxLinesWorkflow, updateOrderTaxLinesWorkflow } from "@medusajs/medusa/core-flows"
import { registeredTaxLineContext, rememberUpdateTaxLinesContextHandler } from "../../checkout/hooks/tax-line-context-handler"
import { registerHook } from "../../medusa/workflow-hooks"
import { noteTaxLineContextHooks } from "../../medusa/tax-line-context-fallback"

// a Medusa without the hook: nothing is registered, the provider reads the cart or order itself
// (src/medusa/tax-line-context-fallback.ts)
function register(name: string, workflow: unknown): boolean {
  const warn = (e: Error) =>
    console.warn(
      `[medusa-sales-tax] could not register the ${name} setTaxLineContext hook (${e.message}). ` +
        `If your app registers it, compose with the plugin: composeTaxLineContext(salesTaxTaxLineContext, yours).`,
    )
  return registerHook(workflow, "setTaxLineContext", registeredTaxLineContext, warn) === "registered"
}

noteTaxLineContextHooks({ updateTaxLinesWorkflow, upsertTaxLinesWorkflow, updateOrderTaxLinesWorkflow })
if (process.env.MEDUSA_SALES_TAX_REGISTER_HOOKS !== "false") {
  // the cart-refresh hook's tax run calls what Medusa would (src/medusa/update-tax-lines.ts)
  if (register("updateTaxLinesWorkflow", updateTaxLinesWorkflow)) rememberUpdateTaxLinesContextHandler(registeredTaxLineContext)
  register("upsertTaxLinesWorkflow", upsertTaxLinesWorkflow)
  register("updateOrderTaxLinesWorkflow", updateOrderTaxLinesWorkflow)
}
