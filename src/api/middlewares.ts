import { defineMiddlewares } from "@medusajs/framework/http"
import { adminSalesTaxMiddlewares } from "./admin/sales-tax/middlewares"
import { answerPluginRouteError, INPUT_LIMITS } from "../http/input-guard"
import { medusaErrorHandlerWith } from "../medusa/error-handler"
import { storeSalesTaxMiddlewares } from "../checkout/store/tax-resync"
import { storeCertificateMiddlewares } from "./store/sales-tax/certificates/middlewares"
import { draftOrderGuardMiddlewares } from "./admin/sales-tax/draft-order-guard"
import { markServesRequests } from "../core/serving"

// Medusa loads this file only in a process that serves requests: its start-up warnings are logged there (src/core/serving.ts)
markServesRequests()

export default defineMiddlewares({
  // Medusa's own error handler, plus, on the plugin's routes, a 400 for undecodable paths and the body
  // parser's 4xx (a reach-in: src/medusa/error-handler.ts says what it assumes and buys)
  errorHandler: medusaErrorHandlerWith(answerPluginRouteError),
  routes: [
    ...adminSalesTaxMiddlewares,
    // the store routes' body size limit (413); the hostile-input guard is registered once, in the admin's middlewares
    { matcher: "/store/sales-tax/*", bodyParser: { sizeLimit: INPUT_LIMITS.storeBodySize } },
    ...storeCertificateMiddlewares,
    ...storeSalesTaxMiddlewares,
    ...draftOrderGuardMiddlewares,
  ],
})
