/**
 * Reconciliation, pure: per month, what Medusa charged and refunded to customers against what
 * the filing records hold as filed and refunded at the service. Integer cents throughout (amounts
 * enter as decimal strings/numbers and are rounded to the cent with bignumber.js once); no I/O, no
 * clock. The Medusa reads are in ./medusa.ts, the admin routes in src/api/admin/sales-tax/reconciliation.
 */
import { Dec, dec, type DecLike } from "../../money"

/** `YYYY-MM`, months 01–12. */
export const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/

/** The UTC bounds of a month: [from, to). Throws on a malformed month (validate at the edge first). */
export function monthRange(month: string): { from: Date; to: Date } {
  const m = MONTH_RE.exec(month)
  if (!m) throw new Error(`month must be YYYY-MM, got ${month}`)
  const y = Number(m[1])
  const mo = Number(m[2]) - 1
  return { from: new Date(Date.UTC(y, mo, 1)), to: new Date(Date.UTC(y, mo + 1, 1)) }
}

/** The `YYYY-MM` (UTC) of an instant. */
export function monthOf(d: Date | string): string {
  const x = d instanceof Date ? d : new Date(d)
  return `${x.getUTCFullYear()}-${String(x.getUTCMonth() + 1).padStart(2, "0")}`
}

/** A Medusa / record amount in dollars → integer cents (half away from zero). */
export function cents(v: DecLike | null | undefined): number {
  if (v === null || v === undefined || v === "") return 0
  return dec(v).times(100).decimalPlaces(0, Dec.ROUND_HALF_UP).toNumber()
}

/** Integer cents → "12.34" (exact). */
export function money(c: number): string {
  return dec(c).div(100).toFixed(2)
}

/**
 * The tax an order item was charged for its whole quantity, as Medusa computed it when the order
 * was placed: Σ over its tax lines of rate % × (unit price × quantity − adjustments), prices tax
 * exclusive. Needed because Medusa (2.19-2.21) reports an order item's `tax_total` for its CURRENT
 * quantity (quantity − received and dismissed returns), so after a return it no longer shows what
 * was charged.
 */
export function fullItemTax(item: {
  unitPrice: DecLike
  quantity: DecLike
  adjustments: DecLike[]
  rates: DecLike[]
  /** a tax-inclusive price (and adjustments): Medusa takes the tax out, taxable = (price − adjustments) ÷ (1 + Σ rates) */
  taxInclusive?: boolean
}): string {
  const discount = item.adjustments.reduce<ReturnType<typeof dec>>((s, a) => s.plus(a), dec(0))
  const gross = dec(item.unitPrice).times(item.quantity).minus(discount)
  const sumRate = item.rates.reduce<ReturnType<typeof dec>>((s, r) => s.plus(dec(r).div(100)), dec(0))
  const taxable = item.taxInclusive ? gross.div(sumRate.plus(1)) : gross
  return item.rates.reduce<ReturnType<typeof dec>>((s, r) => s.plus(taxable.times(dec(r).div(100))), dec(0)).toString()
}

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

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
  /** the shipping address is in the US (issue 26) */
  usAddress?: boolean
  /** ISO 4217, lower or upper case (absent: USD) */
  currencyCode?: string
  /** some line carries a tax line: the provider charged the order (even at 0) */
  taxed?: boolean
  /** what the order sold, before tax: items (after discounts) and shipping, in cents of its currency */
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
}

// ---------------------------------------------------------------------------------------------
// Per order
// ---------------------------------------------------------------------------------------------

/**
 * Tax refunded to the customer for one line over successive refunds, rounded as the service
 * rounds them: each refund takes tax × quantity / original quantity to the cent (half up), and
 * the refund that brings the refunded quantity to the original quantity takes the exact rest.
 */
export function lineRefundedCents(taxCents: number, quantity: number, refundedQuantities: number[]): number {
  let qty = dec(0)
  let total = 0
  for (const q of refundedQuantities) {
    if (!(q > 0) || !(quantity > 0)) continue
    const next = BigNumberMin(dec(quantity), qty.plus(q))
    const part = next.minus(qty)
    if (part.lte(0)) continue
    if (next.gte(quantity)) {
      total = taxCents
      break
    }
    total += dec(taxCents).times(part).div(quantity).decimalPlaces(0, Dec.ROUND_HALF_UP).toNumber()
    qty = next
  }
  return total
}

