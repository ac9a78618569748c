/**
 * Pure decisions of the filing lifecycle: no I/O, no clock (callers pass `now`). The processor
 * (processor.ts) performs the service calls these decide on.
 */
import type {
  Address,
  CalculateCartsRequest,
  CartIn,
  CreateOrderRequest,
  LineItemOut,
  OrderRecord,
  RefundRecord,
} from "../service/contract"
import { dec, roundCents, roundTo, sum } from "../money"
import { originServiceId, sameAddress } from "../checkout/origins/origins"
import { normalizeUsState, normalizeUsZip } from "../checkout/address/us-address"
import type {
  DestinationSource,
  FilingLine,
  FilingRecordDTO,
  FilingRefundDTO,
  FilingSnapshot,
  FilingState,
  RefundItem,
  RefundSource,
} from "../modules/sales-tax-filing/types"

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

/** The refund idempotency key: the Medusa id of what caused it (return, claim, exchange), or `cancel:<order id>`. */
export function refundKey(source: RefundSource, sourceId: string): string {
  return source === "cancel" ? `cancel:${sourceId}` : sourceId
}

/** The lock key that serializes all work on one filed order. */
export function lockKey(orderId: string): string {
  return `sales-tax-filing:${orderId}`
}

// ---------------------------------------------------------------------------------------------
// Destination: file, skip, or a person must look (issue 26)
// ---------------------------------------------------------------------------------------------

/** The destination the provider quoted, as it records it on each tax line's `data.destination`. */
export interface QuotedDestination {
  state: string
  zip: string
  zip4?: string
  source: "typed" | "verified"
}

/** Pure: the quoted destination recorded on the first tax line that has a well-formed one. */
export function quotedDestination(taxLines: ({ data?: Record<string, unknown> | null } | null | undefined)[]): QuotedDestination | null {
  for (const t of taxLines) {
    const d = t?.data?.destination as Partial<QuotedDestination> | undefined
    if (!d || typeof d !== "object") continue
    const state = normalizeUsState(typeof d.state === "string" ? d.state : null)
    const zip = normalizeUsZip(typeof d.zip === "string" ? d.zip : null)
    if (!state || !zip) continue
    const zip4 = typeof d.zip4 === "string" && /^\d{4}$/.test(d.zip4) ? d.zip4 : zip.zip4
    return { state, zip: zip.zip, ...(zip4 ? { zip4 } : {}), source: d.source === "verified" ? "verified" : "typed" }
  }
  return null
}

export interface DestinationFacts {
  countryCode: string | null | undefined
  /** the shipping address's province code, else its province, as typed */
  province: string | null | undefined
  postalCode: string | null | undefined
  currencyCode: string | null | undefined
  /** the destination recorded on the order's tax lines (null: none recorded) */
  quoted: QuotedDestination | null
  /** true when the provider charged the order at checkout (some line carries a tax line), even at 0 */
  charged: boolean
}

export type DestinationDecision =
  | { outcome: "file"; state: string; zip: string; source: DestinationSource }
  | { outcome: "skip"; reason: string }
  /** a person must look: the state and ZIP when they resolve (a re-quote needs the rest of the address only) */
  | { outcome: "attention"; reason: string; state: string | null; zip: string | null }

/** The reason of a record left for a person because of its currency (issue 27). */
export function currencyReason(currencyCode: string): string {
  return `currency ${currencyCode.toUpperCase()}: the plugin files USD only`
}

const shown = (v: string | null | undefined) => (v && v.trim() ? `"${v.trim().slice(0, 40)}"` : "blank")

/**
 * Pure: what filing does with an order's destination. Not the US (or no address): skipped,
 * nothing to file. A US address in a currency other than USD, whose state or ZIP does not
 * resolve, or that the provider never charged (no tax line on any line: a store that turned the
 * checkout check off, an order placed before the upgrade, imported, or created by an admin):
 * needs_attention with the reason. Otherwise filed for the quoted destination (the tax lines'
 * `data.destination`), else for the shipping address normalized (`src/checkout/address/us-address.ts`).
 */
