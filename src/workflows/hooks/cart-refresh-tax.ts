// Registers the cart refresh's tax run (src/checkout/store/cart-refresh.ts) on two of Medusa's hooks. Medusa allows
// ONE handler per hook: an app with its own sets MEDUSA_SALES_TAX_REGISTER_HOOKS=false and calls these from it
// (without them tax lines are refreshed after each store cart route: one run and read more).
import { refreshCartItemsWorkflow, updateCartPromotionsWorkflow } from "@medusajs/medusa/core-flows"
import { registerHook } from "../../medusa/workflow-hooks"
import { salesTaxBeforeRefreshingPaymentCollection, salesTaxCartPromotionsValidate } from "../../checkout/store/cart-refresh"
export { salesTaxBeforeRefreshingPaymentCollection, salesTaxCartPromotionsValidate }

if (process.env.MEDUSA_SALES_TAX_REGISTER_HOOKS !== "false") {
  registerHook(refreshCartItemsWorkflow, "beforeRefreshingPaymentCollection", salesTaxBeforeRefreshingPaymentCollection, (e) =>
    console.warn(
      `[medusa-sales-tax] could not register the refreshCartItemsWorkflow beforeRefreshingPaymentCollection hook (${e.message}); ` +
        `tax lines are refreshed after each store cart route instead (call salesTaxBeforeRefreshingPaymentCollection from your handler to keep the cheaper path).`,
    ),
  )
  registerHook(updateCartPromotionsWorkflow, "validate", salesTaxCartPromotionsValidate, (e) =>
    console.warn(
      `[medusa-sales-tax] could not register the updateCartPromotionsWorkflow validate hook (${e.message}); ` +
        `the plugin reads a cart's destination itself after a store cart change (call salesTaxCartPromotionsValidate from your handler to save that read).`,
    ),
  )
}
