// Refuses converting a US draft order (convertDraftOrderWorkflow has no hook) whose destination cannot be
// resolved or whose currency is not USD, with the same 400 as cart completion (destination-guard.ts).
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"
import { graph } from "../../../query"
import { OrderAddress, refuseUnquotableDestination, type OrderToBe } from "../../../checkout/hooks/destination-guard"
import { DRAFT_ORDER_CONVERT_ROUTE } from "../../../medusa/draft-order-convert-route"

// what the refusal reads
const DRAFT_ORDER_FIELDS = [
  "id",
  "currency_code",
  "region.automatic_taxes",
  ...Object.keys(OrderAddress.shape).map((f) => `shipping_address.${f}`),
]

async function guardDraftOrderConversion(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
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