export function decideDestination(f: DestinationFacts): DestinationDecision {
  if ((f.countryCode ?? "").trim().toLowerCase() !== "us") return { outcome: "skip", reason: "not filed: destination not_us" }
  const currency = (f.currencyCode ?? "").trim().toUpperCase()
  const state = f.quoted?.state ?? normalizeUsState(f.province)
  const zipParts = f.quoted ? { zip: f.quoted.zip, zip4: f.quoted.zip4 } : normalizeUsZip(f.postalCode)
  const zip = zipParts ? (zipParts.zip4 ? `${zipParts.zip}-${zipParts.zip4}` : zipParts.zip) : null
  const attention = (reason: string): DestinationDecision => ({ outcome: "attention", reason, state, zip })
  if (currency !== "USD") return attention(currencyReason(currency || "(none)"))
  if (!state) return attention(`US shipping address whose state does not resolve (${shown(f.province)}): no tax was charged`)
  if (!zip) return attention(`US shipping address whose ZIP does not resolve (${shown(f.postalCode)}): no tax was charged`)
  if (!f.charged) {
    const typed = f.province && f.province.trim().toUpperCase() !== state ? `, state typed ${shown(f.province)}` : ""
    return attention(`US shipping address (${state} ${zip}${typed}) but no tax was charged at checkout`)
  }
  return { outcome: "file", state, zip, source: f.quoted ? f.quoted.source : "order_address" }
}

// ---------------------------------------------------------------------------------------------
// Re-quote and comparison
// ---------------------------------------------------------------------------------------------

/** A filing line as a service line item (no tax). */
export function serviceLineItem(l: FilingLine) {
  return {
    index: l.index,
    itemId: l.itemId,
    price: l.price,
    quantity: l.quantity,
    tic: l.tic,
    ...(l.productId ? { productId: l.productId } : {}),
  }
}

export function serviceLineItems(lines: FilingLine[]) {
  return lines.map(serviceLineItem)
}

/** The service cart that re-quotes an order's lines as charged (cartId = Medusa cart id). */
export function requoteRequest(s: FilingSnapshot): CalculateCartsRequest {
  const cart: CartIn = {
    cartId: s.cartId ?? undefined,
    customerId: s.customerId,
    currency: { currencyCode: s.currencyCode.toUpperCase() },
    origin: s.origin,
    destination: s.destination,
    lineItems: serviceLineItems(s.lines),
    ...(s.exemptionId ? { exemption: { exemptionId: s.exemptionId } } : {}),
  }
  return { items: [cart] }
}

export interface LineComparison {
  itemId: string
  charged: number
  quoted: number | null
}
export interface Comparison {
  equal: boolean
  lines: LineComparison[]
  chargedTotal: number
  quotedTotal: number
  /** quoted - charged */
  difference: number
  /** why the order takes the direct path even when amounts agree */
  reason?: "fallback" | "no_cart" | "line_mismatch" | "amount"
}

export function chargedTotal(lines: FilingLine[]): number {
  return roundCents(sum(lines.map((l) => l.chargedTax)))
}

/**
 * Per-line comparison of the tax charged with the re-quote. Equal only when every line matches
 * to the cent and the re-quote holds exactly the same lines.
 */
export function compareLines(lines: FilingLine[], quoted: LineItemOut[]): Comparison {
  const byId = new Map(quoted.map((q) => [q.itemId, q]))
  const out: LineComparison[] = lines.map((l) => ({
    itemId: l.itemId,
    charged: roundCents(l.chargedTax),
    quoted: byId.has(l.itemId) ? roundCents(byId.get(l.itemId)!.tax.amount) : null,
  }))
  const charged = chargedTotal(lines)
  const quotedTotal = roundCents(sum(quoted.map((q) => q.tax.amount)))
  const sameLines = quoted.length === lines.length && out.every((c) => c.quoted !== null)
  const amountsEqual = out.every((c) => c.quoted !== null && dec(c.quoted).eq(c.charged))
  const equal = sameLines && amountsEqual
  return {
    equal,
    lines: out,
    chargedTotal: charged,
    quotedTotal,
    difference: roundCents(dec(quotedTotal).minus(charged)),
    ...(equal ? {} : { reason: sameLines ? ("amount" as const) : ("line_mismatch" as const) }),
  }
}

