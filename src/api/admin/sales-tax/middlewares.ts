// Route middlewares of the plugin's admin routes (body validation). src/api/middlewares.ts spreads
// `adminSalesTaxMiddlewares` into its routes. Authentication: every /admin/* route is behind
// Medusa's admin authentication already (session, bearer or secret API key).
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"
import { validateAndTransformBody } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"
import { sendZodError } from "./helpers"
import { AdminCreateCertificateBody, AdminSetTicBody, AdminTicSearchBody } from "./validators"

/**
 * Medusa's validateAndTransformBody, whose 400 answer (`{ type: "invalid_data", message }`) is
 * completed with `errors`: the located field messages ({ location: "body.address.zip", message,
 * value }) the widgets show next to each field.
 */
export function validateBodyLocated(schema: z.ZodType) {
  const medusa = validateAndTransformBody(schema as never)
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    await medusa(req, res, (err?: unknown) => {
      if (err instanceof MedusaError && err.type === MedusaError.Types.INVALID_DATA) {
        const parsed = schema.safeParse(req.body)
        if (!parsed.success) return sendZodError(res, parsed.error, req.body)
      }
      return next(err as never)
    })
  }
}

const TIC_TARGETS = ["product", "product-type", "product-category"] as const

export const adminSalesTaxMiddlewares: MiddlewareRoute[] = [
  ...TIC_TARGETS.map(
    (t): MiddlewareRoute => ({
      matcher: `/admin/sales-tax/tics/${t}/:id`,
      method: ["POST"],
      middlewares: [validateBodyLocated(AdminSetTicBody)],
    }),
  ),
  { matcher: "/admin/sales-tax/tics/search", method: ["POST"], middlewares: [validateBodyLocated(AdminTicSearchBody)] },
  {
    matcher: "/admin/sales-tax/customers/:id/certificates",
    method: ["POST"],
    middlewares: [validateBodyLocated(AdminCreateCertificateBody)],
  },
]
