/**
 * Reconciliation, Medusa side: reads a month's orders (tax per line as charged, returns, claims,
 * exchanges) and the filing records that belong to them, hands both to the pure computation
 * (./compute.ts), and fixes one order through the filing workflows that already exist.
 */
import type { BigNumberValue, MedusaContainer } from "@medusajs/framework/types"
import { amountString, dec } from "../../money"
import { SALES_TAX_FILING_MODULE } from "../../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../../modules/sales-tax-filing/service"
import { SHIPPING_ITEM_PREFIX } from "../../constants"
import { graph } from "../../query"
import { refundsShipping } from "../medusa"
import { listManualRefunds } from "../handlers"
import { RETURN_FIELDS } from "../order-rows"
import {
  claimCreatedFilingWorkflow,
  exchangeCreatedFilingWorkflow,
  fileRefundAsCreditWorkflow,
  orderEditedFilingWorkflow,
  retryFilingWorkflow,
  returnReceivedFilingWorkflow,
  syncOrderFilingWorkflow,
} from "../../workflows/filing/workflows"
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

const PAGE = 500

/** Query's rows, as the fields below ask for them (src/query.ts). */
type Day = Date | string
interface QuantityRow {
  item_id: string
  quantity: BigNumberValue
}
interface ItemRow {
  id: string
  unit_price: BigNumberValue
  quantity: BigNumberValue
  is_tax_inclusive?: boolean | null
  adjustments?: { amount: BigNumberValue }[] | null
  tax_lines?: { rate: BigNumberValue }[] | null
}
/** The claim / return / exchange a shipping method belongs to: on the method, or on its order detail. */
interface ShippingLinks {
  claim_id?: string | null
  return_id?: string | null
  exchange_id?: string | null
}
interface ShippingRow extends ShippingLinks {
  id: string
  amount?: BigNumberValue | null
  tax_lines?: { rate: BigNumberValue }[] | null
  adjustments?: { amount: BigNumberValue }[] | null
  tax_total?: BigNumberValue | null
  detail?: ShippingLinks | null
}
interface OrderRowFields {
  id: string
  display_id?: number | null
  created_at: Day
  canceled_at?: Day | null
  status?: string | null
  currency_code?: string | null
  shipping_address?: { country_code?: string | null } | null
  items?: ItemRow[] | null
  shipping_methods?: ShippingRow[] | null
  payment_collections?: { payments?: { refunds?: { id: string }[] | null }[] | null }[] | null
}
interface ReturnFields {
  id: string
  order_id: string
  claim_id?: string | null
  exchange_id?: string | null
  canceled_at?: Day | null
  received_at?: Day | null
  metadata?: Record<string, unknown> | null
  items?: { item_id: string; received_quantity: BigNumberValue }[] | null
}
interface ClaimFields {
  id: string
  order_id: string
  type: string
  canceled_at?: Day | null
  created_at: Day
  claim_items?: QuantityRow[] | null
  additional_items?: { item_id: string }[] | null
  return?: { items?: QuantityRow[] | null } | null
}
interface ExchangeFields {
  id: string
  order_id: string
  canceled_at?: Day | null
  created_at: Day
  return?: { items?: QuantityRow[] | null } | null
}
type FilingRecordRow = Awaited<ReturnType<SalesTaxFilingModuleService["listFilingRecords"]>>[number]

const shippingLink = (m: ShippingRow, k: keyof ShippingLinks): string | null => m.detail?.[k] ?? m[k] ?? null

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
  "shipping_address.country_code",
]

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
const claimedItems = (c: ClaimFields): QuantityRow[] => (c.return?.items?.length ? c.return.items : c.claim_items) ?? []

/** Medusa facts of `ids`: lines as charged and what was refunded to the customer. */
export async function loadOrderFacts(container: MedusaContainer, ids: string[]): Promise<OrderFacts[]> {
  if (!ids.length) return []
  const [orders, returns, claims, exchanges] = await Promise.all([
    graph<OrderRowFields>(container, { entity: "order", fields: ORDER_FIELDS, filters: { id: ids } }),
    graph<ReturnFields>(container, {
      entity: "return",
      fields: RETURN_FIELDS,
      filters: { order_id: ids },
    }),
    graph<ClaimFields>(container, {
      entity: "order_claim",
      // additional_items.* (Medusa's Query (2.19-2.21) answers additional_items.item_id alone with no items); the claimed
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
    graph<ExchangeFields>(container, {
      entity: "order_exchange",
      fields: ["id", "order_id", "canceled_at", "created_at", "return.items.item_id", "return.items.quantity"],
      filters: { order_id: ids },
    }),
  ])
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
    const mine = <T extends { order_id: string; canceled_at?: Day | null }>(xs: T[]) =>
      xs.filter((x) => x.order_id === o.id && !x.canceled_at)
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
 * Pure: what the separate lines read of an order (issue 26, 27): a US shipping address, its
 * currency, whether the provider charged it (a tax line on some line), and what it sold before
 * tax (items at price × quantity less adjustments, shipping less adjustments; a tax-inclusive
 * price as shown, which for an order without tax is the same).
 */
export function attentionFacts(o: Pick<OrderRowFields, "shipping_address" | "currency_code" | "items" | "shipping_methods">) {
  const minus = (xs: { amount: BigNumberValue }[] | null | undefined) => (xs ?? []).reduce((t, a) => t.plus(amountString(a.amount)), dec(0))
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
  return {
    orderId: r.order_id,
    kind: r.kind,
    parentOrderId: r.parent_order_id ?? null,
    state: r.state,
    filed: Boolean(r.filed_at),
    filedCents: Math.abs(cents(amountString(r.filed_tax))),
    voided: Boolean(r.voided_at) || r.state === "voided",
    lastError: r.last_error ?? null,
    requoted: Boolean((r.snapshot as { requote?: unknown } | null)?.requote),
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
  await syncOrderFilingWorkflow(container).run({ input: { orderId } })
  // confirmed order edits the record does not list yet
  await orderEditedFilingWorkflow(container).run({ input: { orderId } })
  type Part = { id: string; canceled_at?: Day | null }
  const [returns, claims, exchanges] = await Promise.all([
    graph<Part & Pick<ReturnFields, "claim_id" | "exchange_id" | "received_at">>(container, {
      entity: "return",
      fields: ["id", "claim_id", "exchange_id", "canceled_at", "received_at"],
      filters: { order_id: orderId },
    }),
    graph<Part>(container, { entity: "order_claim", fields: ["id", "canceled_at"], filters: { order_id: orderId } }),
    graph<Part>(container, { entity: "order_exchange", fields: ["id", "canceled_at"], filters: { order_id: orderId } }),
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
    // a needs_attention record waits for a person (the order widget's re-quote), not for a retry
    if (r.state === "failed" || (!r.filed && !r.voided && r.state !== "skipped" && r.state !== "needs_attention")) {
      await retryFilingWorkflow(container).run({ input: { orderId: r.orderId } })
    }
  }
}