/**
 * Pure: a needs_attention order's snapshot after an admin's re-quote: each line carries the tax the
 * service computed for it (what is filed; the merchant owes it, none was collected), and the
 * snapshot says so (`requote`). Throws when the quote misses a line (nothing is filed then).
 */
export function owedSnapshot(s: FilingSnapshot, quoted: LineItemOut[], at: Date): FilingSnapshot {
  const byId = new Map(quoted.map((q) => [q.itemId, q]))
  const lines = s.lines.map((l) => {
    const q = byId.get(l.itemId)
    if (!q) throw new Error(`the re-quote has no line ${l.itemId}: nothing filed`)
    return { ...l, chargedTax: roundCents(q.tax.amount), chargedRate: roundTo(q.tax.rate, 4), fallback: false }
  })
  return {
    ...s,
    lines,
    requote: {
      at: at.toISOString(),
      collectedTax: chargedTotal(s.lines),
      owedTax: chargedTotal(lines),
      state: s.destination.state,
      zip: s.destination.zip,
    },
  }
}

/**
 * Pure: whether the cart is re-quoted before an order is filed (to compare, and to convert it when
 * equal): an order with a cart, unless it is filed directly anyway (a refused certificate's
 * fallback, or a backfilled order, never re-quoted at today's rates).
 */
export function requotesAtFiling(s: Pick<FilingSnapshot, "cartId" | "backfill">, direct: boolean): boolean {
  return !!s.cartId && !direct && !s.backfill
}

/** Pure: the record's last step once its order is at the service ("backfill" for a backfilled order). */
export function filedStep(s: Pick<FilingSnapshot, "backfill"> | null | undefined): "filed" | "backfill" {
  return s?.backfill ? "backfill" : "filed"
}

/** Lines carrying the provider's fallback tax take the direct path whatever the re-quote says. */
export function mustFileDirect(s: FilingSnapshot): "backfill" | "fallback" | "no_cart" | null {
  if (s.backfill) return "backfill"
  if (s.lines.some((l) => l.fallback)) return "fallback"
  if (!s.cartId) return "no_cart"
  return null
}

// ---------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------

export interface Completion {
  completed: boolean
  completedDate?: string
}

/** What to tell the service about completion when the order is filed. */
export function completionAtFiling(
  rec: Pick<FilingRecordDTO, "completion_mode" | "completion_requested_at">,
  s: FilingSnapshot,
): Completion {
  if (rec.completion_mode === "placed") return { completed: true, completedDate: s.placedAt }
  if (rec.completion_requested_at) return { completed: true, completedDate: toIso(rec.completion_requested_at) }
  return { completed: false }
}

/** The order with the tax charged per line (the "different" path and the fallback path). */
export function directOrderRequest(s: FilingSnapshot, completion: Completion, transactionDate: string): CreateOrderRequest {
  return {
    orderId: s.orderId,
    ...(s.cartId ? { cartId: s.cartId } : {}),
    customerId: s.customerId,
    transactionDate,
    completed: completion.completed,
    completedDate: completion.completed ? (completion.completedDate ?? null) : null,
    currency: { currencyCode: s.currencyCode.toUpperCase() },
    origin: s.origin,
    destination: s.destination,
    lineItems: s.lines.map((l) => ({
      ...serviceLineItem(l),
      tax: { amount: roundCents(l.chargedTax), rate: roundTo(l.chargedRate, 4) },
    })),
    ...(s.exemptionId ? { exemption: { exemptionId: s.exemptionId } } : {}),
    // a refund without a return is a standalone credit (the service stores its amounts negative)
    ...(s.kind === "credit" ? { kind: "credit" as const } : {}),
  }
}

export function orderTaxTotal(order: Pick<OrderRecord, "lineItems">): number {
  return roundCents(sum(order.lineItems.map((l) => l.tax.amount)))
}

export function refundTaxTotal(records: RefundRecord[]): number {
  return roundCents(sum(records.flatMap((r) => r.items.map((i) => i.tax.amount))))
}

// ---------------------------------------------------------------------------------------------
// Refunds
// ---------------------------------------------------------------------------------------------

