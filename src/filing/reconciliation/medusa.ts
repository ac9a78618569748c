/**
 * Reconciliation, Medusa side: reads a month's orders (tax per line as charged, returns, claims,
 * exchanges) and the filing records that belong to them, hands both to the pure computation
 * (./compute.ts), and fixes one order through the filing handlers.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { amountString, dec } from "../../money"
import { SALES_TAX_FILING_MODULE, type FilingSnapshot } from "../../modules/sales-tax-filing/types"
import { chargedTotal } from "../decisions"
import type SalesTaxFilingModuleService from "../../modules/sales-tax-filing/service"
import { SHIPPING_ITEM_PREFIX } from "../../constants"
import { graph } from "../../query"
import { refundsShipping } from "../refund-targets"
import { fileRefundAsCredit, listManualRefunds } from "../events/credits"
import type { ChangeItemRow, ClaimRow, OrderItemRow, OrderRow, ShippingLinks, ShippingMethodRow } from "../order-rows"
import { readOrderParts, readOrders } from "../order-reader"
import { onOrderEdited, retryFiling, syncOrder } from "../events/orders"
import { onClaimCreated, onExchangeCreated, onReturnReceived } from "../events/changes"
import { cents, monthRange } from "./amounts"
import { fullItemTax } from "../decisions"
import { reconcileMonth, reconcileOrder, recordsByOrder } from "./compute"
import type { CustomerRefund, MonthReport, OrderFacts, OrderRow as ReconciledRow, RecordFacts } from "./types"

const PAGE = 500

/** Query's rows, as the order reader reads them (../order-reader.ts). */
type Day = Date | string
type ItemRow = OrderItemRow
type ShippingRow = ShippingMethodRow
type FilingRecordRow = Awaited<ReturnType<SalesTaxFilingModuleService["listFilingRecords"]>>[number]

const shippingLink = (m: ShippingRow, k: keyof ShippingLinks): string | null => m.detail?.[k] ?? m[k] ?? null

const qty = (v: unknown) => dec(amountString(v)).toNumber()

/** An order item's tax for its whole quantity (its tax_total is for what was not returned). */
export function chargedItemTax(i: ItemRow): string {
  return fullItemTax({
    unitPrice: amountString(i.unit_price),
    quantity: amountString(i.quantity),
    adjustments: (i.adjustments ?? []).map((a) => amountString(a.amount)),
    rates: (i.tax_lines ?? []).map((t) => amountString(t.rate)),
    taxInclusive: !!i.is_tax_inclusive,
  })
}

/** A claim's claimed units: its return's items, else its claim items (the live filing's reading, `loadClaim`). */
const claimedItems = (c: ClaimRow): ChangeItemRow[] => (c.return?.items?.length ? c.return.items : c.claim_items) ?? []

