// Middlewares of the shopper certificate routes. Medusa's publishable-key check runs first (every
// /store route), then the plugin's body limit and hostile-input guard (../verify-address/middlewares.ts,
// ../../../admin/sales-tax/middlewares.ts), then, here: a logged-in customer only (session or
// bearer token; 401 otherwise — a guest cannot), the routes closed under `shopperCertificates: "off"`
// (403), the certificate id's shape (400), the body (400 with located errors, exactly the admin
// form's schema).
import {
  authenticate,
  type MedusaNextFunction,
  type MedusaRequest,
  type MedusaResponse,
  type MiddlewareRoute,
} from "@medusajs/framework/http"
import { validateBodyLocated } from "../../../../http/validate"
import { validateParams } from "../../../../http/id-shapes"
import { AdminCreateCertificateBody } from "../../../../certificates/body"
import { shopperCertificatesOpen } from "../../../../certificates/shopper"

/** `shopperCertificates: "off"`: every route answers 403 (after the login check, before any body check). */
function gate(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  if (shopperCertificatesOpen(req, res)) next()
}

export const storeCertificateMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/sales-tax/certificates*", middlewares: [authenticate("customer", ["session", "bearer"]), gate] },
  { matcher: "/store/sales-tax/certificates/:certId", methods: ["DELETE"], middlewares: [validateParams({ certId: "certificate" })] },
  { matcher: "/store/sales-tax/certificates", method: ["POST"], middlewares: [validateBodyLocated(AdminCreateCertificateBody)] },
]
