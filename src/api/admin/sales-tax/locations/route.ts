import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { locationViews } from "../../../../checkout/origins/origin-locations"
import { getPluginOptions } from "../../../../options"
import { handle } from "../../../../http/answers"

/** GET /admin/sales-tax/locations: each stock location with the origin its lines use and why (origin-locations.ts). */
export const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  res.json(await locationViews(req.scope, getPluginOptions(req.scope)))
})