/** Medusa facts of `ids`: lines as charged and what was refunded to the customer. */
export async function loadOrderFacts(container: MedusaContainer, ids: string[]): Promise<OrderFacts[]> {
  if (!ids.length) return []
  const orders = await readOrders(container, ids)
  // refunds without a return, for the orders that have any payment refund (the filing's own reading)
  const manual = new Map<string, { refundId: string; taxCents: number }[]>()
  for (const o of orders) {
    const refunded = (o.payment_collections ?? []).some((pc) => (pc.payments ?? []).some((p) => (p.refunds ?? []).length))
    if (!refunded) continue
    const list = await listManualRefunds(container, o.id)
    manual.set(
      o.id,
      list.map((m) => ({ refundId: m.refundId, taxCents: cents(m.tax) })),
    )
  }
  return orders.map((o): OrderFacts => {
    const mine = <T extends { canceled_at?: Day | null }>(xs: T[] | null | undefined) => (xs ?? []).filter((x) => !x.canceled_at)
    const { returns, claims, exchanges } = o
    // a claim's replacement items are given, not sold: no tax charged to the customer for them
    const replacement = new Set(mine(claims).flatMap((c) => (c.additional_items ?? []).map((i) => i.item_id)))
    const itemTax = new Map<string, { cents: number; qty: number }>(
      (o.items ?? []).map((i) => [i.id, { cents: cents(chargedItemTax(i)), qty: qty(i.quantity) }]),
    )
    // what the customer pays for a replace claim's replacement: its tax minus the claimed units' tax, never below 0
    const claimLines = mine(claims)
      .filter((c) => c.type === "replace")
      .map((c) => {
        const repl = (c.additional_items ?? []).reduce((t, i) => t + (itemTax.get(i.item_id)?.cents ?? 0), 0)
        const claimed = claimedItems(c).reduce((t, i) => {
          const l = itemTax.get(i.item_id)
          return t + (l && l.qty > 0 ? cents(dec(l.cents).times(qty(i.quantity)).div(l.qty).div(100).toString()) : 0)
        }, 0)
        return { id: `claim:${c.id}`, taxCents: Math.max(0, repl - claimed), quantity: 1 }
      })
    const orderShipping = (o.shipping_methods ?? [])
      .filter((m) => !shippingLink(m, "claim_id") && !shippingLink(m, "return_id") && !shippingLink(m, "exchange_id"))
      .map((m) => `${SHIPPING_ITEM_PREFIX}${m.id}`)
    const lines = [
      ...(o.items ?? [])
        .filter((i) => !replacement.has(i.id))
        .map((i) => ({ id: i.id, taxCents: itemTax.get(i.id)!.cents, quantity: qty(i.quantity) })),
      ...claimLines,
      ...(o.shipping_methods ?? [])
        .filter((s) => !shippingLink(s, "claim_id") && !shippingLink(s, "return_id"))
        .map((s) => ({ id: `${SHIPPING_ITEM_PREFIX}${s.id}`, taxCents: cents(amountString(s.tax_total)), quantity: 1 })),
    ]
    const refunds: CustomerRefund[] = [
      ...mine(returns)
        .filter((r) => !r.claim_id && !r.exchange_id)
        .map((r) => ({
          key: r.id,
          at: r.received_at ? new Date(r.received_at).toISOString() : null,
          items: [
            ...(r.items ?? []).map((i) => ({ itemId: i.item_id, quantity: qty(i.received_quantity) })),
            // a return that refunds shipping (metadata refund_shipping) gives the shipping's tax back too
            ...(refundsShipping(r.metadata) ? orderShipping.map((id) => ({ itemId: id, quantity: 1 })) : []),
          ],
        })),
      ...mine(claims)
        .filter((c) => c.type === "refund")
        .map((c) => ({
          key: c.id,
          at: new Date(c.created_at).toISOString(),
          items: claimedItems(c).map((i) => ({ itemId: i.item_id, quantity: qty(i.quantity) })),
        })),
      ...mine(exchanges).map((x) => ({
        key: x.id,
        at: new Date(x.created_at).toISOString(),
        items: (x.return?.items ?? []).map((i) => ({ itemId: i.item_id, quantity: qty(i.quantity) })),
      })),
    ]
    return {
      orderId: o.id,
      manualRefunds: manual.get(o.id) ?? [],
      ...attentionFacts(o),
      displayId: o.display_id ?? null,
      createdAt: new Date(o.created_at).toISOString(),
      canceled: Boolean(o.canceled_at) || o.status === "canceled",
      lines,
      refunds,
    }
  })
}

/**
 * Pure: what the separate lines read of an order: a US shipping address, its currency, whether the
 * provider charged it, and what it sold before tax (less adjustments; tax-inclusive prices as shown).
 */
