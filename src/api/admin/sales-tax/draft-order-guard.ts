// Medusa makes an admin-created order by converting a draft order
// (POST /admin/draft-orders/:id/convert-to-order → convertDraftOrderWorkflow, which has no hook: a
// reach-in, src/medusa/draft-order-convert-route.ts): this middleware refuses the conversion of a
// US draft order whose destination cannot be resolved or whose currency is not USD, with the same
// 400 as cart completion (src/checkout/hooks/destination-guard.ts).
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"
import { graph } from "../../../query"
import { refuseUnquotableDestination, type OrderToBe } from "../../../checkout/hooks/destination-guard"
import { DRAFT_ORDER_CONVERT_ROUTE } from "../../../medusa/draft-order-convert-route"

export const DRAFT_ORDER_FIELDS = [
  "id",
  "currency_code",
  "region.automatic_taxes",
  "shipping_address.country_code",
  "shipping_address.province",
  "shipping_address.postal_code",
  "shipping_address.address_1",
  "shipping_address.address_2",
  "shipping_address.city",
] as const

export async function guardDraftOrderConversion(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  try {
    const id = req.params.id
    const [order] = id ? await graph<OrderToBe>(req.scope, { entity: "order", fields: DRAFT_ORDER_FIELDS, filters: { id } }) : []
    // an unknown id is Medusa's own 404
    if (order) await refuseUnquotableDestination(req.scope, order)
    next()
  } catch (e) {
    next(e)
  }
}

export const draftOrderGuardMiddlewares: MiddlewareRoute[] = [
  { matcher: DRAFT_ORDER_CONVERT_ROUTE, method: ["POST"], middlewares: [guardDraftOrderConversion] },
]
