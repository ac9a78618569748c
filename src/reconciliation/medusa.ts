/**
 * Reconciliation, Medusa side: reads a month's orders (tax per line as charged, returns, claims,
 * exchanges) and the filing records that belong to them, hands both to the pure computation
 * (./compute.ts), and fixes one order through the filing workflows that already exist.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { dec } from "../money"
import { SALES_TAX_FILING_MODULE } from "../modules/sales-tax-filing/types"
import { SHIPPING_ITEM_PREFIX } from "../core/constants"
import { refundsShipping, str } from "../workflows/filing/medusa"
import { listManualRefunds } from "../workflows/filing/handlers"
import {
  claimCreatedFilingWorkflow,
  exchangeCreatedFilingWorkflow,
  fileRefundAsCreditWorkflow,
  orderEditedFilingWorkflow,
  retryFilingWorkflow,
  returnReceivedFilingWorkflow,
  syncOrderFilingWorkflow,
} from "../workflows/filing/workflows"
import {
  cents,
  fullItemTax,
  monthRange,
  reconcileMonth,
  reconcileOrder,
  recordsByOrder,
  type CustomerRefund,
  type MonthReport,
  type OrderFacts,
  type OrderRow,
  type RecordFacts,
} from "./compute"

type Query = { graph: (q: Record<string, unknown>) => Promise<{ data: any[] }> }
type RecordLister = {
  listFilingRecords(filters: Record<string, unknown>, config: Record<string, unknown>): Promise<Record<string, unknown>[]>
}

const query = (c: MedusaContainer) => c.resolve(ContainerRegistrationKeys.QUERY) as unknown as Query
const PAGE = 500

/** Medusa computes line totals (tax_total) only when order totals are asked for, with the lines' tax lines and adjustments. */
const ORDER_FIELDS = [
  "id",
  "display_id",
  "created_at",
  "canceled_at",
  "status",
  "currency_code",
  "tax_total",
  "total",
  "items.*",
  "items.tax_lines.*",
  "items.adjustments.*",
  "items.tax_total",
  "shipping_methods.*",
  "shipping_methods.tax_lines.*",
  "shipping_methods.adjustments.*",
  "shipping_methods.tax_total",
  "payment_collections.payments.refunds.id",
]

const qty = (v: unknown) => dec(str(v)).toNumber()

/** An order item's tax for its whole quantity (its tax_total is for what was not returned). */
export function chargedItemTax(i: any): string {
  return fullItemTax({
    unitPrice: str(i.unit_price),
    quantity: str(i.quantity),
    adjustments: (i.adjustments ?? []).map((a: any) => str(a.amount)),
    rates: (i.tax_lines ?? []).map((t: any) => str(t.rate)),
    taxInclusive: !!i.is_tax_inclusive,
  })
}

/** A claim's claimed units: its return's items, else its claim items (the live filing's reading, `loadClaim`). */
const claimedItems = (c: any): any[] => (c.return?.items?.length ? c.return.items : c.claim_items) ?? []

