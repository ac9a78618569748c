// The certificate form of the customer widget: its state, the request body it makes, and its
// field messages (from the admin route's own schema); and the widget's connection selector. Pure, tested beside it.
import { BUSINESS_TYPES, EXEMPTION_REASONS, US_STATES, issuesToErrors } from "../../../packages/contract/src/index"
import { AdminCreateCertificateBody } from "../../certificates/body"
import { missingIdNumbers } from "../../checkout/exemptions/certificate-rules"
import type { Options } from "../components/ui"
import type { ConnectionView } from "../../setup/routes"

/** "IndustrialProductionOrManufacturing" → "Industrial production or manufacturing" */
export function humanize(s: string): string {
  const words = s
    .replace(/_/g, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export type StateRow = { abbreviation: string; identificationNumber: string }

const humanized = (values: readonly string[]) => values.map((v) => [v, humanize(v)] as const)
/** A field of the form: its key in the form's state, its name in the request body (and its messages). */
const field = <K extends string>(
  key: K,
  label: string,
  more: { options?: Options; placeholder?: string; multiline?: boolean; hint?: string } = {},
) => ({ key, label, name: ["line1", "line2", "city", "state", "zip"].includes(key) ? `address.${key}` : key, ...more })

/** The form's text fields and selects in order, each a string while edited (address fields flat); a nested list is one row. */
export const FIELDS = [
  field("customerName", "Name on the certificate"),
  field("line1", "Address line 1"),
  field("line2", "Address line 2 (optional)"),
  [
    field("city", "City"),
    field("state", "State", { options: US_STATES, placeholder: "State" }),
    field("zip", "ZIP", { placeholder: "94105" }),
  ],
  field("reason", "Reason for exemption", { options: humanized(EXEMPTION_REASONS), placeholder: "Choose a reason" }),
  field("reasonDescription", "Reason description", { multiline: true, hint: "Required when the reason is Other" }),
  field("customerBusinessType", "Business type", { options: humanized(BUSINESS_TYPES), placeholder: "Choose a business type" }),
  field("customerBusinessDescription", "Business description", { multiline: true, hint: "Required when the business type is Other" }),
] as const
type Flat<T> = T extends readonly (infer U)[] ? U : T
export type TextField = Flat<(typeof FIELDS)[number]>["key"]
export type FormState = Record<TextField, string> & { states: StateRow[]; singlePurchase: boolean }

export function emptyForm(name: string): FormState {
  const blank = Object.fromEntries(FIELDS.flat().map((f) => [f.key, ""])) as Record<TextField, string>
  return { ...blank, customerName: name, states: [{ abbreviation: "", identificationNumber: "" }], singlePurchase: false }
}

const optional = (v: string) => v.trim() || undefined

/** The request body (without customerId) as the admin route takes it. */
export function toBody(f: FormState) {
  return {
    customerName: f.customerName.trim(),
    address: { line1: f.line1.trim(), line2: optional(f.line2), city: f.city.trim(), state: f.state, zip: f.zip.trim() },
    reason: f.reason,
    reasonDescription: optional(f.reasonDescription),
    customerBusinessType: f.customerBusinessType,
    customerBusinessDescription: optional(f.customerBusinessDescription),
    states: f.states.map((s) => ({ abbreviation: s.abbreviation, identificationNumber: optional(s.identificationNumber) })),
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

/** `?connection_id=<id>` for a chosen connection other than the default; "" for the default. */
export function connectionQuery(connectionId: string | null): string {
  return connectionId ? `?connection_id=${encodeURIComponent(connectionId)}` : ""
}

/** A connection as the selector names it: its sales channels (the default says so). */
export function connectionLabel(c: ConnectionView): string {
  const names = c.salesChannels.map((s) => s.name ?? s.id).join(", ")
  return c.isDefault ? `Default connection${names ? ` (${names})` : ""}` : names || c.connectionId
}
