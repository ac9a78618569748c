/** Reconciliation, Medusa side: a month's orders (tax per line as charged, returns, claims, exchanges) and their filing records
 * for ./compute.ts; the fix of one order through the filing handlers. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { dec } from "../../../packages/contract/src/money"
import { amountString } from "../../money/amount"
import type { FilingSnapshot, RecordRow } from "../../modules/sales-tax-filing/types"
import { filingStore } from "../processor-factory"
import { chargedTotal } from "../decisions"
import { SHIPPING_ITEM_PREFIX } from "../../constants"
import { claimedTax } from "../events/changes"
import { wholeItemCharge } from "../snapshot"
import { listManualRefunds } from "../events/credits"
import { bringInLine, orderFacts } from "../events/sweep"
import { retryFiling } from "../events/orders"
import {
  claimedItems,
  hasPaymentRefunds,
  ownShipping,
  ownShippingIds,
  quantityOf,
  refundItems,
  returnedItems,
  shippingLink,
  type OrderRow,
} from "../order-rows"
import { orderPages, readOrderParts, readOrders } from "../order-reader"
import { cents, monthRange, sumCents } from "./amounts"
import { reconcileMonth, reconcileOrder, type MonthReport, type OrderRow as ReconciledRow } from "./compute"
import type { CustomerRefund, OrderFacts, RecordFacts } from "./compute"

const PAGE = 500

const isoOf = (d: Date | string) => new Date(d).toISOString()

/** Medusa facts of `ids`: lines as charged (each item's whole quantity) and what was refunded to the customer. */
export async function loadOrderFacts(container: MedusaContainer, ids: string[]): Promise<OrderFacts[]> {
  if (!ids.length) return []
  const orders = await readOrders(container, ids)
  // refunds without a return, for the orders that have any payment refund (the filing's own reading)
  const manual = new Map<string, { refundId: string; taxCents: number }[]>()
  for (const o of orders.filter(hasPaymentRefunds)) {
    const refunds = (await listManualRefunds(container, o.id)).map((m) => ({ refundId: m.refundId, taxCents: cents(m.tax) }))
    manual.set(o.id, refunds)
  }
  return orders.map((o): OrderFacts => {
    const mine = <T extends { canceled_at?: Date | string | null }>(xs: T[] | null | undefined) => (xs ?? []).filter((x) => !x.canceled_at)
    const claims = mine(o.claims)
    // a claim's replacement items are given, not sold; a replace claim charges its replacement's tax less the claimed units'
    const replacement = new Set(claims.flatMap((c) => (c.additional_items ?? []).map((i) => i.item_id)))
    const itemCents = new Map((o.items ?? []).map((i) => [i.id, cents(wholeItemCharge(i).tax)]))
    const claimLines = claims
      .filter((c) => c.type === "replace")
      .map((c) => {
        const repl = sumCents((c.additional_items ?? []).map((i) => itemCents.get(i.item_id) ?? 0))
        return { id: `claim:${c.id}`, taxCents: Math.max(0, repl - cents(claimedTax(o, claimedItems(c)))), quantity: 1 }
      })
    const lines = [
      ...(o.items ?? [])
        .filter((i) => !replacement.has(i.id))
        .map((i) => ({ id: i.id, taxCents: itemCents.get(i.id)!, quantity: quantityOf(i.quantity) })),
      ...claimLines,
      ...(o.shipping_methods ?? [])
        .filter((s) => !shippingLink(s, "claim_id") && !shippingLink(s, "return_id"))
        .map((s) => ({ id: `${SHIPPING_ITEM_PREFIX}${s.id}`, taxCents: cents(amountString(s.tax_total)), quantity: 1 })),
    ]
    const shipping = ownShippingIds(o.shipping_methods)
    const refunds: CustomerRefund[] = [
      ...mine(o.returns)
        .filter((r) => !r.claim_id && !r.exchange_id)
        .map((r) => ({ key: r.id, at: r.received_at ? isoOf(r.received_at) : null, items: returnedItems(r, shipping) })),
      ...claims.filter((c) => c.type === "refund").map((c) => ({ key: c.id, at: isoOf(c.created_at), items: claimedItems(c) })),
      ...mine(o.exchanges).map((x) => ({ key: x.id, at: isoOf(x.created_at), items: refundItems(x.return?.items) })),
    ]
    return {
      orderId: o.id,
      manualRefunds: manual.get(o.id) ?? [],
      ...attentionFacts(o),
      displayId: o.display_id ?? null,
      createdAt: isoOf(o.created_at),
      canceled: Boolean(o.canceled_at) || o.status === "canceled",
      lines,
      refunds,
    }
  })
}

/** Pure: what the separate lines read of an order: a US address, its currency, whether the provider charged it, and what it
 * sold before tax (less adjustments; tax-inclusive prices as shown). */