/** Medusa facts of `ids`: lines as charged and what was refunded to the customer. */
export async function loadOrderFacts(container: MedusaContainer, ids: string[]): Promise<OrderFacts[]> {
  if (!ids.length) return []
  const q = query(container)
  const [{ data: orders }, { data: returns }, { data: claims }, { data: exchanges }] = await Promise.all([
    q.graph({ entity: "order", fields: ORDER_FIELDS, filters: { id: ids } }),
    q.graph({
      entity: "return",
      fields: [
        "id",
        "order_id",
        "claim_id",
        "exchange_id",
        "canceled_at",
        "received_at",
        "metadata",
        "items.item_id",
        "items.received_quantity",
      ],
      filters: { order_id: ids },
    }),
    q.graph({
      entity: "order_claim",
      // additional_items.* (Medusa 2.21's Query answers additional_items.item_id alone with no items); the claimed
      // units are the claim's return items, else its claim items (as the live filing reads them: loadClaim)
      fields: [
        "id",
        "order_id",
        "type",
        "canceled_at",
        "created_at",
        "claim_items.item_id",
        "claim_items.quantity",
        "additional_items.*",
        "return.items.item_id",
        "return.items.quantity",
      ],
      filters: { order_id: ids },
    }),
    q.graph({
      entity: "order_exchange",
      fields: ["id", "order_id", "canceled_at", "created_at", "return.items.item_id", "return.items.quantity"],
      filters: { order_id: ids },
    }),
  ])
  // refunds without a return, for the orders that have any payment refund (the filing's own reading)
  const manual = new Map<string, { refundId: string; taxCents: number }[]>()
  for (const o of orders) {
    const refunded = (o.payment_collections ?? []).some((pc: any) => (pc.payments ?? []).some((p: any) => (p.refunds ?? []).length))
    if (!refunded) continue
    const list = await listManualRefunds(container, o.id)
    manual.set(
      o.id,
      list.map((m) => ({ refundId: m.refundId, taxCents: cents(m.tax) })),
    )
  }
  return orders.map((o): OrderFacts => {
    const mine = <T extends { order_id: string; canceled_at?: unknown }>(xs: T[]) => xs.filter((x) => x.order_id === o.id && !x.canceled_at)
    // a claim's replacement items are given, not sold: no tax charged to the customer for them
    const replacement = new Set(mine(claims).flatMap((c: any) => (c.additional_items ?? []).map((i: any) => i.item_id)))
    const itemTax = new Map<string, { cents: number; qty: number }>(
      (o.items ?? []).map((i: any) => [i.id, { cents: cents(chargedItemTax(i)), qty: qty(i.quantity) }]),
    )
    // what the customer pays for a replace claim's replacement: its tax minus the claimed units' tax, never below 0
    const claimLines = mine(claims)
      .filter((c: any) => c.type === "replace")
      .map((c: any) => {
        const repl = (c.additional_items ?? []).reduce((t: number, i: any) => t + (itemTax.get(i.item_id)?.cents ?? 0), 0)
        const claimed = claimedItems(c).reduce((t: number, i: any) => {
          const l = itemTax.get(i.item_id)
          return t + (l && l.qty > 0 ? cents(dec(l.cents).times(qty(i.quantity)).div(l.qty).div(100).toString()) : 0)
        }, 0)
        return { id: `claim:${c.id}`, taxCents: Math.max(0, repl - claimed), quantity: 1 }
      })
    const orderShipping = (o.shipping_methods ?? [])
      .filter(
        (m: any) =>
          !(m.detail?.claim_id ?? m.claim_id) && !(m.detail?.return_id ?? m.return_id) && !(m.detail?.exchange_id ?? m.exchange_id),
      )
      .map((m: any) => `${SHIPPING_ITEM_PREFIX}${m.id}`)
    const lines = [
      ...(o.items ?? [])
        .filter((i: any) => !replacement.has(i.id))
        .map((i: any) => ({ id: i.id, taxCents: itemTax.get(i.id)!.cents, quantity: qty(i.quantity) })),
      ...claimLines,
      ...(o.shipping_methods ?? [])
        .filter((s: any) => !(s.detail?.claim_id ?? s.claim_id) && !(s.detail?.return_id ?? s.return_id))
        .map((s: any) => ({ id: `${SHIPPING_ITEM_PREFIX}${s.id}`, taxCents: cents(str(s.tax_total)), quantity: 1 })),
    ]
    const refunds: CustomerRefund[] = [
      ...mine(returns)
        .filter((r: any) => !r.claim_id && !r.exchange_id)
        .map((r: any) => ({
          key: r.id,
          at: r.received_at ? new Date(r.received_at).toISOString() : null,
          items: [
            ...(r.items ?? []).map((i: any) => ({ itemId: i.item_id, quantity: qty(i.received_quantity) })),
            // a return that refunds shipping (metadata refund_shipping) gives the shipping's tax back too
            ...(refundsShipping(r.metadata) ? orderShipping.map((id: string) => ({ itemId: id, quantity: 1 })) : []),
          ],
        })),
      ...mine(claims)
        .filter((c: any) => c.type === "refund")
        .map((c: any) => ({
          key: c.id,
          at: new Date(c.created_at).toISOString(),
          items: claimedItems(c).map((i: any) => ({ itemId: i.item_id, quantity: qty(i.quantity) })),
        })),
      ...mine(exchanges).map((x: any) => ({
        key: x.id,
        at: new Date(x.created_at).toISOString(),
        items: (x.return?.items ?? []).map((i: any) => ({ itemId: i.item_id, quantity: qty(i.quantity) })),
      })),
    ]
    return {
      orderId: o.id,
      manualRefunds: manual.get(o.id) ?? [],
      displayId: o.display_id ?? null,
      createdAt: new Date(o.created_at).toISOString(),
      canceled: Boolean(o.canceled_at) || o.status === "canceled",
      lines,
      refunds,
    }
  })
}

function recordFacts(r: Record<string, any>): RecordFacts {
  return {
    orderId: r.order_id,
    kind: r.kind,
    parentOrderId: r.parent_order_id ?? null,
    state: r.state,
    filed: Boolean(r.filed_at),
    filedCents: Math.abs(cents(str(r.filed_tax))),
    voided: Boolean(r.voided_at) || r.state === "voided",
    lastError: r.last_error ?? null,
    refunds: (r.refunds ?? []).map((x: any) => ({
      key: x.idempotency_key,
      state: x.state,
      refundedCents: Math.abs(cents(str(x.refunded_tax))),
    })),
  }
}

