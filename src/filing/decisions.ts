/** Pure decisions of filing (no I/O, no clock): keys, the destination, the order request (re-quote, comparison, direct filing,
 * completion), the record's state. Refund math: decisions-refunds.ts; retries and error text: decisions-retry.ts. */
import type { CalculateCartsRequest, CreateOrderRequest, LineItemOut, OrderRecord } from "../../packages/contract/src/index"
import { dec, roundCents, roundTo, sum, type DecLike } from "../../packages/contract/src/money"
import { normalizeUsState, normalizeUsZip, planDestination, zipText, type ResolvedDestination } from "../service/address/us-address"
import { plannedDestination, type QuoteDestination } from "../service/address/destination"
import type {
  DestinationSource,
  EditIntent,
  FilingLine,
  FilingRecordDTO,
  FilingRefundDTO,
  FilingSnapshot,
  FilingState,
  RefundSource,
} from "../modules/sales-tax-filing/types"
import { refundedQuantities } from "./decisions-refunds"

/** The refund idempotency key: the Medusa id of what caused it (return, claim, exchange), or `cancel:<order id>`. */
export function refundKey(source: RefundSource, sourceId: string): string {
  return source === "cancel" ? `cancel:${sourceId}` : sourceId
}

/** Pure: the destination the provider quoted, as it records it on each tax line's `data.destination`: the first well-formed one. */
export function quotedDestination(taxLines: ({ data?: Record<string, unknown> | null } | null | undefined)[]): ResolvedDestination | null {
  for (const t of taxLines) {
    const d = t?.data?.destination as Partial<ResolvedDestination> | undefined
    if (!d || typeof d !== "object") continue
    const state = normalizeUsState(typeof d.state === "string" ? d.state : null)
    const zip = normalizeUsZip(typeof d.zip === "string" ? d.zip : null)
    if (!state || !zip) continue
    const zip4 = typeof d.zip4 === "string" && /^\d{4}$/.test(d.zip4) ? d.zip4 : zip.zip4
    return { state, zip: zip.zip, ...(zip4 ? { zip4 } : {}), source: d.source === "verified" ? "verified" : "typed" }
  }
  return null
}

/** `province`: the code, else the name, as typed; `quoted`: the destination recorded on the order's tax lines (null: none);
 * `charged`: some line carries a tax line (even at 0); `ruled`: the destination rule's answer when nothing was quoted
 * (left out: the rule without the service). */
export interface DestinationFacts {
  countryCode: string | null | undefined
  province: string | null | undefined
  postalCode: string | null | undefined
  currencyCode: string | null | undefined
  quoted: ResolvedDestination | null
  charged: boolean
  ruled?: QuoteDestination
}

export type DestinationDecision =
  | { outcome: "file"; state: string; zip: string; source: DestinationSource }
  | { outcome: "skip"; reason: string }
  /** a person must look: the state and ZIP when they resolve (a re-quote needs the rest of the address only) */
  | { outcome: "attention"; reason: string; state: string | null; zip: string | null }

/** The reason of a record left for a person because of its currency. */
export function currencyReason(currencyCode: string): string {
  return `currency ${currencyCode.toUpperCase()}: the plugin files USD only`
}

const shown = (v: string | null | undefined) => (v && v.trim() ? `"${v.trim().slice(0, 40)}"` : "blank")

/** Pure: skipped outside the US (or a territory / APO/FPO ZIP never charged); filed for the quoted destination, else the
 * rule's; a person must look when not USD, the state or ZIP does not resolve or reconcile, or nothing was charged. */
