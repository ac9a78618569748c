// The plugin's middlewares: the admin routes' (after Medusa's admin authentication: body size (413),
// hostile input, each path id's shape and the zod body: 400 with located errors), the store routes', the draft order guard.
import { authenticate, defineMiddlewares, type MiddlewareRoute } from "@medusajs/framework/http"
import type { z } from "zod"
import { TicSearchRequest } from "../../packages/contract/src/index"
import { answerPluginRouteError, hostileInputGuard, INPUT_LIMITS } from "../http/input-guard"
import { medusaErrorHandlerWith } from "../medusa/error-handler"
import { rootMiddleware } from "../medusa/root-middleware"
import { storeSalesTaxMiddlewares } from "../checkout/store/tax-resync"
import { validateBodyLocated } from "../http/validate"
import { validateParams, type IdShape } from "../http/id-shapes"
import { AdminCreateCertificateBody } from "../certificates/body"
import { AdminReviewCertificateBody } from "../certificates/admin"
import { shopperCertificatesGate } from "../certificates/shopper"
import { AdminSetTicBody } from "../tics/targets"
import { AdminNexusRegistrationBody } from "../nexus/routes"
import { AdminTicApplyBody, AdminTicImportBody, AdminUnclassifiedApplyBody } from "../tics/routes"
import { AdminSetupFixBody } from "../setup/routes"
import { guardDraftOrderConversion } from "../checkout/hooks/destination-guard"
import { DRAFT_ORDER_CONVERT_ROUTE } from "../medusa/draft-order-convert-route"
import { markServesRequests } from "../core/serving"

// Medusa loads this file only in a process that serves requests: its start-up warnings are logged there (src/core/serving.ts)
markServesRequests()

const TIC_TARGETS: Record<string, IdShape> = { product: "product", "product-type": "productType", "product-category": "productCategory" }

const ids = (matcher: string, methods: MiddlewareRoute["methods"], shapes: Record<string, IdShape>): MiddlewareRoute => ({
  matcher,
  methods,
  middlewares: [validateParams(shapes)],
})
const body = (matcher: string, schema: z.ZodType): MiddlewareRoute => ({
  matcher,
  method: ["POST"],
  middlewares: [validateBodyLocated(schema)],
})

export default defineMiddlewares({
  // Medusa's own error handler, plus, on the plugin's routes, a 400 for undecodable paths and the body
  // parser's 4xx (a reach-in: src/medusa/error-handler.ts says what it assumes and buys)
  errorHandler: medusaErrorHandlerWith(answerPluginRouteError),
  routes: [
    // a bulk TIC import carries its CSV file (up to 8 MB of text); Medusa picks the most specific matcher
    { matcher: "/admin/sales-tax/tics/import", bodyParser: { sizeLimit: "9mb" } },
    { matcher: "/admin/sales-tax/tics/import/apply", bodyParser: { sizeLimit: "9mb" } },
    { matcher: "/admin/sales-tax/*", bodyParser: { sizeLimit: INPUT_LIMITS.adminBodySize } },
    // before Medusa's own wildcard middlewares; it passes other paths through and covers /store/sales-tax too
    rootMiddleware(hostileInputGuard),
    // method-bound, so routes added beside these are not caught
    ...Object.entries(TIC_TARGETS).map(([t, shape]) => ids(`/admin/sales-tax/tics/${t}/:id`, ["GET", "POST", "DELETE"], { id: shape })),
    ids("/admin/sales-tax/customers/:id/certificates", ["GET", "POST"], { id: "customer" }),
    ids("/admin/sales-tax/certificates/:certId", ["GET", "DELETE"], { certId: "certificate" }),
    ids("/admin/sales-tax/certificates/:certId/review", ["POST"], { certId: "certificate" }),
    ids("/admin/sales-tax/filings/:orderId", ["GET"], { orderId: "filingOrder" }),
    ids("/admin/sales-tax/activity/:id", ["GET"], { id: "callLogEntry" }),
    ids("/admin/sales-tax/filings/:orderId/retry", ["POST"], { orderId: "filingOrder" }),
    ids("/admin/sales-tax/filings/:orderId/requote", ["POST"], { orderId: "filingOrder" }),
    ...Object.keys(TIC_TARGETS).map((t) => body(`/admin/sales-tax/tics/${t}/:id`, AdminSetTicBody)),
    body("/admin/sales-tax/tics/search", TicSearchRequest),
    body("/admin/sales-tax/customers/:id/certificates", AdminCreateCertificateBody),
    body("/admin/sales-tax/certificates/:certId/review", AdminReviewCertificateBody),
    body("/admin/sales-tax/nexus/registrations", AdminNexusRegistrationBody),
    body("/admin/sales-tax/tics/import", AdminTicImportBody),
    body("/admin/sales-tax/tics/import/apply", AdminTicApplyBody),
    body("/admin/sales-tax/tics/unclassified/apply", AdminUnclassifiedApplyBody),
    body("/admin/sales-tax/setup/fix", AdminSetupFixBody),
    // the store routes' body size limit (413); the hostile-input guard is registered once, above
    { matcher: "/store/sales-tax/*", bodyParser: { sizeLimit: INPUT_LIMITS.storeBodySize } },
    // the shopper certificate routes: a logged-in customer only (401), closed under
    // `shopperCertificates: "off"` (403), the id's shape and the body (400)
    { matcher: "/store/sales-tax/certificates*", middlewares: [authenticate("customer", ["session", "bearer"]), shopperCertificatesGate] },
    ids("/store/sales-tax/certificates/:certId", ["DELETE"], { certId: "certificate" }),
    body("/store/sales-tax/certificates", AdminCreateCertificateBody),
    ...storeSalesTaxMiddlewares,
    // convertDraftOrderWorkflow has no hook: its route refuses a US draft order as cart completion does
    { matcher: DRAFT_ORDER_CONVERT_ROUTE, method: ["POST"], middlewares: [guardDraftOrderConversion] },
  ],
})
