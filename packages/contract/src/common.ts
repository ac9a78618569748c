import { z } from "zod"

/** US states + DC as the service accepts them (two-letter USPS abbreviations), by USPS name. */
export const US_STATE_NAMES = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
} as const
/** The abbreviations, in the names' order. */
export const US_STATES = Object.keys(US_STATE_NAMES) as readonly UsState[]
/** US territories with ZIP codes (accepted as destinations; the service taxes none of them). */
export const US_TERRITORIES = ["PR", "VI", "GU", "AS", "MP"] as const
export const CA_PROVINCES = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"] as const

export type UsState = keyof typeof US_STATE_NAMES

const STATE_SET = new Set<string>([...US_STATES, ...US_TERRITORIES, ...CA_PROVINCES])

export const StateCode = z.string().refine((s) => STATE_SET.has(s), {
  error: (iss) =>
    typeof iss.input === "string" && iss.input.length > 2
      ? "state must be a two-character abbreviation (full state names are rejected)"
      : "state must be a two-character state or province abbreviation in upper case",
})

export const US_ZIP_RE = /^\d{5}(-\d{4})?$/
export const CA_POSTAL_RE = /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/

export const CountryCode = z.enum(["US", "CA"])

/** Address, version 3. zip: NNNNN or NNNNN-NNNN (US), A1A 1A1 (CA). */
export const Address = z
  .object({
    line1: z.string().max(100),
    line2: z.string().max(100).nullish(),
    city: z.string().max(100),
    state: StateCode,
    zip: z.string(),
    countryCode: CountryCode.optional(),
  })
  .superRefine((a, ctx) => {
    const ca = a.countryCode === "CA"
    if (ca ? !CA_POSTAL_RE.test(a.zip) : !US_ZIP_RE.test(a.zip)) {
      ctx.addIssue({
        code: "custom",
        path: ["zip"],
        input: a.zip,
        message: ca
          ? "zip must be a Canadian postal code (A1A 1A1)"
          : "zip must be 5 digits, optionally followed by a hyphen and 4 digits (NNNNN or NNNNN-NNNN)",
      })
    }
  })
export type Address = z.infer<typeof Address>

export const Currency = z.object({
  currencyCode: z.string().regex(/^[A-Z]{3}$/, "currencyCode must be a 3-letter ISO 4217 code in upper case"),
})
export type Currency = z.infer<typeof Currency>

export const DateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time (e.g. 2026-01-31T12:00:00Z)" })

/** Abstract customer identifier: never an e-mail address. */
export const CustomerId = z
  .string()
  .min(1)
  .max(50)
  .refine((s) => !s.includes("@"), { error: "customerId must be an abstract identifier, not an e-mail address" })

export const ConnectionId = z.string().min(36, "connectionId must be at least 36 characters")
export const CartId = z.string().min(1, "cartId must be 1 to 50 characters").max(50, "cartId must be 1 to 50 characters")
export const OrderId = z.string().min(1, "orderId must be 1 to 50 characters").max(50, "orderId must be 1 to 50 characters")

export const Tax = z.object({ amount: z.number(), rate: z.number() })
export type Tax = z.infer<typeof Tax>

/** Money amounts on the wire are JSON numbers in dollars; prices must be finite. */
export const Price = z.number().finite()
export const Quantity = z.number().finite().positive("quantity must be greater than 0")

/** Query-string boolean: exactly "true" or "false". */
export const QueryBool = z.enum(["true", "false"], { error: 'must be "true" or "false"' }).transform((v) => v === "true")
/** Query-string integer. */
export const QueryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, "must be an integer")
    .transform((v) => Number(v))
    .pipe(z.number().int().min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`))

/** One located error in a problem response. */
export const ErrorDetail = z.object({
  location: z.string(),
  message: z.string(),
  value: z.unknown().optional(),
})
export type ErrorDetail = z.infer<typeof ErrorDetail>

/** application/problem+json (RFC 9457 style). */
export const Problem = z.object({
  $schema: z.string().optional(),
  type: z.string().default("about:blank"),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  errors: z.array(ErrorDetail).optional(),
})
export type Problem = z.infer<typeof Problem>
