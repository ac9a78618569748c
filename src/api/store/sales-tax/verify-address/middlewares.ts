// Middlewares of the plugin's store routes (/store/sales-tax/*): src/api/middlewares.ts spreads
// `storeSalesTaxGuardMiddlewares` into its routes. Medusa's publishable-key check runs first
// (400 without a key); then the body size limit (413 past it) and the hostile-input guard (400;
// registered once for the admin and store routes in ../../../admin/sales-tax/middlewares.ts).
import type { MiddlewareRoute } from "@medusajs/framework/http"
import { INPUT_LIMITS } from "../../../../http/input-guard"

export const storeSalesTaxGuardMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/sales-tax/*", bodyParser: { sizeLimit: INPUT_LIMITS.storeBodySize } },
]
