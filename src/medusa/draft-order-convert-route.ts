/**
 * BOUNDARY: Medusa's route that turns a draft order into an order, guarded by a route middleware.
 *
 * Assumes: @medusajs/medusa serves POST /admin/draft-orders/:id/convert-to-order
 * (api/admin/draft-orders/[id]/convert-to-order/route.js) by running convertDraftOrderWorkflow, and
 * that workflow has no hook (so a middleware on the route is the only place to refuse before the
 * order exists). A middleware on a route is documented (`defineMiddlewares`); that THIS path is the
 * one way an admin makes an order, and that its workflow has no hook, is what the plugin assumes.
 *
 * Buys: no admin-created US order untaxed for want of a destination, nor in another currency
 * (issues 26/27): integration-tests/http/typed-addresses.spec.ts converts a draft to an unresolvable
 * Austin address and gets 400 `sales_tax_address_unresolved` (without the guard: 200 and an order
 * with no tax). When Medusa gives convertDraftOrderWorkflow a hook, the contract test fails: move
 * the guard to the hook.
 *
 * Contract test: draft-order-convert-route.test.ts. Boot check: boot-check.ts (the route file and the workflow).
 */
import { medusaDistHas } from "./installed"

/** The route the guard is mounted on (src/api/admin/sales-tax/draft-order-guard.ts). */
export const DRAFT_ORDER_CONVERT_ROUTE = "/admin/draft-orders/:id/convert-to-order"
/** Its file in @medusajs/medusa's dist. */
export const DRAFT_ORDER_CONVERT_ROUTE_FILE = "api/admin/draft-orders/[id]/convert-to-order/route.js"

/** Whether the installed @medusajs/medusa serves the route. */
export function draftOrderConvertRouteExists(): boolean {
  return medusaDistHas(DRAFT_ORDER_CONVERT_ROUTE_FILE)
}
