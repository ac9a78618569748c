/**
 * The 18 version 1 operations, on top of the sandbox domain (the same engine and store as
 * version 3). Each operation validates its (lower-cased, coerced) input with ./schemas.ts, calls
 * the domain, and returns the success fields; failures are thrown as V1Failure (or SandboxError
 * from the domain) and turned into ResponseType 0 by ./index.ts.
 */
import { randomUUID } from "node:crypto"
import { z } from "zod"
import {
  BUSINESS_TYPES,
  CalculateCartsRequest,
  issuesToErrors,
  CreateCertificateRequest,
  CreateOrderRequest,
  EXEMPTION_REASONS,
  type Address,
  type CartLineItemIn,
  type CertificateRecord,
  type ErrorDetail,
  type RefundRequest,
} from "@medusa-sales-tax/contract"
import { dec, roundCents } from "../money"
import type { SandboxContext } from "../app"
import type { SandboxConnection } from "../connections"
import { quoteLinesExact } from "../engine"
import { SandboxError } from "../problem"
import { lookupZip } from "../address"
import { knownZip4, zip4For } from "../address/zip4"
import { allTics, ticGroups, ticsInGroup } from "../tic"
import type { V1Accounts, V1LocationRecord } from "./accounts"
import { postalLines } from "./postal"
import * as S from "./schemas"

// ---------------------------------------------------------------------------------------------
// Results and failures
// ---------------------------------------------------------------------------------------------

/** ResponseType values. */
export const RT = { error: 0, warning: 1, informational: 2, ok: 3 } as const

/** A v1 failure: ResponseType 0 with these messages. `errNumber` is used by VerifyAddress. */
export class V1Failure extends Error {
  constructor(
    readonly messages: string[],
    readonly errNumber = "2",
  ) {
    super(messages.join("; "))
    this.name = "V1Failure"
  }
}

export interface OpResult {
  fields: Record<string, unknown>
  /** ResponseType of a success (3 unless a warning or informational note applies). */
  level?: 1 | 2 | 3
  messages?: string[]
}

/** How an operation's answers look: most carry ResponseType + Messages [{ ResponseType, Message }]. */
export type OpStyle = "standard" | "verify" | "partner"

export interface OpEnv {
  ctx: SandboxContext
  conn: SandboxConnection
  accounts: V1Accounts
}

export interface OpDef {
  name: string
  style: OpStyle
  schema: z.ZodType
  run(env: OpEnv, input: any): OpResult
}

/** The Message of "return an order twice in whole" (the service's wording), before its order suffix. */
export const WHOLE_RETURN_TWICE = "Cannot return the entire order because some items have already been returned"
/** The whole Message, as the real service ends it: ` (OrderID : <orderId>)`. */
export const wholeReturnTwice = (orderId: string) => `${WHOLE_RETURN_TWICE} (OrderID : ${orderId})`

// ---------------------------------------------------------------------------------------------
// Error translation (zod issues and version 3 locations → version 1 field names)
// ---------------------------------------------------------------------------------------------

export function zodMessages(err: z.ZodError, prefix = ""): string[] {
  return err.issues.map((iss) => {
    const at = S.displayPath(iss.path)
    const where = prefix && at ? `${prefix}.${at}` : prefix || at
    return where ? `${where}: ${iss.message}` : iss.message
  })
}

/** Version 3 field names (segments of a located error) → version 1 names. */
const V3_TO_V1: Record<string, string> = {
  lineItems: "cartItems",
  price: "Price",
  quantity: "Qty",
  itemId: "ItemID",
  index: "Index",
  tic: "TIC",
  customerId: "customerID",
  cartId: "cartID",
  orderId: "orderID",
  line1: "Address1",
  line2: "Address2",
  city: "City",
  state: "State",
  zip: "Zip5",
  completedDate: "dateCaptured",
  transactionDate: "dateTransaction",
  cartItemIndex: "Index",
  items: "cartItems",
  deliveredBySeller: "deliveredBySeller",
  tax: "Tax",
  rate: "Rate",
  exemption: "exemptCert",
  exemptionId: "CertificateID",
  returnedDate: "returnedDate",
  abbreviation: "StateAbbr",
  identificationNumber: "IdentificationNumber",
}

