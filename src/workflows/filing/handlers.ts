/**
 * What each Medusa event does to filing. Every handler first makes sure the order's record exists
 * (so an event that arrives before, or instead of, order.placed still files the order), then
 * records its intent and processes the record under the order's lock.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SALES_TAX_FILING_MODULE, type FilingRecordDTO, type FilingStore, type CompletionMode } from "../../modules/sales-tax-filing/types"
import {
  buildSnapshot,
  claimRefund,
  claimedTax,
  completionInstant,
  exchangeRefund,
  filingProcessor,
  getPluginOptions,
  loadClaim,
  loadExchange,
  loadOrder,
  orderRecordInput,
  returnRefund,
  str,
  type RefundTarget,
} from "./medusa"
import { newRecordFor, type FilingClient, type ProcessOutcome } from "./processor"
import { chargedTotal, childOrderId, refundTaxPart, replacementCharge } from "./decisions"
import { roundCents, dec } from "../../money"
import type { FilingSnapshot } from "../../modules/sales-tax-filing/types"

export interface HandlerDeps {
  client?: FilingClient
  now?: () => Date
}

export interface FilingResult {
  orderId: string
  state: string | null
  lastError?: string | null
}

const result = (orderId: string, rec: FilingRecordDTO | null): FilingResult => ({
  orderId,
  state: rec?.state ?? null,
  lastError: rec?.last_error ?? null,
})

/** Files the order and brings completion and cancellation in line with what Medusa holds. */
export async function syncOrder(container: MedusaContainer, orderId: string, deps: HandlerDeps = {}): Promise<FilingResult> {
  const options = getPluginOptions(container)
  const p = filingProcessor(container, deps)
  const { record, order } = await orderRecordInput(container, orderId, options)
  let rec = await p.fileOrder(record)
  const mode = options.completionMode as CompletionMode
  if (mode !== "placed") {
    const at = completionInstant(order, mode)
    if (at) rec = await p.completeOrder(record, at)
  }
  if (order.canceled_at || order.status === "canceled") {
    rec = await p.cancelOrder(record, new Date(order.canceled_at ?? Date.now()))
  }
  return result(orderId, rec)
}

async function refundTarget(container: MedusaContainer, target: RefundTarget | null, deps: HandlerDeps): Promise<FilingResult | null> {
  if (!target) return null
  const options = getPluginOptions(container)
  const p = filingProcessor(container, deps)
  const { record } = await orderRecordInput(container, target.orderId, options)
  await p.fileOrder(record)
  return result(target.orderId, await p.refund(record, target.intent))
}

/**
 * A received return: exactly the received items are refunded, each on the record that holds it
 * (the order's own, an edit's, an exchange's or a claim's order; key = return id, or
 * `<return id>:<record order id>` on another record than the order's). The exchanges and claims
 * whose new items come back are filed first if they are not yet.
 */
export async function onReturnReceived(container: MedusaContainer, returnId: string, deps: HandlerDeps = {}): Promise<FilingResult | null> {
  const target = await returnRefund(container, returnId)
  if (!target || target.intent.source !== "return") return refundTarget(container, target, deps)
  const order = await loadOrder(container, target.orderId)
  const returned = new Set(target.intent.items.map((i) => i.itemId))
  for (const x of order?.exchanges ?? []) {
    if ((x.additional_items ?? []).some((i: any) => returned.has(i.item_id))) await onExchangeCreated(container, x.id, deps)
  }
  for (const c of order?.claims ?? []) {
    if ((c.additional_items ?? []).some((i: any) => returned.has(i.item_id))) await onClaimCreated(container, c.id, deps)
  }
  return refundTarget(container, target, deps)
}

/**
 * A claim by its type. `refund`: the claimed units' tax is refunded (key = claim id). `replace`:
 * nothing is refunded for the claimed units, and the replacement is filed as an order of its own
 * (orderId = claim id) for what the customer pays: its tax minus the claimed units' tax; nothing
 * is filed when that is 0 (a like-for-like replacement).
 */
