/** Reconciliation, pure (integer cents, no I/O): per month, what Medusa charged and refunded to customers against what the
 * filing records filed and refunded at the service. Medusa reads: ./medusa.ts. The shapes it reads (a Medusa order's facts,
 * its filing records) come first. */
import { Dec, dec } from "../../../packages/contract/src/money"
import { money, monthOf, sumCents } from "./amounts"
import { groupBy } from "../order-rows"

/** One taxed line of a Medusa order (item or shipping method) as charged. */
export interface ChargedLine {
  /** item id, or `shipping:<shipping method id>` */
  id: string
  taxCents: number
  quantity: number
}

/** Something Medusa refunded to the customer: a received return, a refund claim, an exchange's return. */
export interface CustomerRefund {
  /** the Medusa id it comes from (the filing refund key uses the same id) */
  key: string
  at: string | null
  items: { itemId: string; quantity: number }[]
}

export interface OrderFacts {
  orderId: string
  displayId: number | null
  createdAt: string
  canceled: boolean
  lines: ChargedLine[]
  refunds: CustomerRefund[]
  /** refunds without a return (payment refunds beyond what came back): the tax part of each */
  manualRefunds?: { refundId: string; taxCents: number }[]
  usAddress?: boolean
  /** ISO 4217, lower or upper case (absent: USD) */
  currencyCode?: string
  taxed?: boolean
  salesCents?: number
}

/** A filing record (the order's own, or one of its children: an exchange's order) as stored. */
export interface RecordFacts {
  orderId: string
  /** "credit": a standalone credit (a refund without a return filed): it counts as refunded at the service */
  kind?: string
  /** the Medusa order the record belongs to (its own id, or parent_order_id for children) */
  parentOrderId: string | null
  state: string
  filed: boolean
  filedCents: number
  voided: boolean
  lastError: string | null
  refunds: { key: string; state: string; refundedCents: number }[]
  /** filed by an admin's re-quote (a needs_attention order): no tax was collected, the merchant owes what is filed */
  requoted?: boolean
  /** the tax its snapshot's lines carry: what it must have filed (absent: not compared) */
  linesCents?: number | null
  /** a re-quoted record's owed figure (its snapshot's `requote.owedTax`): what it must have filed too */
  owedCents?: number | null
}

export type DifferenceReason = "not_filed" | "failed" | "pending" | "refund_not_filed" | "amount_mismatch" | "needs_attention" | "requoted"

/** Why a US order is listed apart: no tax charged at checkout, or a currency other than USD (canceled: not listed). */
export type AttentionKind = "us_without_tax" | "currency_not_usd"

/** An order's row and a month's report: what reconcileOrder and reconcileMonth answer. */
export type OrderRow = ReturnType<typeof reconcileOrder>
export type MonthReport = ReturnType<typeof reconcileMonth>

/** Tax refunded to the customer for one line over successive refunds, as the service rounds them: each takes tax × quantity /
 * original quantity, half up to the cent; the one that completes the line takes the exact rest. */
export function lineRefundedCents(taxCents: number, quantity: number, refundedQuantities: number[]): number {
  let qty = dec(0)
  let total = 0
  for (const q of refundedQuantities) {
    if (!(q > 0) || !(quantity > 0)) continue
    const next = Dec.min(dec(quantity), qty.plus(q))
    const part = next.minus(qty)
    if (part.lte(0)) continue
    if (next.gte(quantity)) {
      total = taxCents
      break
    }
    // each refund rounded on its own, never past the line's tax (tiny taxes over many returns)
    total = Math.min(taxCents, total + dec(taxCents).times(part).div(quantity).decimalPlaces(0, Dec.ROUND_HALF_UP).toNumber())
    qty = next
  }
  return total
}

export function customerRefundedCents(o: OrderFacts): number {
  if (o.canceled) return sumCents(o.lines.map((l) => l.taxCents))
  const sorted = [...o.refunds].sort((a, b) => (a.at ?? "").localeCompare(b.at ?? ""))
  let total = sumCents((o.manualRefunds ?? []).map((m) => m.taxCents))
  for (const l of o.lines) {
    const qs = sorted.map((r) => r.items.filter((i) => i.itemId === l.id).reduce((s, i) => dec(s).plus(i.quantity).toNumber(), 0))
    total += lineRefundedCents(l.taxCents, l.quantity, qs)
  }
  return total
}

export const REASON_TEXT: Record<DifferenceReason, string> = {
  not_filed: "Not filed: the order has no filing record (event lost, or placed before filing started)",
  failed: "Filing failed",
  pending: "Filing not done yet",
  refund_not_filed: "Tax refunded to the customer is not refunded at the service",
  amount_mismatch: "Tax filed differs from the tax charged",
  needs_attention: "Needs attention: not filed until a person fixes it",
  requoted: "Filed after a re-quote: the tax was not collected from the customer, the merchant owes it",
}

/** Pure: how a filed record disagrees with its own lines (or its re-quote's owed figure); null when it does not. */
export function recordMismatch(r: RecordFacts): string | null {
  const lines = r.linesCents ?? null
  const owed = r.owedCents ?? null
  if ((lines === null || lines === r.filedCents) && (owed === null || owed === r.filedCents)) return null
  const parts = [`${r.orderId} filed $${money(r.filedCents)}`]
  if (lines !== null) parts.push(`its lines $${money(lines)}`)
  if (owed !== null) parts.push(`owed after its re-quote $${money(owed)}`)
  return parts.join(", ")
}