/** `body.items[0].lineItems[1].price` → `cartItems[1].Price` (custom map first, then V3_TO_V1). */
export function v1Location(location: string, custom: Record<string, string> = {}): string {
  let loc = location.replace(/^(body|path|query)\.?/, "")
  const hit = Object.entries(custom).find(([from]) => loc === from || loc.startsWith(from + ".") || loc.startsWith(from + "["))
  if (hit) loc = hit[1] + loc.slice(hit[0].length)
  else loc = loc.replace(/^items\[\d+\]\.?/, "") // a cart of POST carts: its fields are the v1 top level
  return loc
    .split(".")
    .map((seg) => seg.replace(/^([A-Za-z0-9]+)/, (name) => V3_TO_V1[name] ?? name))
    .join(".")
}

export function detailMessages(errors: ErrorDetail[], custom: Record<string, string> = {}, prefix = ""): string[] {
  return errors.map((e) => {
    const at = v1Location(e.location, custom)
    const where = prefix && at ? `${prefix}.${at}` : prefix || at
    return where ? `${where}: ${e.message}` : e.message
  })
}

/** A domain error as v1 messages: its detail first, then each located error. */
export function sandboxErrorMessages(e: SandboxError, custom: Record<string, string> = {}): string[] {
  return [e.detail ?? e.title, ...detailMessages(e.errors, custom)]
}

/** Runs a domain call; a SandboxError becomes a V1Failure (optionally with a clearer first message per status). */
function domainCall<T>(fn: () => T, explain: Partial<Record<number, string>> = {}, custom: Record<string, string> = {}): T {
  try {
    return fn()
  } catch (e) {
    if (e instanceof SandboxError) {
      const head = explain[e.status]
      const msgs = sandboxErrorMessages(e, custom)
      throw new V1Failure(head ? [head, ...msgs.slice(1)] : msgs)
    }
    throw e
  }
}

function parseV3<S extends z.ZodType>(schema: S, input: unknown, custom: Record<string, string> = {}, prefix = ""): z.output<S> {
  const r = schema.safeParse(input)
  if (!r.success) {
    throw new V1Failure(detailMessages(issuesToErrors("body", r.error, input), custom, prefix))
  }
  return r.data
}

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

const USD = { currencyCode: "USD" }

/** Exact decimal text → JSON number (no rounding beyond the double). */
const exactNumber = (s: string) => {
  const n = dec(s).toNumber()
  return n === 0 ? 0 : n
}

function isFuture(iso: string, now: Date): boolean {
  return new Date(iso).getTime() > now.getTime()
}

// --- exemption certificates ---

const norm = (s: string) => s.replace(/[\s_-]/g, "").toLowerCase()
/** Version 1 exemption reason spellings (and the version 3 ones) → the version 3 value. */
const REASONS = new Map<string, string>([
  ...EXEMPTION_REASONS.map((r) => [norm(r), r] as [string, string]),
  ["federalgovernmentdepartment", "FederalGovernment"],
  ["stateorlocalgovernmentname", "StateOrLocalGovernment"],
  ["tribalgovernmentname", "TribalGovernment"],
  ["religiousoreducationalorganization", "ReligiousOrganization"],
])
const BUSINESS = new Map<string, string>(BUSINESS_TYPES.map((b) => [norm(b), b]))

const CERT_FIELDS: Record<string, string> = {
  customerName: "exemptCert.Detail.PurchaserFirstName",
  "address.line1": "exemptCert.Detail.PurchaserAddress1",
  "address.line2": "exemptCert.Detail.PurchaserAddress2",
  "address.city": "exemptCert.Detail.PurchaserCity",
  "address.state": "exemptCert.Detail.PurchaserState",
  "address.zip": "exemptCert.Detail.PurchaserZip",
  address: "exemptCert.Detail.PurchaserAddress1",
  reasonDescription: "exemptCert.Detail.PurchaserExemptionReasonValue",
  reason: "exemptCert.Detail.PurchaserExemptionReason",
  customerBusinessDescription: "exemptCert.Detail.PurchaserBusinessTypeOtherValue",
  customerBusinessType: "exemptCert.Detail.PurchaserBusinessType",
  states: "exemptCert.Detail.ExemptStates",
  customerId: "customerID",
}