function BigNumberMin(a: ReturnType<typeof dec>, b: ReturnType<typeof dec>) {
  return a.lte(b) ? a : b
}

export function customerRefundedCents(o: OrderFacts): number {
  const charged = sumCents(o.lines.map((l) => l.taxCents))
  if (o.canceled) return charged
  return returnedCents(o) + sumCents((o.manualRefunds ?? []).map((m) => m.taxCents))
}

function returnedCents(o: OrderFacts): number {
  const sorted = [...o.refunds].sort((a, b) => (a.at ?? "").localeCompare(b.at ?? ""))
  let total = 0
  for (const l of o.lines) {
    const qs = sorted.map((r) => r.items.filter((i) => i.itemId === l.id).reduce((s, i) => dec(s).plus(i.quantity).toNumber(), 0))
    total += lineRefundedCents(l.taxCents, l.quantity, qs)
  }
  return total
}

function sumCents(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0)
}

export type DifferenceReason = "not_filed" | "failed" | "pending" | "refund_not_filed" | "amount_mismatch" | "needs_attention" | "requoted"

export const REASON_TEXT: Record<DifferenceReason, string> = {
  not_filed: "Not filed: the order has no filing record (event lost, or placed before filing started)",
  failed: "Filing failed",
  pending: "Filing not done yet",
  refund_not_filed: "Tax refunded to the customer is not refunded at the service",
  amount_mismatch: "Tax filed differs from the tax charged",
  needs_attention: "Needs attention: not filed until a person fixes it",
  requoted: "Filed after a re-quote: the tax was not collected from the customer, the merchant owes it",
}

/**
 * Why a US order is listed apart (issue 26, 27): "us_without_tax" — shipped to a US address and
 * no tax was charged at checkout (no tax line on any line); "currency_not_usd" — shipped to a US
 * address in a currency other than USD (never filed as dollars). Canceled orders are not listed.
 */
export type AttentionKind = "us_without_tax" | "currency_not_usd"

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

export interface OrderRow {
  orderId: string
  displayId: number | null
  createdAt: string
  state: string
  chargedCents: number
  filedCents: number
  customerRefundedCents: number
  serviceRefundedCents: number
  /** (charged − refunded to the customer) − (filed − refunded at the service) */
  differenceCents: number
  reason: DifferenceReason | null
  detail: string | null
  /** listed apart: a US order without tax, or in a currency other than USD */
  attention: AttentionKind | null
  /** the order's currency, upper case */
  currencyCode: string
  salesCents: number
  /** the reason its filing record gives (a needs_attention record's) */
  recordDetail: string | null
}