export function decideDestination(f: DestinationFacts): DestinationDecision {
  if ((f.countryCode ?? "").trim().toLowerCase() !== "us") return { outcome: "skip", reason: "not filed: destination not_us" }
  const currency = (f.currencyCode ?? "").trim().toUpperCase()
  const address = { country_code: "us", province_code: f.province, postal_code: f.postalCode }
  const ruled = f.quoted ? null : (f.ruled ?? plannedDestination(address))
  const resolved = f.quoted ?? (ruled?.address ? ruled.destination : null)
  const plan = planDestination(f.province, f.postalCode)
  const typed = normalizeUsState(f.province)
  const typedZip = normalizeUsZip(f.postalCode)
  // a ZIP that does not resolve: the typed state is kept for the person who looks (and a re-quote)
  const state = resolved?.state ?? (!typedZip ? typed : null)
  const zip = resolved ? zipText(resolved) : typedZip ? zipText(typedZip) : null
  const attention = (reason: string): DestinationDecision => ({ outcome: "attention", reason, state, zip })
  if (currency !== "USD") return attention(currencyReason(currency || "(none)"))
  if (!resolved) {
    const refused = ruled && !ruled.address ? ruled : null
    if (refused?.reason === "territory") {
      if (!f.charged) return { outcome: "skip", reason: `not filed: destination territory (ZIP ${zip ?? shown(f.postalCode)})` }
      return attention(
        `US shipping address in a territory or APO/FPO ZIP (${zip ?? shown(f.postalCode)}) the service does not tax, but tax was charged`,
      )
    }
    if (plan.kind === "unresolved" && plan.field === "postal_code")
      return attention(`US shipping address whose ZIP does not resolve (${shown(f.postalCode)}): no tax was charged`)
    if (!typed) return attention(`US shipping address whose state does not resolve (${shown(f.province)}): no tax was charged`)
    const why = refused?.detail ?? "not checked at verify-address"
    return attention(`US shipping address whose state (${shown(f.province)}) and ZIP (${zip}) disagree: ${why}`)
  }
  if (!f.charged) {
    const typedNote = f.province && f.province.trim().toUpperCase() !== resolved.state ? `, state typed ${shown(f.province)}` : ""
    return attention(`US shipping address (${resolved.state} ${zip}${typedNote}) but no tax was charged at checkout`)
  }
  return { outcome: "file", state: resolved.state, zip: zip!, source: f.quoted ? f.quoted.source : "order_address" }
}

export function serviceLineItem({ index, itemId, price, quantity, tic, productId }: FilingLine) {
  return { index, itemId, price, quantity, tic, ...(productId ? { productId } : {}) }
}

/** What a re-quote's cart and a direct order share: customer, currency, addresses, certificate. */
const orderParties = (s: FilingSnapshot) => ({
  customerId: s.customerId,
  currency: { currencyCode: s.currencyCode.toUpperCase() },
  origin: s.origin,
  destination: s.destination,
  ...(s.exemptionId ? { exemption: { exemptionId: s.exemptionId } } : {}),
})

/** The service cart that re-quotes an order's lines as charged (cartId = Medusa cart id). */
export function requoteRequest(s: FilingSnapshot): CalculateCartsRequest {
  return { items: [{ cartId: s.cartId ?? undefined, ...orderParties(s), lineItems: s.lines.map(serviceLineItem) }] }
}

export function chargedTotal(lines: FilingLine[]): number {
  return roundCents(sum(lines.map((l) => l.chargedTax)))
}

/** The tax charged against the re-quote: equal only when the same lines match, each to the cent; `difference` = quoted − charged. */
export function compareLines(lines: FilingLine[], quoted: LineItemOut[]) {
  const byId = new Map(quoted.map((q) => [q.itemId, roundCents(q.tax.amount)]))
  const charged = chargedTotal(lines)
  const quotedTotal = roundCents(sum(quoted.map((q) => q.tax.amount)))
  const equal =
    quoted.length === lines.length && lines.every((l) => byId.has(l.itemId) && dec(byId.get(l.itemId)!).eq(roundCents(l.chargedTax)))
  return { equal, chargedTotal: charged, quotedTotal, difference: roundCents(dec(quotedTotal).minus(charged)) }
}

