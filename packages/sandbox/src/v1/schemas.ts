/**
 * Version 1 request shapes as zod schemas. Keys are LOWER CASE: request bodies go through
 * `lowerKeys` (./normalize.ts) first, so `CartItems`, `cartItems` and `CARTITEMS` are one key.
 * Scalars are coerced the way real v1 clients send them: numbers and booleans as strings
 * ("00000", "3", "false"), ZIP codes as numbers (leading zeros restored), empty strings and null
 * as "absent" for optional fields, a single object where an array is expected.
 */
import { z } from "zod"
import { US_STATES } from "@medusa-sales-tax/contract"

/** Version 1 State allowed values (the 50 states and DC). */
export const V1_STATES: readonly string[] = US_STATES

const NUM_RE = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/

/** "" and null read as absent. */
const blank = (v: unknown) => (v === "" || v === null ? undefined : v)

/** Number, or a numeric string. */
export const num = z.preprocess(
  (v) => (typeof v === "string" && NUM_RE.test(v.trim()) ? Number(v.trim()) : v),
  z.number({ error: "must be a number" }).finite("must be a finite number"),
)
/** Integer, or an integer string ("00000" → 0). */
export const int = z.preprocess(
  (v) => (typeof v === "string" && /^[-+]?\d+$/.test(v.trim()) ? Number(v.trim()) : v),
  z
    .number({ error: "must be an integer" })
    .int("must be an integer")
    .min(-2147483648, "must be a 32-bit integer")
    .max(2147483647, "must be a 32-bit integer"),
)
/** Boolean, or "true"/"false"/"1"/"0" in any case, or 1/0. */
export const bool = z.preprocess(
  (v) => {
    if (typeof v === "string") {
      const s = v.trim().toLowerCase()
      if (s === "true" || s === "1") return true
      if (s === "false" || s === "0") return false
    }
    if (v === 1) return true
    if (v === 0) return false
    return v
  },
  z.boolean({ error: 'must be a boolean (true/false, "true"/"false")' }),
)
/** String; a finite number is taken as its decimal text. Trimmed. */
export const str = (max = 255) =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v.trim() : v),
    z.string({ error: "must be a string" }).max(max, `must be at most ${max} characters`),
  )
export const nonEmpty = (max = 255) =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v.trim() : v),
    z.string({ error: "is required" }).min(1, "is required").max(max, `must be at most ${max} characters`),
  )

/** Optional: absent, null and "" all mean "not given". */
export const opt = <T extends z.ZodType>(s: T) => z.preprocess(blank, s.optional())

/** A single object where an array is expected is taken as a one-element array. */
export const list = <T extends z.ZodType>(item: T, refine: (a: z.ZodArray<T>) => z.ZodType = (a) => a) =>
  z.preprocess(
    (v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? [v] : v),
    refine(z.array(item, { error: "must be a list" })) as z.ZodArray<T>,
  )

/**
 * Version 1 dates: ISO 8601 date-times (an offset-less one is read as UTC), plain dates
 * (midnight UTC), and the .NET JSON form `/Date(1736942400000)/`. Output: ISO string (UTC).
 */
export const v1Date = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v
    const s = v.trim()
    const net = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(s)
    if (net) return new Date(Number(net[1])).toISOString()
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(s)
    if (!m) return v
    const [, y, mo, d, h = "00", mi = "00", sec = "00", frac = "", tz = "Z"] = m
    const iso = `${y}-${mo}-${d}T${h}:${mi}:${sec}${frac.slice(0, 4)}${tz.toUpperCase() === "Z" ? "Z" : tz.includes(":") ? tz : tz.slice(0, 3) + ":" + tz.slice(3)}`
    const t = Date.parse(iso)
    if (!Number.isFinite(t)) return v
    // reject rolled-over dates such as 2026-02-31
    const back = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
    if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d)) return v
    return new Date(t).toISOString()
  },
  z.iso.datetime({ offset: true, error: "must be a date or date-time (ISO 8601, e.g. 2026-01-31T12:00:00Z)" }),
)

/** 5-digit ZIP; a number gets its leading zeros back (2134 → "02134"); "98109-1234" keeps both parts. */
const zip5 = z.preprocess(
  (v) => {
    if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 99999) return String(v).padStart(5, "0")
    if (typeof v === "string") {
      const s = v.trim()
      if (/^\d{1,4}$/.test(s)) return s.padStart(5, "0")
      return s
    }
    return v
  },
  z.string({ error: "Zip5 is required" }).regex(/^\d{5}(-\d{4})?$/, "Zip5 must be a 5-digit ZIP code"),
)