export async function onClaimCreated(container: MedusaContainer, claimId: string, deps: HandlerDeps = {}): Promise<FilingResult | null> {
  const c = await loadClaim(container, claimId)
  if (!c) return null
  if (c.type === "refund") return claimRefund(container, claimId).then((t) => refundTarget(container, t, deps))
  const options = getPluginOptions(container)
  const p = filingProcessor(container, deps)
  const { record, order } = await orderRecordInput(container, c.order_id, options)
  await p.fileOrder(record)
  if (!c.additionalItemIds.length) return result(c.order_id, await filingStore(container).findRecord(c.order_id))
  const { snapshot, reason } = await buildSnapshot(container, order, options, { kind: "claim", claimId, itemIds: c.additionalItemIds })
  const id = childOrderId(claimId)
  let snap: FilingSnapshot | null = snapshot
  let why = reason
  if (snapshot) {
    const items = snapshot.lines.filter((l) => l.kind === "item")
    const shipping = snapshot.lines.filter((l) => l.kind === "shipping")
    const credit = claimedTax(order, c.claimed)
    const paid = [...replacementCharge(items, credit), ...shipping].map((l, index) => ({ ...l, index }))
    const replacementTax = chargedTotal(items)
    snap = {
      ...snapshot,
      placedAt: new Date(c.created_at).toISOString(),
      lines: paid,
      claim: { type: "replace", replacementTax, claimedTax: credit, chargedTax: chargedTotal(paid) },
    }
    if (!paid.length || chargedTotal(paid) === 0) {
      snap = null
      why = `not filed: the replacement costs the customer no tax (replacement ${replacementTax.toFixed(2)}, claimed items ${credit.toFixed(2)})`
    }
  }
  const rec = await p.fileOrder({ ...newRecordFor(id, snap, "placed", new Date(), why), kind: "claim", parent_order_id: c.order_id })
  return result(id, rec)
}

/**
 * order-edit.confirmed: every confirmed edit of the order not filed yet is filed against the
 * order's lines as Medusa charges them now (see FilingProcessor.editOrder).
 */
export async function onOrderEdited(container: MedusaContainer, orderId: string, deps: HandlerDeps = {}): Promise<FilingResult | null> {
  const options = getPluginOptions(container)
  const p = filingProcessor(container, deps)
  const { record } = await orderRecordInput(container, orderId, options)
  if (!record.snapshot) return result(orderId, await p.fileOrder(record))
  await p.fileOrder(record)
  const q = container.resolve(ContainerRegistrationKeys.QUERY) as unknown as { graph(q: unknown): Promise<{ data: any[] }> }
  const { data: changes } = await q.graph({
    entity: "order_change",
    fields: ["id", "change_type", "status", "confirmed_at"],
    filters: { order_id: orderId, change_type: "edit", status: "confirmed" },
  })
  let rec: FilingRecordDTO | null = null
  for (const ch of [...changes].sort((a, b) => new Date(a.confirmed_at).getTime() - new Date(b.confirmed_at).getTime())) {
    rec = await p.editOrder(record, { id: ch.id, at: new Date(ch.confirmed_at ?? Date.now()), lines: record.snapshot.lines })
  }
  return result(orderId, rec ?? (await filingStore(container).findRecord(orderId)))
}

function filingStore(container: MedusaContainer): FilingStore {
  return container.resolve(SALES_TAX_FILING_MODULE) as unknown as FilingStore
}