/** Pure: a needs_attention order's snapshot after an admin's re-quote: each line carries the owed tax; throws on a missing line. */
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

/** Pure: an edit of a re-quoted order before its quote: what Medusa charged each line (the collected tax). */
export function requoteOfEdit(lines: FilingLine[]): NonNullable<EditIntent["requote"]> {
  const collected: Record<string, number> = {}
  for (const l of lines) collected[l.itemId] = roundCents(dec(collected[l.itemId] ?? 0).plus(l.chargedTax))
  return { quoted: false, collected }
}

/** Pure: a re-quoted order's figures for `lines` after an edit: owed = their tax, collected = what Medusa charged. */
export function requoteFigures(
  rq: NonNullable<FilingSnapshot["requote"]>,
  lines: FilingLine[],
  collected: Record<string, number> | null | undefined,
): NonNullable<FilingSnapshot["requote"]> {
  const got = collected ? roundCents(sum(lines.map((l) => collected[l.itemId] ?? 0))) : rq.collectedTax
  return { ...rq, owedTax: chargedTotal(lines), collectedTax: got }
}

export function requotesAtFiling(s: Pick<FilingSnapshot, "cartId" | "backfill">, direct: boolean): boolean {
  return !!s.cartId && !direct && !s.backfill
}

export function filedStep(s: Pick<FilingSnapshot, "backfill"> | null | undefined): "filed" | "backfill" {
  return s?.backfill ? "backfill" : "filed"
}

export function completionAtFiling(rec: Pick<FilingRecordDTO, "completion_mode" | "completion_requested_at">, s: FilingSnapshot) {
  if (rec.completion_mode === "placed") return { completed: true, completedDate: s.placedAt }
  if (rec.completion_requested_at) return { completed: true, completedDate: new Date(rec.completion_requested_at).toISOString() }
  return { completed: false }
}

/** The order with the tax charged per line, dated when placed (the "different" path and the fallback path). */
export function directOrderRequest(s: FilingSnapshot, completion: ReturnType<typeof completionAtFiling>): CreateOrderRequest {
  return {
    orderId: s.orderId,
    ...(s.cartId ? { cartId: s.cartId } : {}),
    ...orderParties(s),
    transactionDate: s.placedAt,
    completed: completion.completed,
    completedDate: completion.completed ? (completion.completedDate ?? null) : null,
    lineItems: s.lines.map((l) => ({
      ...serviceLineItem(l),
      tax: { amount: roundCents(l.chargedTax), rate: roundTo(l.chargedRate, 4) },
    })),
    // a refund without a return is a standalone credit (the service stores its amounts negative)
    ...(s.kind === "credit" ? { kind: "credit" as const } : {}),
  }
}

export function orderTaxTotal(order: Pick<OrderRecord, "lineItems">): number {
  return roundCents(sum(order.lineItems.map((l) => l.tax.amount)))
}

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
  const done = refundedQuantities(refunds)
  if (done.size > 0)
    return (rec.snapshot?.lines ?? []).every((l) => dec(done.get(l.itemId) ?? 0).gte(l.quantity)) ? "refunded" : "partially_refunded"
  return rec.completed_at ? "completed" : "filed"
}

/** The tax an item was charged for its whole quantity (Medusa's `tax_total` counts only the units not returned):
 * Σ rate % × taxable, taxable = unit price × quantity − adjustments, ÷ (1 + Σ rates) when the price includes the tax. */
export function fullItemTax(item: {
  unitPrice: DecLike
  quantity: DecLike
  adjustments: DecLike[]
  rates: DecLike[]
  taxInclusive?: boolean
}): string {
  const gross = dec(item.unitPrice).times(item.quantity).minus(sum(item.adjustments))
  const taxable = item.taxInclusive ? gross.div(sum(item.rates.map((r) => dec(r).div(100))).plus(1)) : gross
  return sum(item.rates.map((r) => taxable.times(dec(r).div(100)))).toString()
}
