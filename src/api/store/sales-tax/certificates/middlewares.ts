// The shopper certificate routes: a logged-in customer only (401), closed under `shopperCertificates: "off"`
// (403), the id's shape and the body (400).
import { authenticate, type MiddlewareRoute } from "@medusajs/framework/http"
import { validateBodyLocated } from "../../../../http/validate"
import { validateParams } from "../../../../http/id-shapes"
import { AdminCreateCertificateBody } from "../../../../certificates/body"
import { shopperCertificatesGate } from "../../../../certificates/shopper"

export const storeCertificateMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/sales-tax/certificates*", middlewares: [authenticate("customer", ["session", "bearer"]), shopperCertificatesGate] },
  { matcher: "/store/sales-tax/certificates/:certId", methods: ["DELETE"], middlewares: [validateParams({ certId: "certificate" })] },
  { matcher: "/store/sales-tax/certificates", method: ["POST"], middlewares: [validateBodyLocated(AdminCreateCertificateBody)] },
]