/** A v1 certificate Detail → the version 3 certificate request (validated by the contract). */
export function detailToCertificate(customerId: string, d: S.CertificateDetail): CreateCertificateRequest {
  const name = [d.purchaserfirstname, d.purchaserlastname].filter((x) => x).join(" ")
  const reasonRaw = d.purchaserexemptionreason ?? d.exemptstates.find((s) => s.reasonforexemption)?.reasonforexemption
  if (!reasonRaw) throw new V1Failure(["exemptCert.Detail.PurchaserExemptionReason: is required"])
  const reason = REASONS.get(norm(reasonRaw)) ?? reasonRaw
  const btRaw = d.purchaserbusinesstype
  if (!btRaw) throw new V1Failure(["exemptCert.Detail.PurchaserBusinessType: is required"])
  const businessType = BUSINESS.get(norm(btRaw)) ?? btRaw
  const zipRaw = d.purchaserzip
  const zip = typeof zipRaw === "number" ? String(zipRaw).padStart(5, "0") : (zipRaw ?? "")
  const raw = {
    customerId,
    customerName: name,
    address: {
      line1: d.purchaseraddress1 ?? "",
      ...(d.purchaseraddress2 ? { line2: d.purchaseraddress2 } : {}),
      city: d.purchasercity ?? "",
      state: (d.purchaserstate ?? "").toUpperCase(),
      zip: /^\d{1,4}$/.test(zip) ? zip.padStart(5, "0") : zip,
    },
    reason,
    reasonDescription: d.purchaserexemptionreasonvalue,
    customerBusinessType: businessType,
    customerBusinessDescription: d.purchaserbusinesstypeothervalue,
    states: d.exemptstates.map((s) => {
      const id = s.identificationnumber ?? d.purchasertaxid?.idnumber
      return id ? { abbreviation: s.stateabbr, identificationNumber: id } : { abbreviation: s.stateabbr }
    }),
    singlePurchase: d.singlepurchase ?? false,
  }
  return parseV3(CreateCertificateRequest, raw, CERT_FIELDS)
}

/** The version 3 certificate record as a v1 { CertificateID, Detail }. */
export function certificateToV1(c: CertificateRecord): { CertificateID: string; Detail: Record<string, unknown> } {
  const sp = c.customerName.indexOf(" ")
  return {
    CertificateID: c.certificateId,
    Detail: {
      ExemptStates: c.states.map((s) => ({
        StateAbbr: s.abbreviation,
        ReasonForExemption: c.reason,
        IdentificationNumber: s.identificationNumber ?? null,
      })),
      SinglePurchase: c.singlePurchase,
      SinglePurchaseOrderNumber: null,
      PurchaserFirstName: sp < 0 ? c.customerName : c.customerName.slice(0, sp),
      PurchaserLastName: sp < 0 ? "" : c.customerName.slice(sp + 1),
      PurchaserTitle: null,
      PurchaserAddress1: c.address.line1,
      PurchaserAddress2: c.address.line2 ?? null,
      PurchaserCity: c.address.city,
      PurchaserState: c.address.state,
      PurchaserZip: c.address.zip,
      PurchaserTaxID: null,
      PurchaserBusinessType: c.customerBusinessType,
      PurchaserBusinessTypeOtherValue: c.customerBusinessDescription,
      PurchaserExemptionReason: c.reason,
      PurchaserExemptionReasonValue: c.reasonDescription,
      CreatedDate: c.createdDate,
    },
  }
}

