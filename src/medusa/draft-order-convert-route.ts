/**
 * BOUNDARY: POST /admin/draft-orders/:id/convert-to-order runs convertDraftOrderWorkflow, which has
 * no hook: a middleware on the route is the one place to refuse before the order exists.
 * Buys: no admin-created US order untaxed for want of a destination, nor in another currency
 * (checkout.spec.ts, typed addresses). When Medusa gives the workflow a hook, the contract test fails: move the
 * guard there. Contract test: draft-order-convert-route.test.ts. Boot check: the route file.
 */
import { medusaDistHas, medusaRouteFile } from "./installed"

/** The route the guard is mounted on (src/api/admin/sales-tax/draft-order-guard.ts). */
export const DRAFT_ORDER_CONVERT_ROUTE = "/admin/draft-orders/:id/convert-to-order"
/** Its file in @medusajs/medusa's dist. */
export const DRAFT_ORDER_CONVERT_ROUTE_FILE = medusaRouteFile(DRAFT_ORDER_CONVERT_ROUTE)

/** Whether the installed @medusajs/medusa serves the route. */
export function draftOrderConvertRouteExists(): boolean {
  return medusaDistHas(DRAFT_ORDER_CONVERT_ROUTE_FILE)
}