export function attentionFacts(o: Pick<OrderRow, "shipping_address" | "currency_code" | "items" | "shipping_methods">) {
  const minus = (xs: { amount?: unknown }[] | null | undefined) => (xs ?? []).reduce((t, a) => t.plus(amountString(a.amount)), dec(0))
  const items = (o.items ?? []).map((i) => dec(amountString(i.unit_price)).times(amountString(i.quantity)).minus(minus(i.adjustments)))
  const shipping = (o.shipping_methods ?? []).filter(ownShipping).map((m) => dec(amountString(m.amount ?? 0)).minus(minus(m.adjustments)))
  const lines = [...(o.items ?? []), ...(o.shipping_methods ?? [])]
  return {
    usAddress: (o.shipping_address?.country_code ?? "").toLowerCase() === "us",
    currencyCode: (o.currency_code ?? "usd").toLowerCase(),
    taxed: lines.some((l) => (l.tax_lines ?? []).length > 0),
    salesCents: cents([...items, ...shipping].reduce((t, x) => t.plus(x), dec(0)).toString()),
  }
}

function recordFacts(r: RecordRow): RecordFacts {
  const snapshot = r.snapshot as FilingSnapshot | null
  return {
    orderId: r.order_id,
    kind: r.kind,
    parentOrderId: r.parent_order_id ?? null,
    state: r.state,
    filed: Boolean(r.filed_at),
    filedCents: Math.abs(cents(amountString(r.filed_tax))),
    voided: Boolean(r.voided_at) || r.state === "voided",
    lastError: r.last_error ?? null,
    requoted: Boolean(snapshot?.requote),
    linesCents: snapshot?.lines ? cents(chargedTotal(snapshot.lines)) : null,
    owedCents: typeof snapshot?.requote?.owedTax === "number" ? cents(snapshot.requote.owedTax) : null,
    refunds: (r.refunds ?? []).map((x) => ({
      key: x.idempotency_key,
      state: x.state,
      refundedCents: Math.abs(cents(amountString(x.refunded_tax))),
    })),
  }
}

/** The filing records of `orderIds` and of their children (exchange, edit, claim, credit records). */
export async function loadRecordFacts(container: MedusaContainer, orderIds: string[]): Promise<RecordFacts[]> {
  if (!orderIds.length) return []
  const svc = filingStore(container)
  const cfg = { relations: ["refunds"], take: null }
  const [own, children] = await Promise.all([
    svc.listFilingRecords({ order_id: orderIds }, cfg),
    svc.listFilingRecords({ parent_order_id: orderIds }, cfg),
  ])
  return [...new Map([...own, ...children].map((r) => [r.id, r])).values()].map(recordFacts)
}

/** The month's report (orders placed in the month, UTC). */
export async function monthReport(container: MedusaContainer, month: string): Promise<MonthReport> {
  const { from, to } = monthRange(month)
  const orders: OrderFacts[] = []
  const records: RecordFacts[] = []
  for await (const page of orderPages(container, { created_at: { $gte: from.toISOString(), $lt: to.toISOString() } }, PAGE)) {
    const ids = page.map((o) => o.id)
    const [o, r] = await Promise.all([loadOrderFacts(container, ids), loadRecordFacts(container, ids)])
    orders.push(...o)
    records.push(...r)
  }
  return reconcileMonth(month, orders, records)
}

/** One order's row (after a fix). Null when Medusa has no such order. */
export async function orderRow(container: MedusaContainer, orderId: string): Promise<ReconciledRow | null> {
  const [o] = await loadOrderFacts(container, [orderId])
  if (!o) return null
  // its own record and its children's (parent_order_id): all of them the order's
  return reconcileOrder(o, await loadRecordFacts(container, [orderId]))
}

/** The one-click fix: the order's filing handlers again, each idempotent (sync, edits, returns, claims, exchanges, refunds
 * without a return as credits), then a retry of every failed or pending record of the order. */
export async function fixOrder(container: MedusaContainer, orderId: string): Promise<void> {
  // refunds without a return not filed yet: as standalone credits (the order widget's "File as credit")
  const credits = (await listManualRefunds(container, orderId)).filter((m) => m.filing === null && m.tax > 0).map((m) => m.refundId)
  await bringInLine(container, orderId, { ...orderFacts(orderId, await readOrderParts(container, [orderId])), edits: true }, credits)
  for (const r of await loadRecordFacts(container, [orderId])) {
    // a needs_attention record waits for a person (the order widget's re-quote), not for a retry
    if (r.state === "failed" || (!r.filed && !r.voided && r.state !== "skipped" && r.state !== "needs_attention")) {
      await retryFiling(container, r.orderId)
    }
  }
}