/** The same certificate content (ignoring id, dates)? Used to reuse an inline Lookup Detail. */
function sameCertificate(c: CertificateRecord, r: CreateCertificateRequest): boolean {
  const pick = (x: {
    customerId: string
    customerName: string
    address: Address
    reason: string
    reasonDescription?: string | null
    customerBusinessType: string
    customerBusinessDescription?: string | null
    states: { abbreviation: string; identificationNumber?: string }[]
    singlePurchase?: boolean
  }) =>
    JSON.stringify([
      x.customerId,
      x.customerName,
      x.address.line1,
      x.address.line2 ?? null,
      x.address.city,
      x.address.state,
      x.address.zip,
      x.reason,
      x.reasonDescription ?? null,
      x.customerBusinessType,
      x.customerBusinessDescription ?? null,
      x.states.map((s) => [s.abbreviation, s.identificationNumber ?? null]),
      x.singlePurchase ?? false,
    ])
  return pick(c) === pick(r)
}

/** All active certificates of a customer in a connection, oldest first. */
function activeCertificates(env: OpEnv, customerId: string): CertificateRecord[] {
  const out: CertificateRecord[] = []
  let cursor: string | undefined
  for (;;) {
    const page = env.ctx.domain.listCertificates([env.conn.connectionId], {
      limit: 100,
      ascending: true,
      sortBy: "createdDate",
      customerId,
      disabled: false,
      ...(cursor ? { cursor } : {}),
    })
    out.push(...page.items)
    if (!page.nextCursor) return out
    cursor = page.nextCursor
  }
}

// ---------------------------------------------------------------------------------------------
// Lookup
// ---------------------------------------------------------------------------------------------