/** Quantities refunded so far per item (refunds in state refunded only). */
export function refundedQuantities(refunds: Pick<FilingRefundDTO, "state" | "items">[]): Map<string, number> {
  const m = new Map<string, number>()
  for (const r of refunds) {
    if (r.state !== "refunded") continue
    for (const i of r.items)
      m.set(
        i.itemId,
        dec(m.get(i.itemId) ?? 0)
          .plus(i.quantity)
          .toNumber(),
      )
  }
  return m
}

/** What is left to refund of each line (the whole-order refund after the void cutoff). */
export function remainingItems(lines: FilingLine[], refunds: Pick<FilingRefundDTO, "state" | "items">[]): RefundItem[] {
  const done = refundedQuantities(refunds)
  return lines
    .map((l) => ({
      itemId: l.itemId,
      quantity: dec(l.quantity)
        .minus(done.get(l.itemId) ?? 0)
        .toNumber(),
    }))
    .filter((i) => i.quantity > 0)
}

/** Merges duplicate item ids and drops zero quantities; keeps only items of the filed order. */
export function normalizeRefundItems(items: RefundItem[], lines: FilingLine[]): RefundItem[] {
  const known = new Set(lines.map((l) => l.itemId))
  const m = new Map<string, number>()
  for (const i of items) {
    if (!known.has(i.itemId) || !(i.quantity > 0)) continue
    m.set(
      i.itemId,
      dec(m.get(i.itemId) ?? 0)
        .plus(i.quantity)
        .toNumber(),
    )
  }
  return [...m.entries()].map(([itemId, quantity]) => ({ itemId, quantity }))
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/** The state shown for a record, from its facts (the processor never stores a state it did not derive here). */
export function deriveState(
  rec: Pick<FilingRecordDTO, "state" | "filed_at" | "completed_at" | "voided_at" | "snapshot">,
  refunds: Pick<FilingRefundDTO, "state" | "items">[],
  failed: boolean,
): FilingState {
  if (rec.state === "skipped") return "skipped"
  if (rec.state === "needs_attention") return "needs_attention"
  if (rec.voided_at) return "voided"
  if (failed || refunds.some((r) => r.state === "failed")) return "failed"
  if (!rec.filed_at) return "pending"
  const lines = rec.snapshot?.lines ?? []
  const done = refundedQuantities(refunds)
  if (done.size > 0) {
    const all = lines.every((l) => dec(done.get(l.itemId) ?? 0).gte(l.quantity))
    return all ? "refunded" : "partially_refunded"
  }
  return rec.completed_at ? "completed" : "filed"
}

// ---------------------------------------------------------------------------------------------
// Retries
// ---------------------------------------------------------------------------------------------

export interface BackoffPolicy {
  baseMs: number
  maxMs: number
}
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, maxMs: 3_600_000 }

/** Exponential backoff with full jitter in [d/2, d]: attempt 1 → ~base, doubling, capped at max. */
export function backoffDelayMs(attempts: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(exp / 2 + (exp / 2) * random())
}

export interface ErrorLike {
  status?: number | null
  retryable?: boolean
  code?: string
  message?: string
  title?: string
  detail?: string
}

/** Errors worth retrying later: network, timeouts, 408, 429 and 5xx. */
export function isRetryable(err: unknown): boolean {
  const e = err as ErrorLike
  if (typeof e?.retryable === "boolean") return e.retryable
  const s = e?.status
  if (s == null) return true
  return s === 408 || s === 429 || s >= 500
}

/** Error text for the record: bounded, with every secret replaced. */
export function sanitizeError(err: unknown, secrets: (string | undefined | null)[]): string {
  const e = err as ErrorLike & { errors?: { location: string; message: string }[] }
  let text: string
  if (e && typeof e === "object" && ("status" in e || "title" in e)) {
    const parts = [e.status != null ? `HTTP ${e.status}` : (e.code ?? "error"), e.title, e.detail ?? e.message]
    if (Array.isArray(e.errors) && e.errors.length) parts.push(e.errors.map((x) => `${x.location}: ${x.message}`).join("; "))
    text = parts.filter(Boolean).join(" - ")
  } else {
    text = err instanceof Error ? err.message : String(err)
  }
  for (const s of secrets) if (s && s.length >= 4) text = text.split(s).join("[redacted]")
  return text.slice(0, 1000)
}