/** 4-digit ZIP extension; 0, "0000", "" and null mean none. */
const zip4 = z.preprocess(
  (v) => {
    if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 9999) return v === 0 ? undefined : String(v).padStart(4, "0")
    if (typeof v === "string") {
      const s = v.trim()
      if (s === "" || /^0{1,4}$/.test(s)) return undefined
      return /^\d{1,3}$/.test(s) ? s.padStart(4, "0") : s
    }
    return v === null ? undefined : v
  },
  z
    .string()
    .regex(/^\d{4}$/, "Zip4 must be 4 digits")
    .optional(),
)

export const v1State = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
  z.string({ error: "State is required" }).refine((s) => V1_STATES.includes(s), {
    error: "State must be one of the version 1 allowed values (two-letter abbreviation of a US state or DC)",
  }),
)

/** Version 1 address → { line1, line2?, city, state, zip } (version 3 Address). */
export const V1Address = z
  .object(
    {
      address1: opt(str(100)),
      address2: opt(str(100)),
      city: opt(str(100)),
      state: v1State,
      zip5: zip5,
      zip4: zip4,
    },
    { error: "must be an address object { Address1, Address2, City, State, Zip5, Zip4 }" },
  )
  .transform((a) => {
    const [z5, z4fromZip5] = a.zip5.split("-") as [string, string | undefined]
    const z4 = a.zip4 ?? z4fromZip5
    return {
      line1: a.address1 ?? "",
      ...(a.address2 !== undefined ? { line2: a.address2 } : {}),
      city: a.city ?? "",
      state: a.state,
      zip: z4 ? `${z5}-${z4}` : z5,
    }
  })
export type V1AddressOut = z.output<typeof V1Address>

/** Credentials (always required); apiKey may come from the query string instead. */
export const Credentials = z.object({
  apiloginid: opt(str(200)),
  apikey: opt(str(500)),
})

export const V1CustomerId = z.preprocess(
  (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v.trim() : v),
  z
    .string({ error: "customerID is required" })
    .min(1, "customerID is required")
    .max(50, "customerID must be at most 50 characters")
    .refine((s) => !s.includes("@"), { error: "customerID must be an abstract identifier, not an e-mail address" }),
)
export const V1CartId = z.preprocess(
  (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v.trim() : v),
  z.string().min(1).max(50, "cartID must be 1 to 50 characters"),
)
export const V1OrderId = z.preprocess(
  (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" ? v.trim() : v),
  z.string({ error: "orderID is required" }).min(1, "orderID is required").max(50, "orderID must be 1 to 50 characters"),
)

/** Largest |Price| and Qty (as the version 3 sandbox: keeps amounts exact). */
const MAX = 1_000_000_000

export const LookupItem = z.object({
  index: int.pipe(z.number().min(0, "Index must not be negative")),
  itemid: nonEmpty(100),
  tic: opt(int.pipe(z.number().min(0, "TIC must not be negative"))),
  price: num.pipe(z.number().min(-MAX).max(MAX, `Price must be between -${MAX} and ${MAX}`)),
  qty: num.pipe(z.number().gt(0, "Qty must be greater than 0").max(MAX, `Qty must not exceed ${MAX}`)),
})

/**
 * Lines are told apart by Index (unique per cart). The same ItemID may appear on several lines
 * (real v1 clients send one line per shipment or per variant with the product's id).
 */
function uniqueLines(items: { index?: number; itemid: string }[], ctx: z.RefinementCtx): void {
  const idx = new Set<number>()
  items.forEach((it, i) => {
    if (it.index !== undefined) {
      if (idx.has(it.index))
        ctx.addIssue({ code: "custom", path: [i, "index"], message: "Index appears twice in cartItems", input: it.index })
      idx.add(it.index)
    }
  })
}

export const ExemptState = z.object({
  stateabbr: v1State,
  reasonforexemption: opt(str(255)),
  identificationnumber: opt(str(50)),
})

export const PurchaserTaxId = z.object({
  taxtype: opt(str(50)),
  idnumber: opt(str(50)),
  stateofissue: opt(str(10)),
})

/** The certificate Detail of AddExemptCertificate / an inline Lookup exemptCert. */
export const CertificateDetail = z.object({
  exemptstates: list(ExemptState, (a) => a.min(1, "ExemptStates needs at least one state")),
  singlepurchase: opt(bool),
  singlepurchaseordernumber: opt(str(100)),
  purchaserfirstname: opt(str(100)),
  purchaserlastname: opt(str(100)),
  purchasertitle: opt(str(100)),
  purchaseraddress1: opt(str(100)),
  purchaseraddress2: opt(str(100)),
  purchasercity: opt(str(100)),
  purchaserstate: opt(str(10)),
  purchaserzip: opt(z.union([str(10), num])),
  purchasertaxid: opt(PurchaserTaxId),
  purchaserbusinesstype: opt(str(100)),
  purchaserbusinesstypeothervalue: opt(str(255)),
  purchaserexemptionreason: opt(str(100)),
  purchaserexemptionreasonvalue: opt(str(255)),
  createddate: opt(z.unknown()),
})
export type CertificateDetail = z.output<typeof CertificateDetail>

/** Lookup's exemptCert: a certificate id (string or { CertificateID }) or a full { Detail }. */
export const LookupExemptCert = z.union([
  z
    .preprocess((v) => (typeof v === "string" ? v.trim() : v), z.uuid("exemptCert must be a certificate id (UUID) or an object"))
    .transform((id) => ({ certificateid: id, detail: undefined })),
  z.object({
    certificateid: opt(z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.uuid("CertificateID must be a UUID"))),
    detail: opt(CertificateDetail),
  }),
])

