// The body size limit (413) of the plugin's store routes, after Medusa's publishable-key check (the
// hostile-input guard is registered once for admin and store in ../../../admin/sales-tax/middlewares.ts).
import type { MiddlewareRoute } from "@medusajs/framework/http"
import { INPUT_LIMITS } from "../../../../http/input-guard"

export const storeSalesTaxGuardMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/sales-tax/*", bodyParser: { sizeLimit: INPUT_LIMITS.storeBodySize } },
]
