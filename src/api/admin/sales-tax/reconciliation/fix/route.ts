import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { FixBody } from "../../../../../filing/routes"
import { fixOrder, orderRow } from "../../../../../filing/reconciliation/medusa"
import { rowView } from "../../../../../filing/reconciliation/views"
import { notFound, parseOr400 } from "../../../../../http/answers"

/** POST { order_id }: the one-click fix through the filing handlers (keyed, so a second click adds nothing); answers the order's row after it. */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const body = parseOr400(req, res, FixBody, "body")
  if (!body) return
  const before = await orderRow(req.scope, body.order_id)
  if (!before) return notFound(res, "Order", body.order_id)
  await fixOrder(req.scope, body.order_id)
  res.json({ row: rowView((await orderRow(req.scope, body.order_id))!) })
}