export const LookupRequest = z.object({
  customerid: V1CustomerId,
  cartid: opt(V1CartId),
  cartitems: list(LookupItem, (a) => a.min(1, "cartItems needs at least one item").max(1000).superRefine(uniqueLines)),
  origin: V1Address,
  destination: V1Address,
  deliveredbyseller: opt(bool),
  exemptcert: opt(LookupExemptCert),
})
export const LookupForDateRequest = LookupRequest.extend({ usedate: v1Date })

export const AuthorizedRequest = z.object({
  customerid: opt(V1CustomerId),
  cartid: V1CartId,
  orderid: V1OrderId,
  dateauthorized: opt(v1Date),
})
export const AuthorizedWithCaptureRequest = AuthorizedRequest.extend({ datecaptured: opt(v1Date) })
export const CapturedRequest = z.object({ orderid: V1OrderId, datecaptured: opt(v1Date) })

export const ReturnItem = z.object({
  index: opt(int.pipe(z.number().min(0, "Index must not be negative"))),
  itemid: nonEmpty(100),
  tic: opt(int),
  price: opt(num),
  qty: num,
})
export const ReturnedRequest = z.object({
  orderid: V1OrderId,
  cartitems: opt(list(ReturnItem, (a) => a.max(1000).superRefine(uniqueLines))),
  returneddate: opt(v1Date),
})

export const AddExemptCertificateRequest = z.object({
  customerid: V1CustomerId,
  exemptcert: z.object({ detail: CertificateDetail }, { error: "exemptCert must be an object holding Detail" }),
})
export const GetExemptCertificatesRequest = z.object({ customerid: V1CustomerId })
export const DeleteExemptCertificateRequest = z.object({
  certificateid: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ error: "certificateID is required" }).min(1, "certificateID is required").max(100),
  ),
})

/**
 * VerifyAddress: every field optional here (all empty is its own answer, ErrNumber "98"); the
 * State is any text (the ZIP decides the state); Zip5 is checked by the operation.
 */
export const VerifyAddressRequest = z.object({
  address1: opt(str(100)),
  address2: opt(str(100)),
  city: opt(str(100)),
  state: opt(z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), z.string({ error: "State must be text" }).max(50))),
  zip5: opt(zip5),
  zip4: zip4,
})

export const GetTICsByGroupRequest = z.object({ ticgroup: int })

export const V1Location = z.object({
  name: opt(str(100)),
  address1: opt(str(100)),
  address2: opt(str(100)),
  city: opt(str(100)),
  state: v1State,
  zip5: zip5,
  zip4: zip4,
  mailingaddress: opt(bool),
  primarybusinessaddress: opt(bool),
})
export const CreatePlatformAccountRequest = z.object({
  name: opt(str(100)),
  accountname: opt(str(100)),
  businessname: opt(str(100)),
  websiteurl: opt(str(255)),
  locations: opt(list(V1Location, (a) => a.max(100))),
})