/**
 * One log line for a failure the subscriber did not expect: its message and code (and HTTP status,
 * Medusa error type, cause), whatever shape it comes in. Medusa's workflow engine rethrows a step's
 * error as a plain object ({ message, name, code?, type?, stack }), which `String()` turns into
 * "[object Object]". Secrets are replaced; bounded to 2,000 characters.
 */
export function describeFailure(err: unknown, secrets: (string | undefined | null)[] = []): string {
  const parts: string[] = []
  const seen = new Set<unknown>()
  let e: unknown = err
  for (let depth = 0; depth < 3 && e !== undefined && e !== null && !seen.has(e); depth++) {
    seen.add(e)
    if (typeof e !== "object") {
      parts.push(String(e))
      break
    }
    const o = e as ErrorLike & { name?: unknown; type?: unknown; cause?: unknown; errors?: unknown }
    const message = [o.message, o.detail, o.title].find((x) => typeof x === "string" && x.length) as string | undefined
    const tags = [
      o.code !== undefined && o.code !== null ? `code ${String(o.code)}` : null,
      typeof o.status === "number" ? `HTTP ${o.status}` : null,
      typeof o.type === "string" && o.type !== o.code ? `type ${o.type}` : null,
    ].filter(Boolean)
    let text = message ?? safeJson(o)
    if (typeof o.name === "string" && o.name !== "Error" && message) text = `${o.name}: ${text}`
    parts.push(tags.length ? `${text} (${tags.join(", ")})` : text)
    e = o.cause
  }
  let out = parts.join("; caused by: ")
  // the stack below the first line (which repeats the message), for an Error or a plain object carrying one
  const stack = (err as { stack?: unknown } | null)?.stack
  if (typeof stack === "string" && stack.includes("\n")) out += `\n${stack.split("\n").slice(1).join("\n")}`
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]")
  return out.slice(0, 2000)
}

function safeJson(o: object): string {
  try {
    return JSON.stringify(o) ?? String(o)
  } catch {
    return `an object with keys ${Object.keys(o).join(", ") || "(none)"}`
  }
}

export function toIso(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString()
}

// ---------------------------------------------------------------------------------------------
// Order edits, replace claims, credits
// ---------------------------------------------------------------------------------------------

/** Refund sources that are the customer's refunds (an edit's and a cancellation's are not). */
const CUSTOMER_REFUND_SOURCES = new Set<RefundSource>(["return", "claim", "exchange"])

type FamilyRecord = Pick<FilingRecordDTO, "order_id" | "snapshot" | "refunds" | "voided_at">

/** Quantity of `itemId` still refundable on `rec` (its line minus every refund row not superseded). */
export function remainingOn(rec: FamilyRecord, itemId: string): number {
  const line = rec.snapshot?.lines.find((l) => l.itemId === itemId)
  if (!line || rec.voided_at) return 0
  const used = (rec.refunds ?? [])
    .filter((r) => r.state !== "superseded")
    .flatMap((r) => r.items)
    .filter((i) => i.itemId === itemId)
  return dec(line.quantity)
    .minus(sum(used.map((i) => i.quantity)))
    .toNumber()
}

/**
 * Splits a refund of Medusa items over the records that hold them (the order, its edits' orders,
 * its exchanges' and claims' orders): each item is taken from the newest record that still has a
 * refundable quantity of it. Quantities nobody holds are dropped (they were never filed).
 */
export function routeRefund(items: RefundItem[], family: FamilyRecord[]): { orderId: string; items: RefundItem[] }[] {
  const out = new Map<string, Map<string, number>>()
  const left = new Map(family.map((r) => [r.order_id, new Map<string, number>()]))
  for (const it of items) {
    let q = dec(it.quantity)
    for (const rec of [...family].reverse()) {
      if (q.lte(0)) break
      const taken = left.get(rec.order_id)!.get(it.itemId) ?? 0
      const avail = dec(remainingOn(rec, it.itemId)).minus(taken)
      if (avail.lte(0)) continue
      const take = q.gt(avail) ? avail : q
      left.get(rec.order_id)!.set(it.itemId, dec(taken).plus(take).toNumber())
      const m = out.get(rec.order_id) ?? new Map<string, number>()
      m.set(
        it.itemId,
        dec(m.get(it.itemId) ?? 0)
          .plus(take)
          .toNumber(),
      )
      out.set(rec.order_id, m)
      q = q.minus(take)
    }
  }
  return family
    .filter((r) => out.has(r.order_id))
    .map((r) => ({ orderId: r.order_id, items: [...out.get(r.order_id)!.entries()].map(([itemId, quantity]) => ({ itemId, quantity })) }))
}