/** An exchange: its returned items are refunded (key = exchange id), its new items filed as an order of their own (orderId = exchange id). */
export async function onExchangeCreated(container: MedusaContainer, exchangeId: string, deps: HandlerDeps = {}): Promise<FilingResult[]> {
  const out: FilingResult[] = []
  const refunded = await refundTarget(container, await exchangeRefund(container, exchangeId), deps)
  if (refunded) out.push(refunded)
  const x = await loadExchange(container, exchangeId)
  if (!x) return out
  const itemIds = (x.additional_items ?? []).map((i: any) => i.item_id)
  if (!itemIds.length) return out
  const options = getPluginOptions(container)
  const order = await loadOrder(container, x.order_id)
  const { snapshot, reason } = await buildSnapshot(container, order, options, { kind: "exchange", exchangeId, itemIds })
  if (snapshot) snapshot.placedAt = new Date(x.created_at).toISOString()
  const rec = await filingProcessor(container, deps).fileOrder({
    ...newRecordFor(exchangeId, snapshot, "placed", new Date(), reason),
  })
  out.push(result(exchangeId, rec))
  return out
}

export async function onPaymentCaptured(
  container: MedusaContainer,
  paymentId: string,
  deps: HandlerDeps = {},
): Promise<FilingResult | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY) as unknown as { graph(q: unknown): Promise<{ data: any[] }> }
  const { data } = await query.graph({ entity: "payment", fields: ["id", "payment_collection.order.id"], filters: { id: paymentId } })
  const orderId = data[0]?.payment_collection?.order?.id
  return orderId ? syncOrder(container, orderId, deps) : null
}

export async function retryFiling(container: MedusaContainer, orderId: string, deps: HandlerDeps = {}): Promise<FilingResult> {
  return result(orderId, await filingProcessor(container, deps).retry(orderId))
}

export async function processDueFilings(container: MedusaContainer, limit = 100, deps: HandlerDeps = {}): Promise<ProcessOutcome[]> {
  return filingProcessor(container, deps).processDue(limit)
}

// ---------------------------------------------------------------------------------------------
// Refunds without a return: filed as standalone credits (kind "credit")
// ---------------------------------------------------------------------------------------------

export interface ManualRefund {
  refundId: string
  paymentId: string
  createdAt: string
  /** the refund's whole amount */
  amount: number
  /** the part of it not covered by returned items (what the customer got back without returning anything) */
  unreturned: number
  /** the tax in that part: unreturned × order tax ÷ order total before credit lines, to the cent */
  tax: number
  /** the credit's orderId at the service */
  creditId: string
  /** state of the credit's filing record, null when not filed */
  filing: string | null
}

/**
 * Pure: which part of each refund (oldest first) is not paid back for returned items. The value
 * of what came back (received returns, refund claims) is owed to the customer and uses up the
 * refunds first; what is left of a refund after that is a refund without a return.
 */
export function unreturnedParts(refunds: { id: string; amount: number }[], owed: number): Map<string, number> {
  let pool = dec(Math.max(0, owed))
  const out = new Map<string, number>()
  for (const r of refunds) {
    const a = dec(r.amount)
    const covered = pool.gt(a) ? a : pool
    pool = pool.minus(covered)
    out.set(r.id, roundCents(a.minus(covered)))
  }
  return out
}

export function creditOrderId(refundId: string): string {
  return childOrderId(`credit_${refundId}`)
}

