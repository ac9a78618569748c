/**
 * Pure decisions of the filing lifecycle: no I/O, no clock (callers pass `now`). The processor
 * (processor.ts) performs the service calls these decide on.
 */
import type {
  CalculateCartsRequest, CartIn, CreateOrderRequest, LineItemOut, OrderRecord, RefundRecord,
} from "../../contract"
import { dec, roundCents, roundTo, sum } from "../../money"
import type {
  FilingLine, FilingRecordDTO, FilingRefundDTO, FilingSnapshot, FilingState, RefundItem, RefundSource,
} from "../../modules/sales-tax-filing/types"

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
    ...(equal ? {} : { reason: sameLines ? "amount" as const : "line_mismatch" as const }),
  }
}

/** Lines carrying the provider's fallback tax take the direct path whatever the re-quote says. */
export function mustFileDirect(s: FilingSnapshot): "fallback" | "no_cart" | null {
  if (s.lines.some((l) => l.fallback)) return "fallback"
  if (!s.cartId) return "no_cart"
  return null
}

// ---------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------

export interface Completion { completed: boolean; completedDate?: string }

/** What to tell the service about completion when the order is filed. */
export function completionAtFiling(rec: Pick<FilingRecordDTO, "completion_mode" | "completion_requested_at">, s: FilingSnapshot): Completion {
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
    completedDate: completion.completed ? completion.completedDate ?? null : null,
    currency: { currencyCode: s.currencyCode.toUpperCase() },
    origin: s.origin,
    destination: s.destination,
    lineItems: s.lines.map((l) => ({
      ...serviceLineItem(l),
      tax: { amount: roundCents(l.chargedTax), rate: roundTo(l.chargedRate, 4) },
    })),
    ...(s.exemptionId ? { exemption: { exemptionId: s.exemptionId } } : {}),
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
    for (const i of r.items) m.set(i.itemId, dec(m.get(i.itemId) ?? 0).plus(i.quantity).toNumber())
  }
  return m
}

/** What is left to refund of each line (the whole-order refund after the void cutoff). */
export function remainingItems(lines: FilingLine[], refunds: Pick<FilingRefundDTO, "state" | "items">[]): RefundItem[] {
  const done = refundedQuantities(refunds)
  return lines
    .map((l) => ({ itemId: l.itemId, quantity: dec(l.quantity).minus(done.get(l.itemId) ?? 0).toNumber() }))
    .filter((i) => i.quantity > 0)
}

/** Merges duplicate item ids and drops zero quantities; keeps only items of the filed order. */
export function normalizeRefundItems(items: RefundItem[], lines: FilingLine[]): RefundItem[] {
  const known = new Set(lines.map((l) => l.itemId))
  const m = new Map<string, number>()
  for (const i of items) {
    if (!known.has(i.itemId) || !(i.quantity > 0)) continue
    m.set(i.itemId, dec(m.get(i.itemId) ?? 0).plus(i.quantity).toNumber())
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

export interface BackoffPolicy { baseMs: number; maxMs: number }
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, maxMs: 3_600_000 }

/** Exponential backoff with full jitter in [d/2, d]: attempt 1 → ~base, doubling, capped at max. */
export function backoffDelayMs(attempts: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(exp / 2 + (exp / 2) * random())
}

export interface ErrorLike { status?: number | null; retryable?: boolean; code?: string; message?: string; title?: string; detail?: string }

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
    const parts = [e.status != null ? `HTTP ${e.status}` : e.code ?? "error", e.title, e.detail ?? e.message]
    if (Array.isArray(e.errors) && e.errors.length) parts.push(e.errors.map((x) => `${x.location}: ${x.message}`).join("; "))
    text = parts.filter(Boolean).join(" - ")
  } else {
    text = err instanceof Error ? err.message : String(err)
  }
  for (const s of secrets) if (s && s.length >= 4) text = text.split(s).join("[redacted]")
  return text.slice(0, 1000)
}

export function toIso(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString()
}