export function attentionFacts(o: Pick<OrderRow, "shipping_address" | "currency_code" | "items" | "shipping_methods">) {
  const minus = (xs: { amount?: unknown }[] | null | undefined) => (xs ?? []).reduce((t, a) => t.plus(amountString(a.amount)), dec(0))
  const items = (o.items ?? []).map((i) => dec(amountString(i.unit_price)).times(amountString(i.quantity)).minus(minus(i.adjustments)))
  const shipping = (o.shipping_methods ?? [])
    .filter((m) => !shippingLink(m, "claim_id") && !shippingLink(m, "return_id") && !shippingLink(m, "exchange_id"))
    .map((m) => dec(amountString(m.amount ?? 0)).minus(minus(m.adjustments)))
  const lines = [...(o.items ?? []), ...(o.shipping_methods ?? [])]
  return {
    usAddress: (o.shipping_address?.country_code ?? "").toLowerCase() === "us",
    currencyCode: (o.currency_code ?? "usd").toLowerCase(),
    taxed: lines.some((l) => (l.tax_lines ?? []).length > 0),
    salesCents: cents([...items, ...shipping].reduce((t, x) => t.plus(x), dec(0)).toString()),
  }
}

function recordFacts(r: FilingRecordRow): RecordFacts {
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
  const svc = container.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE)
  const cfg = { relations: ["refunds"], take: null }
  const [own, children] = await Promise.all([
    svc.listFilingRecords({ order_id: orderIds }, cfg),
    svc.listFilingRecords({ parent_order_id: orderIds }, cfg),
  ])
  const seen = new Set<string>()
  return [...own, ...children].filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true))).map(recordFacts)
}

/** The month's report (orders placed in the month, UTC). */
export async function monthReport(container: MedusaContainer, month: string): Promise<MonthReport> {
  const { from, to } = monthRange(month)
  const orders: OrderFacts[] = []
  const records: RecordFacts[] = []
  for (let skip = 0; ; skip += PAGE) {
    const data = await graph<{ id: string }>(container, {
      entity: "order",
      fields: ["id"],
      filters: { created_at: { $gte: from.toISOString(), $lt: to.toISOString() } },
      pagination: { skip, take: PAGE, order: { created_at: "ASC", id: "ASC" } },
    })
    const ids = data.map((o) => o.id)
    if (!ids.length) break
    const [o, r] = await Promise.all([loadOrderFacts(container, ids), loadRecordFacts(container, ids)])
    orders.push(...o)
    records.push(...r)
    if (ids.length < PAGE) break
  }
  return reconcileMonth(month, orders, records)
}

/** One order's row (after a fix). Null when Medusa has no such order. */
export async function orderRow(container: MedusaContainer, orderId: string): Promise<ReconciledRow | null> {
  const [o] = await loadOrderFacts(container, [orderId])
  if (!o) return null
  const records = await loadRecordFacts(container, [orderId])
  return reconcileOrder(o, recordsByOrder(records).get(orderId) ?? [])
}

/**
 * The one-click fix: runs the order's filing workflows again, each idempotent: sync, unfiled
 * confirmed edits, the refund of every received return, claim and exchange, unfiled refunds
 * without a return as credits, and a retry of every failed or pending record of the order.
 */
export async function fixOrder(container: MedusaContainer, orderId: string): Promise<void> {
  await syncOrder(container, orderId)
  // confirmed order edits the record does not list yet
  await onOrderEdited(container, orderId)
  const { returns, claims, exchanges } = await readOrderParts(container, [orderId])
  for (const r of returns) {
    if (!r.canceled_at && r.received_at && !r.claim_id && !r.exchange_id) {
      await onReturnReceived(container, r.id)
    }
  }
  for (const c of claims) if (!c.canceled_at) await onClaimCreated(container, c.id)
  for (const x of exchanges) if (!x.canceled_at) await onExchangeCreated(container, x.id)
  // refunds without a return not filed yet: as standalone credits (the order widget's "File as credit")
  for (const m of await listManualRefunds(container, orderId)) {
    if (m.filing === null && m.tax > 0) await fileRefundAsCredit(container, orderId, m.refundId)
  }
  for (const r of await loadRecordFacts(container, [orderId])) {
    // a needs_attention record waits for a person (the order widget's re-quote), not for a retry
    if (r.state === "failed" || (!r.filed && !r.voided && r.state !== "skipped" && r.state !== "needs_attention")) {
      await retryFiling(container, r.orderId)
    }
  }
}