/** The order's refunds and which of them (in part) came without a return. */
export async function listManualRefunds(container: MedusaContainer, orderId: string): Promise<ManualRefund[]> {
  const q = container.resolve(ContainerRegistrationKeys.QUERY) as unknown as { graph(q: unknown): Promise<{ data: any[] }> }
  const [
    {
      data: [order],
    },
    { data: returns },
    { data: claims },
  ] = await Promise.all([
    q.graph({
      entity: "order",
      fields: [
        "id",
        "tax_total",
        "total",
        "credit_line_total",
        "items.id",
        "items.quantity",
        "items.total",
        "payment_collections.payments.id",
        "payment_collections.payments.refunds.id",
        "payment_collections.payments.refunds.amount",
        "payment_collections.payments.refunds.created_at",
      ],
      filters: { id: orderId },
    }),
    q.graph({
      entity: "return",
      fields: ["id", "claim_id", "exchange_id", "items.item_id", "items.received_quantity"],
      filters: { order_id: orderId },
    }),
    q.graph({
      entity: "order_claim",
      fields: ["id", "type", "canceled_at", "return.items.item_id", "return.items.quantity", "claim_items.item_id", "claim_items.quantity"],
      filters: { order_id: orderId },
    }),
  ])
  if (!order) return []
  const unit = (itemId: string) => {
    const it = (order.items ?? []).find((i: any) => i.id === itemId)
    const qn = it ? dec(str(it.quantity)) : dec(0)
    return it && qn.gt(0) ? dec(str(it.total)).div(qn) : dec(0)
  }
  let owed = dec(0)
  for (const r of returns) {
    if (r.claim_id || r.exchange_id) continue
    for (const i of r.items ?? []) owed = owed.plus(unit(i.item_id).times(str(i.received_quantity)))
  }
  for (const c of claims) {
    if (c.canceled_at || c.type !== "refund") continue
    const list = (c.return?.items?.length ? c.return.items : c.claim_items) ?? []
    for (const i of list) owed = owed.plus(unit(i.item_id).times(str(i.quantity)))
  }
  const refunds = (order.payment_collections ?? [])
    .flatMap((pc: any) =>
      (pc.payments ?? []).flatMap((p: any) =>
        (p.refunds ?? []).map((r: any) => ({
          id: r.id as string,
          paymentId: p.id as string,
          amount: dec(str(r.amount)).toNumber(),
          createdAt: new Date(r.created_at).toISOString(),
        })),
      ),
    )
    .sort((a: { createdAt: string }, b: { createdAt: string }) => a.createdAt.localeCompare(b.createdAt))
  const parts = unreturnedParts(refunds, owed.toNumber())
  const tax = dec(str(order.tax_total)).toNumber()
  // Medusa 2.21 books a refund beyond what the order owes as an order credit line, which lowers
  // `total` by the refund: the tax part is taken of the total before credit lines, so it does not
  // depend on the refunds made so far
  const total = dec(str(order.total)).plus(str(order.credit_line_total)).toNumber()
  const store = filingStore(container)
  const out: ManualRefund[] = []
  for (const r of refunds) {
    const unreturned = parts.get(r.id) ?? 0
    if (!(unreturned > 0)) continue
    const creditId = creditOrderId(r.id)
    const rec = await store.findRecord(creditId)
    out.push({
      refundId: r.id,
      paymentId: r.paymentId,
      createdAt: r.createdAt,
      amount: r.amount,
      unreturned,
      tax: refundTaxPart(unreturned, tax, total),
      creditId,
      filing: rec?.state ?? null,
    })
  }
  return out
}

/** Files one refund without a return as a standalone credit (orderId = `credit_<refund id>`). */
export async function fileRefundAsCredit(
  container: MedusaContainer,
  orderId: string,
  refundId: string,
  deps: HandlerDeps = {},
): Promise<FilingResult | null> {
  const refund = (await listManualRefunds(container, orderId)).find((r) => r.refundId === refundId)
  if (!refund) return null
  const options = getPluginOptions(container)
  const { record } = await orderRecordInput(container, orderId, options)
  if (!record.snapshot) return result(refund.creditId, null)
  const base = record.snapshot
  const snapshot: FilingSnapshot = {
    ...base,
    orderId: refund.creditId,
    kind: "credit",
    parentOrderId: orderId,
    cartId: null,
    placedAt: refund.createdAt,
    exemptionId: base.exemptionId ?? null,
    lines: [
      {
        index: 0,
        itemId: `refund:${refund.refundId}`,
        kind: "item",
        price: roundCents(dec(refund.unreturned).minus(refund.tax)),
        quantity: 1,
        tic: options.defaultTic,
        chargedTax: refund.tax,
        chargedRate:
          refund.unreturned - refund.tax > 0 ? Number(dec(refund.tax).div(dec(refund.unreturned).minus(refund.tax)).toFixed(4)) : 0,
        fallback: false,
      },
    ],
    credit: { refundId: refund.refundId, amount: refund.unreturned },
  }
  const rec = await filingProcessor(container, deps).fileOrder({
    ...newRecordFor(refund.creditId, snapshot, "placed", new Date()),
    kind: "credit",
    parent_order_id: orderId,
  })
  return result(refund.creditId, rec)
}