/** The filing records of `orderIds` and of their children (exchange, edit, claim, credit records). */
export async function loadRecordFacts(container: MedusaContainer, orderIds: string[]): Promise<RecordFacts[]> {
  if (!orderIds.length) return []
  const svc = container.resolve(SALES_TAX_FILING_MODULE) as unknown as RecordLister
  const cfg = { relations: ["refunds"], take: null }
  const [own, children] = await Promise.all([
    svc.listFilingRecords({ order_id: orderIds }, cfg),
    svc.listFilingRecords({ parent_order_id: orderIds }, cfg),
  ])
  const seen = new Set<string>()
  return [...own, ...children].filter((r) => (seen.has(r.id as string) ? false : (seen.add(r.id as string), true))).map(recordFacts)
}

/** The month's report (orders placed in the month, UTC). */
export async function monthReport(container: MedusaContainer, month: string): Promise<MonthReport> {
  const { from, to } = monthRange(month)
  const q = query(container)
  const orders: OrderFacts[] = []
  const records: RecordFacts[] = []
  for (let skip = 0; ; skip += PAGE) {
    const { data } = await q.graph({
      entity: "order",
      fields: ["id"],
      filters: { created_at: { $gte: from.toISOString(), $lt: to.toISOString() } },
      pagination: { skip, take: PAGE, order: { created_at: "ASC", id: "ASC" } },
    })
    const ids = data.map((o) => o.id as string)
    if (!ids.length) break
    const [o, r] = await Promise.all([loadOrderFacts(container, ids), loadRecordFacts(container, ids)])
    orders.push(...o)
    records.push(...r)
    if (ids.length < PAGE) break
  }
  return reconcileMonth(month, orders, records)
}

/** One order's row (after a fix). Null when Medusa has no such order. */
export async function orderRow(container: MedusaContainer, orderId: string): Promise<OrderRow | null> {
  const [o] = await loadOrderFacts(container, [orderId])
  if (!o) return null
  const records = await loadRecordFacts(container, [orderId])
  return reconcileOrder(o, recordsByOrder(records).get(orderId) ?? [])
}

/**
 * The one-click fix: runs the existing filing workflows for the order, each idempotent (keys and
 * ids from Medusa ids): sync (file if never filed, completion, cancellation), the order's
 * confirmed edits not filed yet, the refund of
 * every received return, claim and exchange (a refund already at the service is replayed by its
 * key), each refund without a return not filed yet as a credit, and a retry of every failed or
 * pending record of the order and its children.
 */
export async function fixOrder(container: MedusaContainer, orderId: string): Promise<void> {
  const q = query(container)
  await syncOrderFilingWorkflow(container).run({ input: { orderId } })
  // confirmed order edits the record does not list yet
  await orderEditedFilingWorkflow(container).run({ input: { orderId } })
  const [{ data: returns }, { data: claims }, { data: exchanges }] = await Promise.all([
    q.graph({ entity: "return", fields: ["id", "claim_id", "exchange_id", "canceled_at", "received_at"], filters: { order_id: orderId } }),
    q.graph({ entity: "order_claim", fields: ["id", "canceled_at"], filters: { order_id: orderId } }),
    q.graph({ entity: "order_exchange", fields: ["id", "canceled_at"], filters: { order_id: orderId } }),
  ])
  for (const r of returns) {
    if (!r.canceled_at && r.received_at && !r.claim_id && !r.exchange_id) {
      await returnReceivedFilingWorkflow(container).run({ input: { returnId: r.id } })
    }
  }
  for (const c of claims) if (!c.canceled_at) await claimCreatedFilingWorkflow(container).run({ input: { claimId: c.id } })
  for (const x of exchanges) if (!x.canceled_at) await exchangeCreatedFilingWorkflow(container).run({ input: { exchangeId: x.id } })
  // refunds without a return not filed yet: as standalone credits (the order widget's "File as credit")
  for (const m of await listManualRefunds(container, orderId)) {
    if (m.filing === null && m.tax > 0) await fileRefundAsCreditWorkflow(container).run({ input: { orderId, refundId: m.refundId } })
  }
  for (const r of await loadRecordFacts(container, [orderId])) {
    if (r.state === "failed" || (!r.filed && !r.voided && r.state !== "skipped")) {
      await retryFilingWorkflow(container).run({ input: { orderId: r.orderId } })
    }
  }
}
