// The certificate form of the customer widget: its state, the request body it makes, and its
// field messages (from the admin route's own schema). Pure, tested beside it.
import { issuesToErrors } from "../../service/contract"
import { AdminCreateCertificateBody } from "../../certificates/body"
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

/** The words shown for a field left blank (the schema's own message otherwise). */
const BLANK: Record<string, string> = {
  customerName: "Enter the name on the certificate",
  "address.line1": "Enter the street address",
  "address.city": "Enter the city",
  "address.state": "Pick the state",
  reason: "Pick the reason for the exemption",
  customerBusinessType: "Pick the business type",
}

/** Field messages keyed like `address.zip`, `states[0].abbreviation`: the admin route's own schema, in the merchant's words. */
export function validate(f: FormState): Record<string, string> {
  const body = toBody(f)
  const parsed = AdminCreateCertificateBody.safeParse(body)
  const out: Record<string, string> = {}
  // the route's cross-field checks run once every field parses: the widget shows them at once
  for (const k of ["line1", "city"] as const) if (!f[k].trim()) out[`address.${k}`] = BLANK[`address.${k}`]!
  if (f.reason)
    for (const m of missingIdNumbers(body)) out[`states[${m.index}].identificationNumber`] = "Enter the state's identification number"
  for (const e of parsed.success ? [] : issuesToErrors("body", parsed.error, body)) {
    const key = e.location.replace(/^body\./, "")
    const blank = e.value === "" || e.value === undefined
    out[key] ??= (blank && (BLANK[key] ?? (/^states\[\d+\]\.abbreviation$/.test(key) ? "Pick a state" : undefined))) || e.message
  }
  return out
}