/** payment.refunded: with `manualRefunds: "credit"`, each refund without a return is filed as a credit at once. */
export async function onPaymentRefunded(container: MedusaContainer, paymentId: string, deps: HandlerDeps = {}): Promise<FilingResult[]> {
  const options = getPluginOptions(container)
  if (options.manualRefunds !== "credit") return []
  const q = container.resolve(ContainerRegistrationKeys.QUERY) as unknown as { graph(q: unknown): Promise<{ data: any[] }> }
  const { data } = await q.graph({ entity: "payment", fields: ["id", "payment_collection.order.id"], filters: { id: paymentId } })
  const orderId = data[0]?.payment_collection?.order?.id
  if (!orderId) return []
  const out: FilingResult[] = []
  for (const r of await listManualRefunds(container, orderId)) {
    if (r.paymentId !== paymentId || r.filing) continue
    const res = await fileRefundAsCredit(container, orderId, r.refundId, deps)
    if (res) out.push(res)
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// The lost-event sweep
// ---------------------------------------------------------------------------------------------

export interface SweepOutcome {
  checked: number
  broughtInLine: string[]
}

/**
 * Pure: the Medusa facts about an order that move tax (received returns, claims, exchanges,
 * confirmed edits, the cancellation) that its filing records do not show yet. Empty: in line.
 */
export function missingFacts(
  facts: {
    returns: string[]
    claims: string[]
    exchanges: string[]
    edits: string[]
    canceled: boolean
    /** exchanges with returned items (they need their refund) and with new items (they need their own record); when
     *  given, each is checked on its own, so an exchange whose refund went through but whose new items were never
     *  filed (the handler died between the two) is found */
    exchangeRefunds?: string[]
    exchangeOrders?: string[]
  },
  rec: FilingRecordDTO | null,
  children: FilingRecordDTO[],
): string[] {
  if (!rec) return ["no filing record"]
  if (rec.state === "skipped") return []
  const keys = new Set([rec, ...children].flatMap((r) => (r.refunds ?? []).map((x) => x.source_id)))
  const kids = new Set(children.map((c) => c.order_id))
  const edits = new Set((rec.edits ?? []).map((e) => e.id))
  const out: string[] = []
  if (facts.canceled && !rec.cancel_requested_at) out.push("cancellation")
  for (const r of facts.returns) if (!keys.has(r)) out.push(r)
  for (const c of facts.claims) if (!keys.has(c) && !kids.has(childOrderId(c))) out.push(c)
  for (const x of facts.exchanges) {
    const known = facts.exchangeRefunds !== undefined && facts.exchangeOrders !== undefined
    const missing = known
      ? (facts.exchangeRefunds!.includes(x) && !keys.has(x)) || (facts.exchangeOrders!.includes(x) && !kids.has(x))
      : !keys.has(x) && !kids.has(x)
    if (missing) out.push(x)
  }
  for (const e of facts.edits) if (!edits.has(e)) out.push(e)
  return out
}

/**
 * The sweep: orders placed in the last `days` days that have no filing record, or whose records
 * miss a Medusa fact (with `manualRefunds: "credit"`: also a refund without a return not filed as
 * a credit yet), are brought in line through the same handlers the subscriber runs (every
 * step keyed by Medusa ids, so a sweep racing a late event files nothing twice).
 */
export async function sweepOrders(
  container: MedusaContainer,
  opts: { days?: number; now?: Date; batch?: number } = {},
  deps: HandlerDeps = {},
): Promise<SweepOutcome> {
  const options = getPluginOptions(container)
  const days = opts.days ?? options.sweep.days
  const since = new Date((opts.now ?? new Date()).getTime() - days * 86_400_000)
  const q = container.resolve(ContainerRegistrationKeys.QUERY) as unknown as { graph(q: unknown): Promise<{ data: any[] }> }
  const store = filingStore(container)
  const batch = opts.batch ?? 200
  const out: SweepOutcome = { checked: 0, broughtInLine: [] }
  for (let skip = 0; ; skip += batch) {
    const { data: orders } = await q.graph({
      entity: "order",
      fields: ["id", "canceled_at", "status"],
      filters: { created_at: { $gte: since } },
      pagination: { skip, take: batch, order: { created_at: "ASC" } },
    })
    if (!orders.length) break
    const ids = orders.map((o) => o.id)
    const credits = options.manualRefunds === "credit"
    const [{ data: returns }, { data: claims }, { data: exchanges }, { data: edits }, { data: paid }] = await Promise.all([
      q.graph({ entity: "return", fields: ["id", "order_id", "received_at", "claim_id", "exchange_id"], filters: { order_id: ids } }),
      q.graph({ entity: "order_claim", fields: ["id", "order_id", "canceled_at"], filters: { order_id: ids } }),
      q.graph({
        entity: "order_exchange",
        fields: ["id", "order_id", "canceled_at", "additional_items.*", "return.items.item_id", "return.items.quantity"],
        filters: { order_id: ids },
      }),
      q.graph({ entity: "order_change", fields: ["id", "order_id"], filters: { order_id: ids, change_type: "edit", status: "confirmed" } }),
      // with manualRefunds "credit", a refund without a return whose payment.refunded was lost is filed too
      credits
        ? q.graph({ entity: "order", fields: ["id", "payment_collections.payments.refunds.id"], filters: { id: ids } })
        : Promise.resolve({ data: [] as any[] }),
    ])
    const refunded = new Set(
      paid
        .filter((o) => (o.payment_collections ?? []).some((pc: any) => (pc.payments ?? []).some((p: any) => (p.refunds ?? []).length)))
        .map((o) => o.id),
    )
    for (const o of orders) {
      out.checked++
      const facts = {
        returns: returns.filter((r) => r.order_id === o.id && r.received_at && !r.claim_id && !r.exchange_id).map((r) => r.id),
        claims: claims.filter((c) => c.order_id === o.id && !c.canceled_at).map((c) => c.id),
        exchanges: exchanges.filter((x) => x.order_id === o.id && !x.canceled_at).map((x) => x.id),
        exchangeRefunds: exchanges
          .filter((x) => x.order_id === o.id && !x.canceled_at && (x.return?.items ?? []).some((i: any) => dec(str(i.quantity)).gt(0)))
          .map((x) => x.id),
        exchangeOrders: exchanges
          .filter((x) => x.order_id === o.id && !x.canceled_at && (x.additional_items ?? []).length > 0)
          .map((x) => x.id),
        edits: edits.filter((e) => e.order_id === o.id).map((e) => e.id),
        canceled: Boolean(o.canceled_at) || o.status === "canceled",
      }
      const rec = await store.findRecord(o.id)
      const missing = missingFacts(facts, rec, rec ? await store.listChildren(o.id) : [])
      const unfiledCredits = refunded.has(o.id) ? (await listManualRefunds(container, o.id)).filter((r) => !r.filing) : []
      if (!missing.length && !unfiledCredits.length) continue
      await syncOrder(container, o.id, deps)
      if (facts.edits.length) await onOrderEdited(container, o.id, deps)
      for (const id of facts.returns) await onReturnReceived(container, id, deps)
      for (const id of facts.claims) await onClaimCreated(container, id, deps)
      for (const id of facts.exchanges) await onExchangeCreated(container, id, deps)
      for (const r of unfiledCredits) await fileRefundAsCredit(container, o.id, r.refundId, deps)
      out.broughtInLine.push(o.id)
    }
    if (orders.length < batch) break
  }
  return out
}