/** One order against its filing records (its own and its children's). */
export function reconcileOrder(o: OrderFacts, records: RecordFacts[]) {
  const charged = sumCents(o.lines.map((l) => l.taxCents))
  const refundedToCustomer = customerRefundedCents(o)
  const live = records.filter((r) => !r.voided)
  const credits = live.filter((r) => r.kind === "credit")
  const filed = sumCents(live.filter((r) => r.filed && r.kind !== "credit").map((r) => r.filedCents))
  const refundedAtService =
    sumCents(live.flatMap((r) => r.refunds.filter((x) => x.state === "refunded").map((x) => x.refundedCents))) +
    sumCents(credits.filter((r) => r.filed).map((r) => r.filedCents))
  const diff = charged - refundedToCustomer - (filed - refundedAtService)
  const own = records.find((r) => r.orderId === o.orderId)
  const failed = records.find((r) => r.state === "failed")
  const attention = records.find((r) => r.state === "needs_attention")
  const requoted = records.some((r) => r.requoted && r.filed && !r.voided)
  const pending = records.find((r) => !r.filed && !r.voided && r.state !== "skipped")
  // a record that filed other than its own lines (or than a re-quote owes) is never silent, whatever the totals say
  const off = live.find((r) => r.filed && r.kind !== "credit" && !!recordMismatch(r))
  let reason: DifferenceReason | null = null
  let detail: string | null = null
  if (!own && charged - refundedToCustomer !== 0) {
    reason = "not_filed"
  } else if (attention && diff !== 0) {
    reason = "needs_attention"
    detail = attention.lastError
  } else if (failed) {
    reason = "failed"
    detail = failed.lastError
  } else if (pending && diff !== 0) {
    reason = "pending"
  } else if (off) {
    reason = "amount_mismatch"
    detail = `${REASON_TEXT.amount_mismatch}: ${recordMismatch(off)}`
  } else if (diff !== 0) {
    reason = refundedToCustomer !== refundedAtService ? "refund_not_filed" : requoted ? "requoted" : "amount_mismatch"
  }
  return {
    orderId: o.orderId,
    displayId: o.displayId,
    createdAt: o.createdAt,
    state: own?.state ?? "none",
    chargedCents: charged,
    filedCents: filed,
    customerRefundedCents: refundedToCustomer,
    serviceRefundedCents: refundedAtService,
    differenceCents: diff,
    reason,
    detail: detail ?? (reason ? REASON_TEXT[reason] : null),
    attention: attentionOf(o),
    currencyCode: (o.currencyCode ?? "usd").toUpperCase(),
    salesCents: o.salesCents ?? 0,
    recordDetail: own && (own.state === "needs_attention" || own.state === "skipped") ? own.lastError : null,
  }
}

export function reconcileMonth(month: string, orders: OrderFacts[], records: RecordFacts[]) {
  // by the Medusa order they belong to (own id, or parent for its children's records)
  const byOrder = groupBy(records, (r) => r.parentOrderId ?? r.orderId)
  const rows = orders
    .filter((o) => monthOf(o.createdAt) === month)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.orderId.localeCompare(b.orderId))
    .map((o) => reconcileOrder(o, byOrder.get(o.orderId) ?? []))
  const total = (f: (r: OrderRow) => number) => sumCents(rows.map(f))
  const differences = rows
    .filter((r) => r.reason !== null)
    .sort((a, b) => Math.abs(b.differenceCents) - Math.abs(a.differenceCents) || a.orderId.localeCompare(b.orderId))
  return {
    month,
    orders: rows.length,
    chargedCents: total((r) => r.chargedCents),
    filedCents: total((r) => r.filedCents),
    customerRefundedCents: total((r) => r.customerRefundedCents),
    serviceRefundedCents: total((r) => r.serviceRefundedCents),
    differenceCents: total((r) => r.differenceCents),
    rows,
    differences,
    ...attentionLines(rows),
  }
}

/** The US orders listed apart: without tax, or not in USD. */
export const ATTENTION_TEXT: Record<AttentionKind, string> = {
  us_without_tax: "US order without tax: no tax was charged at checkout",
  currency_not_usd: "US order in a currency other than USD: the plugin files USD only",
}

/** Pure: whether (and why) an order is listed apart. */
export function attentionOf(o: OrderFacts): AttentionKind | null {
  if (!o.usAddress || o.canceled) return null
  if ((o.currencyCode ?? "usd").toLowerCase() !== "usd") return "currency_not_usd"
  return o.taxed === false ? "us_without_tax" : null
}

/** Pure: the rows listed apart, by kind, in the rows' order. */
export function attentionLines(rows: OrderRow[]) {
  const untaxed = rows.filter((r) => r.attention === "us_without_tax")
  const foreign = rows.filter((r) => r.attention === "currency_not_usd")
  const byCurrency = [...groupBy(foreign, (r) => r.currencyCode)].map(([currency, rs]) => ({
    currency,
    orders: rs.length,
    salesCents: sumCents(rs.map((r) => r.salesCents)),
  }))
  return {
    usWithoutTax: { orders: untaxed.length, salesCents: sumCents(untaxed.map((r) => r.salesCents)), rows: untaxed },
    nonUsd: {
      orders: foreign.length,
      byCurrency: byCurrency.sort((a, b) => a.currency.localeCompare(b.currency)),
      rows: foreign,
    },
  }
}

/** The separate lines' text: "US orders without tax: 2, sales $240.00"; "US orders not in USD: 1 (EUR 100.00)". */
export function attentionSummary(r: ReturnType<typeof attentionLines>): { usWithoutTax: string; nonUsd: string } {
  const per = r.nonUsd.byCurrency.map((c) => `${c.currency} ${money(c.salesCents)}`).join(", ")
  return {
    usWithoutTax: `US orders without tax: ${r.usWithoutTax.orders}, sales $${money(r.usWithoutTax.salesCents)}`,
    nonUsd: `US orders not in USD: ${r.nonUsd.orders}${per ? ` (sales ${per})` : ""}`,
  }
}
