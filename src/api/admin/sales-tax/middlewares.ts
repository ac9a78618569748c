// The admin routes' middlewares, after Medusa's admin authentication: body size (413), hostile input,
// each path id's shape and the zod body (400 with located errors).
import type { MiddlewareRoute } from "@medusajs/framework/http"
import { validateParams, type IdShape } from "../../../http/id-shapes"
import { hostileInputGuard, INPUT_LIMITS } from "../../../http/input-guard"
import { validateBodyLocated } from "../../../http/validate"
import { rootMiddleware } from "../../../medusa/root-middleware"
import { TicSearchRequest } from "../../../../packages/contract/src/index"
import { AdminCreateCertificateBody } from "../../../certificates/body"
import { AdminReviewCertificateBody } from "../../../certificates/admin"
import { AdminSetTicBody } from "../../../tics/targets"
import { AdminNexusRegistrationBody } from "../../../nexus/routes"
import { AdminTicApplyBody, AdminTicImportBody, AdminUnclassifiedApplyBody } from "../../../tics/routes"
import { AdminSetupFixBody } from "../../../setup/routes"
import type { z } from "zod"

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

export const adminSalesTaxMiddlewares: MiddlewareRoute[] = [
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
]
