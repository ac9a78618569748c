/**
 * BOUNDARY: convertDraftOrderWorkflow has no hook, so a middleware on its route refuses a US order with no
 * destination or in another currency; when it gets one, the contract test fails: move the guard there.
 * Contract test: draft-order-convert-route.test.ts. Boot check: the route file.
 */
import { medusaRouteFile } from "./installed"

export const DRAFT_ORDER_CONVERT_ROUTE = "/admin/draft-orders/:id/convert-to-order"
export const DRAFT_ORDER_CONVERT_ROUTE_FILE = medusaRouteFile(DRAFT_ORDER_CONVERT_ROUTE)