export interface EditPlan {
  /** false: what is filed already equals what Medusa charges after the edit */
  changed: boolean
  /** a refund row is still pending: plan again once it is sent */
  blocked: boolean
  /** lines the order can be voided and filed again with (only the order's own record, no refunds) */
  refileLines: FilingLine[] | null
  /** after the cutoff: per record, the whole remaining quantity of each changed line, refunded */
  refunds: { orderId: string; items: RefundItem[] }[]
  /** after the cutoff: the changed and added lines at what Medusa charges for them now, net of the customer's refunds */
  supplement: FilingLine[]
}

/**
 * What an order edit files. `now` = the order's lines as Medusa charges them after the edit;
 * `family` = the order's own record first, then its edits' records. Per line, what is filed
 * (lines minus refunds over the family) is compared with what is charged (Medusa's line tax minus
 * the tax refunded to the customer for returns and claims). Changed lines are moved whole: their
 * remaining quantity is refunded where it lives and they are filed again at the new quantity and
 * tax, so each line lives in one service order and the amounts are exact to the cent.
 */
/**
 * Where each line of the order ships from after an edit (the origin its tax lines were quoted
 * from, by item id; origin per stock location). A line absent from it has no recorded
 * origin (an order from before origins): it keeps the origin of the record it is filed on.
 */
export type LineOrigins = Readonly<Record<string, Address>>

export function planEdit(now: FilingLine[], family: FamilyRecord[], origins: LineOrigins = {}): EditPlan {
  const live = family.filter((r) => r.snapshot && !r.voided_at)
  const rows = live.flatMap((r) => (r.refunds ?? []).filter((x) => x.state !== "superseded"))
  const blocked = rows.some((r) => r.state !== "refunded")
  const none: EditPlan = { changed: false, blocked, refileLines: null, refunds: [], supplement: [] }
  if (blocked) return none
  const ids = new Set<string>([...now.map((l) => l.itemId), ...live.flatMap((r) => r.snapshot!.lines.map((l) => l.itemId))])
  const changed: FilingLine[] = []
  const removed: string[] = []
  const supplement: FilingLine[] = []
  for (const id of ids) {
    const lines = live.flatMap((r) => r.snapshot!.lines.filter((l) => l.itemId === id))
    const mine = rows.flatMap((r) =>
      r.items.filter((i) => i.itemId === id).map((i) => ({ ...i, source: (r as FilingRefundDTO).source_type })),
    )
    const filedQ = dec(sum(lines.map((l) => l.quantity))).minus(sum(mine.map((i) => i.quantity)))
    const filedT = dec(sum(lines.map((l) => l.chargedTax))).minus(sum(mine.map((i) => i.tax ?? 0)))
    const cust = mine.filter((i) => CUSTOMER_REFUND_SOURCES.has(i.source))
    const n = now.find((l) => l.itemId === id)
    const wantQ = n ? dec(n.quantity).minus(sum(cust.map((i) => i.quantity))) : dec(0)
    const wantT = n ? dec(roundCents(n.chargedTax)).minus(sum(cust.map((i) => i.tax ?? 0))) : dec(0)
    // a line that ships from another origin now than the records holding it (its location or its
    // shipping method changed) moves whole, even at the same quantity and tax
    const at = n ? origins[id] : undefined
    const holders = live.filter((r) => remainingOn(r, id) > 0)
    const moved = !!at && holders.some((r) => !sameAddress(r.snapshot!.origin, at))
    if (filedQ.eq(wantQ) && dec(roundCents(filedT)).eq(roundCents(wantT)) && !moved) continue
    if (n) changed.push(n)
    else removed.push(id)
    if (n && wantQ.gt(0)) supplement.push({ ...n, index: supplement.length, quantity: wantQ.toNumber(), chargedTax: roundCents(wantT) })
  }
  if (!changed.length && !removed.length) return none
  // void and refile only an order filed as one service order whose lines all still ship from its origin
  const own =
    live.length === 1 &&
    rows.length === 0 &&
    now.every((l) => !origins[l.itemId] || sameAddress(origins[l.itemId]!, live[0]!.snapshot!.origin))
  const refileLines = own ? now.filter((l) => l.quantity > 0).map((l, index) => ({ ...l, index })) : null
  const moved = [...changed.map((l) => l.itemId), ...removed]
  const refunds = live
    .map((r) => ({
      orderId: r.order_id,
      items: moved.map((itemId) => ({ itemId, quantity: remainingOn(r, itemId) })).filter((i) => i.quantity > 0),
    }))
    .filter((r) => r.items.length)
  return { changed: true, blocked: false, refileLines, refunds, supplement }
}

