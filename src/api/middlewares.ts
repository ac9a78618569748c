import { authenticate, defineMiddlewares } from "@medusajs/framework/http"
import { adminSalesTaxMiddlewares } from "./admin/sales-tax/middlewares"
import { answerPluginRouteError, INPUT_LIMITS } from "../http/input-guard"
import { medusaErrorHandlerWith } from "../medusa/error-handler"
import { storeSalesTaxMiddlewares } from "../checkout/store/tax-resync"
import { validateBodyLocated } from "../http/validate"
import { validateParams } from "../http/id-shapes"
import { AdminCreateCertificateBody } from "../certificates/body"
import { shopperCertificatesGate } from "../certificates/shopper"
import { guardDraftOrderConversion } from "../checkout/hooks/destination-guard"
import { DRAFT_ORDER_CONVERT_ROUTE } from "../medusa/draft-order-convert-route"
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
    // the shopper certificate routes: a logged-in customer only (401), closed under
    // `shopperCertificates: "off"` (403), the id's shape and the body (400)
    { matcher: "/store/sales-tax/certificates*", middlewares: [authenticate("customer", ["session", "bearer"]), shopperCertificatesGate] },
    { matcher: "/store/sales-tax/certificates/:certId", methods: ["DELETE"], middlewares: [validateParams({ certId: "certificate" })] },
    { matcher: "/store/sales-tax/certificates", method: ["POST"], middlewares: [validateBodyLocated(AdminCreateCertificateBody)] },
    ...storeSalesTaxMiddlewares,
    // convertDraftOrderWorkflow has no hook: its route refuses a US draft order as cart completion does
    { matcher: DRAFT_ORDER_CONVERT_ROUTE, method: ["POST"], middlewares: [guardDraftOrderConversion] },
  ],
})