/** One order against its filing records (its own and its children's). */
export function reconcileOrder(o: OrderFacts, records: RecordFacts[]): OrderRow {
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

// ---------------------------------------------------------------------------------------------
// Per month
// ---------------------------------------------------------------------------------------------

export interface MonthReport {
  month: string
  orders: number
  chargedCents: number
  filedCents: number
  customerRefundedCents: number
  serviceRefundedCents: number
  differenceCents: number
  rows: OrderRow[]
  /** rows with a reason, largest difference first */
  differences: OrderRow[]
  /** US orders without tax (issue 26): how many, what they sold (USD), and the rows */
  usWithoutTax: { orders: number; salesCents: number; rows: OrderRow[] }
  /** US orders in a currency other than USD (issue 27): how many, what they sold per currency, and the rows */
  nonUsd: { orders: number; byCurrency: { currency: string; orders: number; salesCents: number }[]; rows: OrderRow[] }
}

/** Pure: the rows listed apart, by kind, in the rows' order. */
export function attentionLines(rows: OrderRow[]): Pick<MonthReport, "usWithoutTax" | "nonUsd"> {
  const untaxed = rows.filter((r) => r.attention === "us_without_tax")
  const foreign = rows.filter((r) => r.attention === "currency_not_usd")
  const byCurrency = new Map<string, { currency: string; orders: number; salesCents: number }>()
  for (const r of foreign) {
    const c = byCurrency.get(r.currencyCode) ?? { currency: r.currencyCode, orders: 0, salesCents: 0 }
    c.orders++
    c.salesCents += r.salesCents
    byCurrency.set(r.currencyCode, c)
  }
  return {
    usWithoutTax: { orders: untaxed.length, salesCents: sumCents(untaxed.map((r) => r.salesCents)), rows: untaxed },
    nonUsd: {
      orders: foreign.length,
      byCurrency: [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
      rows: foreign,
    },
  }
}

/** The separate lines' text: "US orders without tax: 2, sales $240.00"; "US orders not in USD: 1 (EUR 100.00)". */
export function attentionSummary(r: Pick<MonthReport, "usWithoutTax" | "nonUsd">): { usWithoutTax: string; nonUsd: string } {
  const per = r.nonUsd.byCurrency.map((c) => `${c.currency} ${money(c.salesCents)}`).join(", ")
  return {
    usWithoutTax: `US orders without tax: ${r.usWithoutTax.orders}, sales $${money(r.usWithoutTax.salesCents)}`,
    nonUsd: `US orders not in USD: ${r.nonUsd.orders}${per ? ` (sales ${per})` : ""}`,
  }
}

/** Groups records by the Medusa order they belong to (own id, or parent for exchange records). */
export function recordsByOrder(records: RecordFacts[]): Map<string, RecordFacts[]> {
  const m = new Map<string, RecordFacts[]>()
  for (const r of records) {
    const k = r.parentOrderId ?? r.orderId
    const list = m.get(k)
    if (list) list.push(r)
    else m.set(k, [r])
  }
  return m
}

export function reconcileMonth(month: string, orders: OrderFacts[], records: RecordFacts[]): MonthReport {
  const byOrder = recordsByOrder(records)
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

// ---------------------------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------------------------

export const CSV_HEADER = [
  "order_id",
  "display_id",
  "created_at",
  "filing_state",
  "tax_charged",
  "tax_filed",
  "tax_refunded_to_customer",
  "tax_refunded_at_service",
  "difference",
  "reason",
  "detail",
] as const

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF; a leading =,+,-,@ is defused for spreadsheets. */
export function csvField(v: string | number | null): string {
  let s = v === null ? "" : String(v)
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/**
 * Every order of the month (not only differences), then a TOTAL line, then (when there are any)
 * a line of the US orders without tax and one of those not in USD (each such order's row says so
 * in `reason` when it has no difference); CRLF line ends.
 */
export function monthCsv(r: MonthReport): string {
  const lines = [CSV_HEADER.join(",")]
  for (const x of r.rows) {
    const apart = !x.reason && x.attention
    const detail = apart ? [ATTENTION_TEXT[x.attention!], x.recordDetail].filter(Boolean).join("; ") : x.detail
    lines.push(
      [
        x.orderId,
        x.displayId,
        x.createdAt,
        x.state,
        money(x.chargedCents),
        money(x.filedCents),
        money(x.customerRefundedCents),
        money(x.serviceRefundedCents),
        money(x.differenceCents),
        apart ? x.attention : x.reason,
        detail,
      ]
        .map(csvField)
        .join(","),
    )
  }
  lines.push(
    [
      "TOTAL",
      r.orders,
      r.month,
      "",
      money(r.chargedCents),
      money(r.filedCents),
      money(r.customerRefundedCents),
      money(r.serviceRefundedCents),
      money(r.differenceCents),
      "",
      `${r.differences.length} differences`,
    ]
      .map(csvField)
      .join(","),
  )
  const text = attentionSummary(r)
  const apart = (label: string, n: number, detail: string) =>
    [label, n, r.month, "", "", "", "", "", "", "", detail].map(csvField).join(",")
  // the lines apart, when the month has such orders (a month without any keeps the file as before)
  if (r.usWithoutTax.orders) lines.push(apart("US_WITHOUT_TAX", r.usWithoutTax.orders, text.usWithoutTax))
  if (r.nonUsd.orders) lines.push(apart("NOT_USD", r.nonUsd.orders, text.nonUsd))
  return lines.join("\r\n") + "\r\n"
}