export const TransactionItem = z.object({
  index: int.pipe(z.number().min(0, "Index must not be negative")),
  itemid: nonEmpty(100),
  price: num.pipe(z.number().min(-MAX).max(MAX, `Price must be between -${MAX} and ${MAX}`)),
  qty: int.pipe(z.number().gt(0, "Qty must be greater than 0").max(MAX, `Qty must not exceed ${MAX}`)),
  rate: num.pipe(z.number().min(0, "Rate must not be negative").max(1, "Rate is a fraction (0.0825 for 8.25%)")),
  tic: opt(int.pipe(z.number().min(0, "TIC must not be negative"))),
  tax: opt(num),
})
export const Transaction = z.object({
  cartid: opt(V1CartId),
  cartitems: opt(list(TransactionItem, (a) => a.max(1000).superRefine(uniqueLines))),
  customerid: opt(V1CustomerId),
  dateauthorized: opt(v1Date),
  datecaptured: opt(v1Date),
  datetransaction: opt(v1Date),
  deliveredbyseller: opt(bool),
  destination: opt(V1Address),
  origin: opt(V1Address),
  exemptcert: opt(z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.uuid("exemptCert must be a certificate id (UUID)"))),
  orderid: opt(V1OrderId),
})
/** At most 25 transactions a call. */
export const MAX_TRANSACTIONS = 25
export const AddTransactionsRequest = z.object({
  transactions: list(Transaction, (a) =>
    a.min(1, "transactions needs at least one transaction").max(MAX_TRANSACTIONS, `at most ${MAX_TRANSACTIONS} transactions a call`),
  ),
})

export const Empty = z.object({})

/** Display names of the lower-case keys (for messages): v1 spelling. */
export const DISPLAY: Record<string, string> = {
  apiloginid: "apiLoginID",
  apikey: "apiKey",
  customerid: "customerID",
  cartid: "cartID",
  orderid: "orderID",
  cartitems: "cartItems",
  index: "Index",
  itemid: "ItemID",
  tic: "TIC",
  price: "Price",
  qty: "Qty",
  rate: "Rate",
  tax: "Tax",
  origin: "origin",
  destination: "destination",
  address1: "Address1",
  address2: "Address2",
  city: "City",
  state: "State",
  zip5: "Zip5",
  zip4: "Zip4",
  deliveredbyseller: "deliveredBySeller",
  exemptcert: "exemptCert",
  certificateid: "CertificateID",
  detail: "Detail",
  exemptstates: "ExemptStates",
  stateabbr: "StateAbbr",
  reasonforexemption: "ReasonForExemption",
  identificationnumber: "IdentificationNumber",
  singlepurchase: "SinglePurchase",
  singlepurchaseordernumber: "SinglePurchaseOrderNumber",
  purchaserfirstname: "PurchaserFirstName",
  purchaserlastname: "PurchaserLastName",
  purchasertitle: "PurchaserTitle",
  purchaseraddress1: "PurchaserAddress1",
  purchaseraddress2: "PurchaserAddress2",
  purchasercity: "PurchaserCity",
  purchaserstate: "PurchaserState",
  purchaserzip: "PurchaserZip",
  purchasertaxid: "PurchaserTaxID",
  taxtype: "TaxType",
  idnumber: "IDNumber",
  stateofissue: "StateOfIssue",
  purchaserbusinesstype: "PurchaserBusinessType",
  purchaserbusinesstypeothervalue: "PurchaserBusinessTypeOtherValue",
  purchaserexemptionreason: "PurchaserExemptionReason",
  purchaserexemptionreasonvalue: "PurchaserExemptionReasonValue",
  usedate: "useDate",
  dateauthorized: "dateAuthorized",
  datecaptured: "dateCaptured",
  datetransaction: "dateTransaction",
  returneddate: "returnedDate",
  ticgroup: "ticGroup",
  transactions: "transactions",
  locations: "Locations",
  name: "Name",
  mailingaddress: "MailingAddress",
  primarybusinessaddress: "PrimaryBusinessAddress",
}

/** `cartItems[0].Price` from a zod path of lower-case keys. */
export function displayPath(path: ReadonlyArray<PropertyKey>): string {
  let out = ""
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`
    else out += (out ? "." : "") + (DISPLAY[String(seg)] ?? String(seg))
  }
  return out
}
