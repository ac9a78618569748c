// The body of a new exemption certificate, the admin form's and the shopper's alike: the service's
// certificate request without customerId (the path's customer, or the logged-in one).
import { z } from "zod"
import { CreateCertificateRequest } from "../../packages/contract/src/index"
import { missingIdNumbers } from "../checkout/exemptions/certificate-rules"

/** The request's cross-field rules (description for "Other", states listed once) are checked by running the full schema. */
export const AdminCreateCertificateBody = CreateCertificateRequest.omit({ customerId: true }).superRefine((value, ctx) => {
  // the service's Address accepts empty strings: a certificate needs a real street and city
  for (const k of ["line1", "city"] as const) {
    if (typeof value.address?.[k] === "string" && !value.address[k].trim()) {
      ctx.addIssue({ code: "custom", path: ["address", k], message: `address.${k} is required`, input: value.address[k] })
    }
  }
  // an identification number per state, except for the reasons that carry none
  for (const m of missingIdNumbers(value)) {
    ctx.addIssue({
      code: "custom",
      path: ["states", m.index, "identificationNumber"],
      message: m.message,
      input: value.states?.[m.index]?.identificationNumber,
    })
  }
  const full = CreateCertificateRequest.safeParse({ ...value, customerId: "placeholder" })
  if (full.success) return
  for (const iss of full.error.issues) {
    if (iss.code !== "custom") continue
    ctx.addIssue({ code: "custom", path: iss.path, message: iss.message, input: (iss as { input?: unknown }).input })
  }
})
export type AdminCreateCertificateBody = z.infer<typeof AdminCreateCertificateBody>
