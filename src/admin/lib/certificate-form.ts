// The certificate form of the customer widget: its state, the request body it makes, and its
// field messages (from the same zod schema the service's contract uses). Pure, tested beside it.
import { CreateCertificateRequest } from "../../service/contract"
import { missingIdNumbers } from "../../checkout/exemptions/certificate-rules"

/** "IndustrialProductionOrManufacturing" → "Industrial production or manufacturing" */
export function humanize(s: string): string {
  const words = s
    .replace(/_/g, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export interface StateRow {
  abbreviation: string
  identificationNumber: string
}

/** The form's text fields and selects, each a string while edited (address fields flat). */
const TEXT = [
  "customerName",
  "line1",
  "line2",
  "city",
  "state",
  "zip",
  "reason",
  "reasonDescription",
  "customerBusinessType",
  "customerBusinessDescription",
] as const
export type TextField = (typeof TEXT)[number]
export type FormState = Record<TextField, string> & { states: StateRow[]; singlePurchase: boolean }

export function emptyForm(name: string): FormState {
  const blank = Object.fromEntries(TEXT.map((k) => [k, ""])) as Record<TextField, string>
  return { ...blank, customerName: name, states: [{ abbreviation: "", identificationNumber: "" }], singlePurchase: false }
}

/** The request body (without customerId) as the admin route takes it. */
export function toBody(f: FormState) {
  return {
    customerName: f.customerName.trim(),
    address: {
      line1: f.line1.trim(),
      ...(f.line2.trim() ? { line2: f.line2.trim() } : {}),
      city: f.city.trim(),
      state: f.state,
      zip: f.zip.trim(),
    },
    reason: f.reason,
    ...(f.reasonDescription.trim() ? { reasonDescription: f.reasonDescription.trim() } : {}),
    customerBusinessType: f.customerBusinessType,
    ...(f.customerBusinessDescription.trim() ? { customerBusinessDescription: f.customerBusinessDescription.trim() } : {}),
    states: f.states.map((s) => ({
      abbreviation: s.abbreviation,
      ...(s.identificationNumber.trim() ? { identificationNumber: s.identificationNumber.trim() } : {}),
    })),
    singlePurchase: f.singlePurchase,
  }
}

const REQUIRED_MESSAGES: Record<string, string> = {
  customerName: "Enter the name on the certificate",
  "address.line1": "Enter the street address",
  "address.city": "Enter the city",
  "address.state": "Pick the state",
  reason: "Pick the reason for the exemption",
  customerBusinessType: "Pick the business type",
}

/** Field messages keyed like `address.zip`, `states[0].abbreviation`, from the same schema the service uses. */
export function validate(customerId: string, f: FormState): Record<string, string> {
  const parsed = CreateCertificateRequest.safeParse({ ...toBody(f), customerId })
  const out: Record<string, string> = {}
  // the service's Address accepts empty strings; a certificate needs a real address
  const needed: [string, string][] = [
    ["customerName", f.customerName],
    ["address.line1", f.line1],
    ["address.city", f.city],
  ]
  for (const [key, value] of needed) if (!value.trim()) out[key] = REQUIRED_MESSAGES[key]!
  // an identification number per state, except for the reasons that carry none (as the routes check)
  if (f.reason)
    for (const m of missingIdNumbers(toBody(f))) out[`states[${m.index}].identificationNumber`] = "Enter the state's identification number"
  if (parsed.success) return out
  for (const iss of parsed.error.issues) {
    const key = iss.path
      .map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`))
      .join("")
      .replace(/^\./, "")
    if (out[key]) continue
    const blank = (iss as { input?: unknown }).input === "" || (iss as { input?: unknown }).input === undefined
    out[key] =
      blank && REQUIRED_MESSAGES[key]
        ? REQUIRED_MESSAGES[key]!
        : key.startsWith("states[") && key.endsWith("abbreviation") && blank
          ? "Pick a state"
          : iss.message
  }
  return out
}