function lookup(env: OpEnv, input: z.output<typeof S.LookupRequest>, useDate?: string): OpResult {
  const { domain } = env.ctx
  const conn = env.conn.connectionId
  const lineItems: CartLineItemIn[] = input.cartitems.map((i) => ({
    index: i.index,
    itemId: i.itemid,
    price: i.price,
    quantity: i.qty,
    tic: i.tic ?? 0,
  }))
  let exemptionId: string | undefined
  let inline: CreateCertificateRequest | undefined
  if (input.exemptcert?.certificateid) exemptionId = input.exemptcert.certificateid
  else if (input.exemptcert?.detail) inline = detailToCertificate(input.customerid, input.exemptcert.detail)

  const cart = {
    cartId: input.cartid ?? randomUUID(),
    customerId: input.customerid,
    currency: USD,
    deliveredBySeller: input.deliveredbyseller ?? false,
    origin: input.origin,
    destination: input.destination,
    lineItems,
    ...(exemptionId ? { exemption: { exemptionId } } : {}),
  }
  const req = parseV3(
    CalculateCartsRequest,
    { items: [cart], ...(useDate ? { transactionDate: useDate } : {}) },
    { transactionDate: "useDate" },
  )
  if (inline) {
    const existing = activeCertificates(env, input.customerid).find((c) => sameCertificate(c, inline!))
    const id = existing ? existing.certificateId : domain.createCertificate(conn, inline).certificateId
    req.items[0]!.exemption = { exemptionId: id }
  }
  const res = domainCall(() => domain.calculateCarts(conn, req, { repeatedItemIds: true }))
  const out = res.items[0]!
  const exemptStates = new Set<string>()
  if (out.exemption.exemptionId) {
    const cert = domain.getCertificate(conn, out.exemption.exemptionId)
    if (cert.states.some((s) => s.abbreviation === out.destination.state)) exemptStates.add(out.destination.state)
  }
  const exact = quoteLinesExact({ origin: out.origin, destination: out.destination, lineItems: req.items[0]!.lineItems, exemptStates })
  return {
    fields: {
      CartID: out.cartId,
      CartItemsResponse: exact.map((e) => ({ CartItemIndex: e.index, TaxAmount: exactNumber(e.amount) })),
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Authorization, capture, returns
// ---------------------------------------------------------------------------------------------

function authorize(env: OpEnv, input: z.output<typeof S.AuthorizedWithCaptureRequest>, capture: boolean): OpResult {
  const { domain } = env.ctx
  const conn = env.conn.connectionId
  const op = capture ? "AuthorizedWithCapture" : "Authorized"
  const cart = domainCall(() => domain.getCart(conn, input.cartid), { 404: `cartID ${input.cartid} not found: call Lookup before ${op}` })
  if (input.customerid !== undefined && input.customerid !== cart.customerId) {
    throw new V1Failure([`customerID: cart ${input.cartid} was looked up for another customer`])
  }
  if (capture && input.datecaptured && input.dateauthorized && new Date(input.datecaptured) < new Date(input.dateauthorized)) {
    throw new V1Failure(["dateCaptured: must not be before dateAuthorized"])
  }
  const now = domain.now()
  if (capture && input.datecaptured && isFuture(input.datecaptured, now)) {
    throw new V1Failure([`dateCaptured: must be at or before the request time (${now.toISOString()})`])
  }
  domainCall(
    () =>
      domain.cartToOrder(conn, {
        cartId: input.cartid,
        orderId: input.orderid,
        completed: capture,
        ...(capture && input.datecaptured ? { completedDate: input.datecaptured } : {}),
      }),
    { 400: `orderID ${input.orderid} already exists: an order is authorized once` },
  )
  return { fields: {} }
}

function captured(env: OpEnv, input: z.output<typeof S.CapturedRequest>): OpResult {
  const { domain } = env.ctx
  const conn = env.conn.connectionId
  const order = domainCall(() => domain.getOrder(conn, input.orderid), {
    404: `orderID ${input.orderid} has not been authorized: call Authorized before Captured`,
  })
  if (order.completedDate !== null) throw new V1Failure([`orderID ${input.orderid} has already been captured`])
  const now = domain.now()
  const at = input.datecaptured ?? now.toISOString()
  if (isFuture(at, now)) throw new V1Failure([`dateCaptured: must be at or before the request time (${now.toISOString()})`])
  domainCall(() => domain.updateOrder(conn, input.orderid, at))
  return { fields: {} }
}

function returned(env: OpEnv, input: z.output<typeof S.ReturnedRequest>, pro: boolean): OpResult {
  const { domain } = env.ctx
  const conn = env.conn.connectionId
  const op = pro ? "ReturnedPro" : "Returned"
  const order = domainCall(() => domain.getOrder(conn, input.orderid, true), { 404: `orderID ${input.orderid} not found` })
  if (order.completedDate === null) throw new V1Failure([`orderID ${input.orderid} has not been captured: call Captured before ${op}`])
  const items = input.cartitems ?? []
  const whole = items.length === 0
  if ((order.refunds ?? []).length > 0) {
    throw new V1Failure([
      whole ? wholeReturnTwice(input.orderid) : `orderID ${input.orderid} already has a return: version 1 allows one return per order`,
    ])
  }
  const errors: string[] = []
  const refundItems: NonNullable<RefundRequest["items"]> = []
  items.forEach((it, i) => {
    const at = `cartItems[${i}]`
    if (pro) {
      if (!(it.qty < 0)) errors.push(`${at}.Qty: ReturnedPro quantities are negative (-1 returns one unit)`)
    } else if (!(it.qty > 0)) {
      errors.push(`${at}.Qty: must be greater than 0 (ReturnedPro takes negative quantities)`)
    }
    const line = order.lineItems.find((l) => l.itemId === it.itemid && (it.index === undefined || l.index === it.index))
    if (line && pro && it.price !== undefined && !dec(it.price).abs().eq(dec(line.price).abs())) {
      errors.push(`${at}.Price: must be the original price of the item (${line.price})`)
    }
    refundItems.push({ itemId: it.itemid, quantity: Math.abs(it.qty), ...(it.index !== undefined ? { cartItemIndex: it.index } : {}) })
  })
  if (errors.length) throw new V1Failure(errors)
  const req: RefundRequest = {
    ...(whole ? {} : { items: refundItems }),
    ...(input.returneddate ? { returnedDate: input.returneddate } : {}),
  }
  domainCall(() => domain.refundOrder(conn, input.orderid, req), {}, { items: "cartItems" })
  return { fields: {} }
}

// ---------------------------------------------------------------------------------------------
// Partner operations
// ---------------------------------------------------------------------------------------------

function toLocation(l: z.output<typeof S.V1Location>): Omit<V1LocationRecord, "LocationID" | "Created"> {
  const [z5, z4b] = l.zip5.split("-") as [string, string | undefined]
  const z4 = l.zip4 ?? z4b
  return {
    Name: l.name ?? "",
    Address1: l.address1 ?? "",
    Address2: l.address2 ?? null,
    City: l.city ?? "",
    State: l.state,
    Zip5: Number(z5),
    Zip4: z4 ? Number(z4) : null,
    Country: "USA",
    MailingAddress: l.mailingaddress ?? false,
    PrimaryBusinessAddress: l.primarybusinessaddress ?? false,
  }
}

function addTransactions(env: OpEnv, input: z.output<typeof S.AddTransactionsRequest>): OpResult {
  const { domain, store } = env.ctx
  const conn = env.conn.connectionId
  const now = domain.now()
  const account = env.accounts.forConnection(conn)
  const primary = account?.locations.find((l) => l.PrimaryBusinessAddress) ?? account?.locations[0]
  const defaultOrigin: Address | undefined = primary && {
    line1: primary.Address1,
    ...(primary.Address2 ? { line2: primary.Address2 } : {}),
    city: primary.City,
    state: primary.State,
    zip: String(primary.Zip5).padStart(5, "0") + (primary.Zip4 ? "-" + String(primary.Zip4).padStart(4, "0") : ""),
  }
  const errors: string[] = []
  const seen = new Set<string>()
  const planned: { req: CreateOrderRequest; cartId: string }[] = []
  input.transactions.forEach((t, i) => {
    const at = `transactions[${i}]`
    const before = errors.length
    const cartId = t.cartid ?? randomUUID()
    const orderId = t.orderid ?? cartId
    if (!t.destination) errors.push(`${at}.destination: is required`)
    const origin = t.origin ?? defaultOrigin
    if (!origin) errors.push(`${at}.origin: is required (this connection has no location to default to)`)
    if (!t.cartitems || t.cartitems.length === 0) errors.push(`${at}.cartItems: needs at least one item`)
    if (seen.has(orderId)) errors.push(`${at}.orderID: ${orderId} appears twice in this call`)
    seen.add(orderId)
    if (store.get("orders", conn, orderId)) errors.push(`${at}.orderID: an order with orderID ${orderId} already exists`)
    const completedDate = t.datecaptured ?? now.toISOString()
    if (isFuture(completedDate, now)) errors.push(`${at}.dateCaptured: must be at or before the request time (${now.toISOString()})`)
    const customerId = t.customerid ?? "anonymous"
    if (t.exemptcert) {
      const cert = store.get<CertificateRecord>("certificates", conn, t.exemptcert)
      if (!cert) errors.push(`${at}.exemptCert: no exemption certificate with this id`)
      else if (cert.disabledAt) errors.push(`${at}.exemptCert: the exemption certificate is deleted`)
      else if (cert.customerId !== customerId) errors.push(`${at}.exemptCert: the exemption certificate belongs to another customer`)
    }
    if (errors.length > before) return
    const raw = {
      orderId,
      cartId,
      customerId,
      transactionDate: t.datetransaction ?? t.dateauthorized ?? now.toISOString(),
      completed: true,
      completedDate,
      currency: USD,
      origin,
      destination: t.destination,
      deliveredBySeller: t.deliveredbyseller ?? false,
      lineItems: t.cartitems!.map((c) => ({
        index: c.index,
        itemId: c.itemid,
        price: c.price,
        quantity: c.qty,
        tic: c.tic ?? 0,
        tax: { amount: c.tax ?? roundCents(dec(c.price).times(c.qty).times(c.rate)), rate: c.rate },
      })),
      ...(t.exemptcert ? { exemption: { exemptionId: t.exemptcert } } : {}),
    }
    try {
      planned.push({ req: parseV3(CreateOrderRequest, raw, {}, at), cartId })
    } catch (e) {
      if (e instanceof V1Failure) errors.push(...e.messages)
      else throw e
    }
  })
  if (errors.length) throw new V1Failure(errors)
  const done: { CartID: string; OrderID: string }[] = []
  for (const p of planned) {
    try {
      domain.createOrder(conn, p.req, "none", { repeatedItemIds: true })
    } catch (e) {
      if (!(e instanceof SandboxError)) throw e
      throw new V1Failure([
        `transactions[${done.length}]: ${e.detail ?? e.title}`,
        ...detailMessages(e.errors, {}, `transactions[${done.length}]`),
        ...(done.length ? [`recorded before the failure: ${done.map((d) => d.OrderID).join(", ")}`] : []),
      ])
    }
    done.push({ CartID: p.cartId, OrderID: p.req.orderId })
  }
  return { fields: { Transactions: done } }
}

// ---------------------------------------------------------------------------------------------
// VerifyAddress
// ---------------------------------------------------------------------------------------------

/** ErrNumber of VerifyAddress: verified, address not found, credentials, invalid request, nothing to process. */
export const VERIFY_ERR = { ok: "0", credentials: "1", invalid: "2", notFound: "80040B1A", empty: "98" } as const
export const UNABLE_TO_PROCESS = "Unable to process address"

/**
 * VerifyAddress as the real service answers: all fields empty → "98" "Unable to process address";
 * the ZIP decides the state (a ZIP in another state than the one sent is not an error: the answer
 * carries the ZIP's state, ErrNumber "0"); an unknown ZIP → "80040B1A". The answer always carries
 * Address1, Address2, City, State, Zip5, Zip4 (null on error; see index.ts failureBody). Address1
 * is the delivery line in postal form with the secondary unit folded in, Address2 null (postal.ts);
 * Zip4 is the published +4 of the street line when the sandbox's data has it, else the one sent,
 * else the sandbox's stable +4 for a street address in a known ZIP (address/zip4.ts), else null.
 */
function verifyAddressV1(env: OpEnv, a: z.output<typeof S.VerifyAddressRequest>): OpResult {
  if (!a.address1 && !a.address2 && !a.city && !a.state && !a.zip5 && !a.zip4) throw new V1Failure([UNABLE_TO_PROCESS], VERIFY_ERR.empty)
  if (!a.zip5) throw new V1Failure(["Zip5: is required to verify an address"], VERIFY_ERR.invalid)
  const [z5, z4b] = a.zip5.split("-") as [string, string | undefined]
  const z4 = a.zip4 ?? z4b
  const found = lookupZip(z5)
  if (!found) throw new V1Failure([`Zip5: ZIP code ${z5} is not a known US ZIP code`], VERIFY_ERR.notFound)
  const address: Address = {
    line1: a.address1 ?? "",
    ...(a.address2 ? { line2: a.address2 } : {}),
    city: a.city ?? "",
    state: found.state,
    zip: z4 ? `${z5}-${z4}` : z5,
  }
  let out: Address
  try {
    out = env.ctx.domain.verifyAddress(address)
  } catch (e) {
    if (e instanceof SandboxError)
      throw new V1Failure(detailMessages(e.errors).length ? detailMessages(e.errors) : [e.detail ?? e.title], VERIFY_ERR.notFound)
    throw e
  }
  const [oz5, oz4] = out.zip.split("-") as [string, string | undefined]
  return {
    fields: {
      ...postalLines(out.line1, out.line2),
      City: out.city,
      State: out.state,
      Zip5: oz5,
      Zip4: knownZip4(oz5, out.line1) ?? oz4 ?? zip4For(oz5, out.line1),
      ErrNumber: VERIFY_ERR.ok,
      ErrDescription: null,
    },
  }
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

const def = <S extends z.ZodType>(
  name: string,
  schema: S,
  run: (env: OpEnv, input: z.output<S>) => OpResult,
  style: OpStyle = "standard",
): OpDef => ({ name, style, schema, run })

export const OPERATIONS_V1: readonly OpDef[] = [
  def("Ping", S.Empty, () => ({ fields: {} })),
  def("VerifyAddress", S.VerifyAddressRequest, verifyAddressV1, "verify"),
  def("Lookup", S.LookupRequest, (env, input) => lookup(env, input)),
  def("LookupForDate", S.LookupForDateRequest, (env, input) => lookup(env, input, input.usedate)),
  def("Authorized", S.AuthorizedRequest, (env, input) => authorize(env, input, false)),
  def("Captured", S.CapturedRequest, captured),
  def("AuthorizedWithCapture", S.AuthorizedWithCaptureRequest, (env, input) => authorize(env, input, true)),
  def("Returned", S.ReturnedRequest, (env, input) => returned(env, input, false)),
  def("ReturnedPro", S.ReturnedRequest, (env, input) => returned(env, input, true)),
  def("AddExemptCertificate", S.AddExemptCertificateRequest, (env, input) => {
    const req = detailToCertificate(input.customerid, input.exemptcert.detail)
    const rec = env.ctx.domain.createCertificate(env.conn.connectionId, req)
    return { fields: { CertificateID: rec.certificateId } }
  }),
  def("GetExemptCertificates", S.GetExemptCertificatesRequest, (env, input) => ({
    fields: { ExemptCertificates: activeCertificates(env, input.customerid).map(certificateToV1) },
  })),
  def("DeleteExemptCertificate", S.DeleteExemptCertificateRequest, (env, input) => {
    const { domain } = env.ctx
    const cert = domainCall(() => domain.getCertificate(env.conn.connectionId, input.certificateid), {
      404: `certificateID ${input.certificateid} not found`,
    })
    if (cert.disabledAt) return { fields: {}, level: RT.warning, messages: [`certificateID ${input.certificateid} was already deleted`] }
    domain.disableCertificate(env.conn.connectionId, input.certificateid)
    return { fields: {} }
  }),
  def("GetTICs", S.Empty, () => ({ fields: { TICs: allTics().map((t) => ({ TICID: t.ticId, Description: t.description })) } })),
  def("GetTICGroups", S.Empty, () => ({
    fields: { TICGroups: ticGroups().map((g) => ({ GroupID: g.groupId, Description: g.description })) },
  })),
  def("GetTICsByGroup", S.GetTICsByGroupRequest, (_env, input) => {
    if (!ticGroups().some((g) => g.groupId === input.ticgroup))
      throw new V1Failure([`ticGroup: ${input.ticgroup} is not a TIC group (see GetTICGroups)`])
    return { fields: { TICs: ticsInGroup(input.ticgroup).map((t) => ({ TICID: t.ticId, Description: t.description })) } }
  }),
  def(
    "CreatePlatformAccount",
    S.CreatePlatformAccountRequest,
    (env, input) => {
      const name = input.name ?? input.accountname ?? input.businessname ?? null
      const account = env.accounts.create(name, (input.locations ?? []).map(toLocation), env.ctx.domain.now())
      return {
        fields: {
          NewAccountApiKey: account.connection.apiKey,
          NewAccountApiLoginID: account.connection.apiLoginId,
          NewAccountConnectionID: account.connection.connectionId,
          Locations: account.locations,
        },
      }
    },
    "partner",
  ),
  def(
    "GetLocations",
    S.Empty,
    (env) => ({ fields: { Locations: env.accounts.forConnection(env.conn.connectionId)?.locations ?? [] } }),
    "partner",
  ),
  def("AddTransactions", S.AddTransactionsRequest, addTransactions),
]

export const OPERATION_NAMES: readonly string[] = OPERATIONS_V1.map((o) => o.name)
const BY_LOWER = new Map(OPERATIONS_V1.map((o) => [o.name.toLowerCase(), o]))

/** The operation named `name` in any letter case. */
export function findOperation(name: string): OpDef | undefined {
  return BY_LOWER.get(name.toLowerCase())
}