/** Pure: an origin as a key (the address field by field; the same origin gives the same key). */
export function originKey(a: Address): string {
  return [a.line1, a.line2 ?? "", a.city, a.state, a.zip].join("|")
}

/**
 * Pure: an edit's supplement lines as service orders, one per origin. The lines shipping from the
 * order's own origin (or with no recorded origin) go on the edit's own order (`childOrderId(edit
 * id)`, as before origins); each other origin's on `<that id>~<8 hex of the origin>` (origins.ts),
 * with its origin. Lines are indexed from 0 in each.
 */
export function editSupplements(
  editId: string,
  orderOrigin: Address,
  lines: FilingLine[],
  origins: LineOrigins = {},
): { orderId: string; origin: Address; lines: FilingLine[] }[] {
  const base = childOrderId(editId)
  const groups = new Map<string, { orderId: string; origin: Address; lines: FilingLine[] }>()
  for (const l of lines) {
    const at = origins[l.itemId]
    const own = !at || sameAddress(at, orderOrigin)
    const key = own ? "" : originKey(at)
    const g = groups.get(key) ?? { orderId: own ? base : originServiceId(base, key, false), origin: own ? orderOrigin : at, lines: [] }
    g.lines.push({ ...l, index: g.lines.length })
    groups.set(key, g)
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g)
}

/** The service orderId of an edit's, claim's or credit's own order: the Medusa id, within the 50-character limit. */
export function childOrderId(id: string): string {
  if (id.length <= 50) return id
  // keep it recognisable and unique: a prefix and a hash of the whole id
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0
  return `${id.slice(0, 41)}_${h.toString(16).padStart(8, "0")}`
}

/** The refund key of a refund on a record that is not the Medusa order's own: `<source key>:<record order id>`. */
export function childRefundKey(key: string, recordOrderId: string, rootOrderId: string): string {
  return recordOrderId === rootOrderId ? key : `${key}:${recordOrderId}`
}

/**
 * A replace claim's replacement as the customer pays for it: the claimed units' tax (the tax of
 * what it replaces) is deducted from the replacement lines' tax in line order; lines left with no
 * tax are not filed, and a line's price is cut in the same proportion as its tax.
 */
export function replacementCharge(replacement: FilingLine[], claimedTax: number): FilingLine[] {
  let credit = dec(roundCents(Math.max(0, claimedTax)))
  const out: FilingLine[] = []
  for (const l of replacement) {
    const t = dec(roundCents(l.chargedTax))
    const used = credit.gt(t) ? t : credit
    credit = credit.minus(used)
    const left = t.minus(used)
    if (left.lte(0)) continue
    const price = t.gt(0) ? roundCents(dec(l.price).times(left).div(t)) : l.price
    out.push({ ...l, index: out.length, price, chargedTax: left.toNumber() })
  }
  return out
}

/** A line's share of tax for `quantity` of its `ofQuantity` units, rounded half-up to the cent. */
export function taxShare(lineTax: number, quantity: number, ofQuantity: number): number {
  if (!(ofQuantity > 0)) return 0
  return roundCents(dec(lineTax).times(quantity).div(ofQuantity))
}

/** The tax part of a refund of `amount` from an order whose total is `total` with `tax` in it. */
export function refundTaxPart(amount: number, orderTax: number, orderTotal: number): number {
  if (!(orderTotal > 0)) return 0
  return roundCents(dec(amount).times(orderTax).div(orderTotal))
}
