// Route middlewares of the plugin's admin routes. src/api/middlewares.ts spreads
// `adminSalesTaxMiddlewares` into its routes. Authentication: every /admin/* route is behind
// Medusa's admin authentication already (session, bearer or secret API key), which runs first.
// Then, in this order: the body size limit (Medusa's JSON parser, 413), the hostile-input guard
// (path, query, body depth and control characters: 400), the id shape of each path parameter
// (400), the route's zod body (400 with located errors).
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"
import { validateAndTransformBody } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"
import { sendError, sendZodError } from "../../../http/answers"
import { validateParams, type IdShape } from "../../../http/id-shapes"
import { excerpt, hostileInputGuard, INPUT_LIMITS } from "../../../http/input-guard"
import { AdminCreateCertificateBody, AdminSetTicBody, AdminTicSearchBody } from "./validators"
import { AdminNexusRegistrationBody } from "./nexus/validators"
import { AdminTicApplyBody, AdminTicImportBody, AdminUnclassifiedApplyBody } from "./tics/validators"
import { AdminSetupFixBody } from "./setup/validators"

/**
 * Medusa's validateAndTransformBody, whose 400 answer (`{ type: "invalid_data", message }`) is
 * completed with `errors`: the located field messages ({ location: "body.address.zip", message,
 * value }) the widgets show next to each field. The located errors come from the plugin's own
 * parse of the body (never from Medusa's message): first as the schema is, then strict, as
 * Medusa's validator applies it, for the fields the schema does not name.
 */
export function validateBodyLocated(schema: z.ZodType) {
  const medusa = validateAndTransformBody(schema)
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    const located = (err?: unknown) => {
      // Medusa's INVALID_DATA, or Medusa's validator itself failing on a hostile value (an object
      // such as {"toString": …} where a string belongs: "Cannot convert object to primitive value"
      // while it formats its message): both are bad input, answered with the located 400
      const badInput = err instanceof MedusaError ? err.type === MedusaError.Types.INVALID_DATA : err !== undefined
      if (badInput) {
        const parsed = schema.safeParse(req.body)
        if (!parsed.success) return sendZodError(res, parsed.error, req.body)
        const unknown = unknownFields(schema, req.body)
        if (unknown.length) {
          const body = (req.body ?? {}) as Record<string, unknown>
          return sendError(
            res,
            400,
            MedusaError.Types.INVALID_DATA,
            `Invalid request: ${unknown.map((f) => `${f}: not a field of this request`).join("; ")}`,
            unknown.map((f) => ({ location: `body.${f}`, message: "not a field of this request", value: excerpt(body[f]) })),
          )
        }
      }
      return next(err)
    }
    try {
      await medusa(req, res, located)
    } catch (e) {
      located(e)
    }
  }
}

/** The top-level fields of `body` that `schema` does not name (its strict parse's unrecognized keys). Pure. */
export function unknownFields(schema: z.ZodType, body: unknown): string[] {
  const strict = (schema as { strict?: () => z.ZodType }).strict
  if (typeof strict !== "function") return []
  const parsed = strict.call(schema).safeParse(body)
  if (parsed.success) return []
  return parsed.error.issues.flatMap((i) => (i.code === "unrecognized_keys" && i.path.length === 0 ? i.keys : []))
}

const TIC_TARGETS = { product: "product", "product-type": "productType", "product-category": "productCategory" } as const satisfies Record<
  string,
  IdShape
>

export const adminSalesTaxMiddlewares: MiddlewareRoute[] = [
  // every route under /admin/sales-tax (all methods): body size, then the hostile-input guard
  // (mounted at "/" to run before Medusa's own wildcard middlewares; it passes other paths through,
  // and covers /store/sales-tax too)
  // a bulk TIC import carries its CSV file (up to 8 MB of text); Medusa picks the most specific matcher
  { matcher: "/admin/sales-tax/tics/import", bodyParser: { sizeLimit: "9mb" } },
  { matcher: "/admin/sales-tax/tics/import/apply", bodyParser: { sizeLimit: "9mb" } },
  { matcher: "/admin/sales-tax/*", bodyParser: { sizeLimit: INPUT_LIMITS.adminBodySize } },
  { matcher: "/", middlewares: [hostileInputGuard] },
  // ids by shape, on the exact routes (method-bound, so routes added beside these are not caught)
  ...Object.entries(TIC_TARGETS).map(([t, shape]): MiddlewareRoute => ({
    matcher: `/admin/sales-tax/tics/${t}/:id`,
    methods: ["GET", "POST", "DELETE"],
    middlewares: [validateParams({ id: shape })],
  })),
  { matcher: "/admin/sales-tax/customers/:id/certificates", methods: ["GET", "POST"], middlewares: [validateParams({ id: "customer" })] },
  {
    matcher: "/admin/sales-tax/certificates/:certId",
    methods: ["GET", "DELETE"],
    middlewares: [validateParams({ certId: "certificate" })],
  },
  { matcher: "/admin/sales-tax/filings/:orderId", methods: ["GET"], middlewares: [validateParams({ orderId: "filingOrder" })] },
  { matcher: "/admin/sales-tax/activity/:id", methods: ["GET"], middlewares: [validateParams({ id: "callLogEntry" })] },
  { matcher: "/admin/sales-tax/filings/:orderId/retry", methods: ["POST"], middlewares: [validateParams({ orderId: "filingOrder" })] },
  { matcher: "/admin/sales-tax/filings/:orderId/requote", methods: ["POST"], middlewares: [validateParams({ orderId: "filingOrder" })] },
  // zod bodies
  ...Object.keys(TIC_TARGETS).map((t): MiddlewareRoute => ({
    matcher: `/admin/sales-tax/tics/${t}/:id`,
    method: ["POST"],
    middlewares: [validateBodyLocated(AdminSetTicBody)],
  })),
  { matcher: "/admin/sales-tax/tics/search", method: ["POST"], middlewares: [validateBodyLocated(AdminTicSearchBody)] },
  {
    matcher: "/admin/sales-tax/customers/:id/certificates",
    method: ["POST"],
    middlewares: [validateBodyLocated(AdminCreateCertificateBody)],
  },
  { matcher: "/admin/sales-tax/nexus/registrations", method: ["POST"], middlewares: [validateBodyLocated(AdminNexusRegistrationBody)] },
  { matcher: "/admin/sales-tax/tics/import", method: ["POST"], middlewares: [validateBodyLocated(AdminTicImportBody)] },
  { matcher: "/admin/sales-tax/tics/import/apply", method: ["POST"], middlewares: [validateBodyLocated(AdminTicApplyBody)] },
  {
    matcher: "/admin/sales-tax/tics/unclassified/apply",
    method: ["POST"],
    middlewares: [validateBodyLocated(AdminUnclassifiedApplyBody)],
  },
  // the setup checklist's fixes (issue 30)
  { matcher: "/admin/sales-tax/setup/fix", method: ["POST"], middlewares: [validateBodyLocated(AdminSetupFixBody)] },
]
