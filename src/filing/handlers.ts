/**
 * What each Medusa event does to filing. Every handler first makes sure the order's record exists
 * (so an event that arrives before, or instead of, order.placed still files the order), then
 * records its intent and processes the record under the order's lock.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  SALES_TAX_FILING_MODULE,
  type FilingRecordDTO,
  type FilingStore,
  type CompletionMode,
  type NewRecord,
} from "../modules/sales-tax-filing/types"
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
  splitByOrigin,
  type RefundTarget,
} from "./medusa"
import { newRecordFor, type FilingClient, type ProcessOutcome } from "./processor"
import { chargedTotal, childOrderId, replacementCharge } from "./decisions"
import { creditTax, refundCreditParts } from "./refunds"
import { REFUND_TRANSACTION_REFERENCE, creditLineVersion } from "../medusa/refund-credit-lines"
import { amountString, roundCents, dec } from "../money"
import type { FilingLine, FilingSnapshot } from "../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../modules/sales-tax-filing/service"
import { graph } from "../query"
import type { ChangeItemRow } from "./order-rows"

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

/** The reason a record was skipped with, before issue 26, for a US address whose state or ZIP did not resolve. */
export const UNRESOLVED_SKIP = /^not filed: destination no_(state|zip)$/

/**
 * A record skipped before issue 26 for a US address whose state or ZIP did not resolve becomes
 * what filing decides now (needs_attention: no tax was charged). Any other record is left as is.
 */
async function reassessSkipped(container: MedusaContainer, record: NewRecord): Promise<void> {
  if (record.state !== "needs_attention") return
  const store = filingStore(container)
  const rec = await store.findRecord(record.order_id)
  if (!rec || rec.state !== "skipped" || rec.filed_at || !UNRESOLVED_SKIP.test(rec.last_error ?? "")) return
  await store.patchRecord(rec.id, {
    state: record.state,
    snapshot: record.snapshot,
    charged_tax: record.charged_tax,
    cart_id: record.cart_id,
    customer_id: record.customer_id,
    last_error: record.last_error ?? null,
    next_attempt_at: null,
  })
}

/** Files the order and brings completion and cancellation in line with what Medusa holds. */
export async function syncOrder(container: MedusaContainer, orderId: string, deps: HandlerDeps = {}): Promise<FilingResult> {
  const options = getPluginOptions(container)
  const p = filingProcessor(container, deps)
  const { record, order } = await orderRecordInput(container, orderId, options)
  await reassessSkipped(container, record)
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
    if ((x.additional_items ?? []).some((i) => returned.has(i.item_id))) await onExchangeCreated(container, x.id, deps)
  }
  for (const c of order?.claims ?? []) {
    if ((c.additional_items ?? []).some((i) => returned.has(i.item_id))) await onClaimCreated(container, c.id, deps)
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
  const { snapshot, reason, originOf, attention } = await buildSnapshot(container, order, options, {
    kind: "claim",
    claimId,
    itemIds: c.additionalItemIds,
  })
  const id = childOrderId(claimId)
  let snap: FilingSnapshot | null = snapshot
  let why = reason
  let attn = !!attention
  let others: FilingSnapshot[] = []
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
      attn = false
      why = `not filed: the replacement costs the customer no tax (replacement ${replacementTax.toFixed(2)}, claimed items ${credit.toFixed(2)})`
    } else if (originOf && !attn) {
      // replacements shipping from several locations: one service order per origin (`<claim order id>~<8 hex>`)
      const claimOf = (lines: FilingLine[]) => ({ ...snap!.claim!, chargedTax: chargedTotal(lines) })
      const [primary, ...rest] = splitByOrigin(snap, originOf)
      snap = { ...primary!, claim: claimOf(primary!.lines) }
      others = rest.map((r) => ({ ...r, claim: claimOf(r.lines) }))
    }
  }
  const rec = await p.fileOrder({
    ...newRecordFor(id, snap, "placed", new Date(), why, attn),
    kind: "claim",
    parent_order_id: c.order_id,
    ...(others.length ? { origin_siblings: others.map((o) => newRecordFor(o.orderId, o, "placed", new Date())) } : {}),
  })
  return result(id, rec)
}

/**
 * order-edit.confirmed: every confirmed edit of the order not filed yet is filed against the
 * order's lines as Medusa charges them now (see FilingProcessor.editOrder).
 */
export async function onOrderEdited(container: MedusaContainer, orderId: string, deps: HandlerDeps = {}): Promise<FilingResult | null> {
  const options = getPluginOptions(container)
  const p = filingProcessor(container, deps)
  const { record, lines, origins } = await orderRecordInput(container, orderId, options)
  if (!record.snapshot || record.state === "needs_attention") return result(orderId, await p.fileOrder(record))
  await p.fileOrder(record)
  const changes = await graph<{ id: string; confirmed_at?: string | Date | null }>(container, {
    entity: "order_change",
    fields: ["id", "change_type", "status", "confirmed_at"],
    filters: { order_id: orderId, change_type: "edit", status: "confirmed" },
  })
  let rec: FilingRecordDTO | null = null
  const at = (ch: { confirmed_at?: string | Date | null }) => new Date(ch.confirmed_at ?? 0).getTime()
  for (const ch of [...changes].sort((a, b) => at(a) - at(b))) {
    // every origin's lines (an order shipped from several is filed as one service order per origin)
    rec = await p.editOrder(record, { id: ch.id, at: new Date(ch.confirmed_at ?? Date.now()), lines, origins })
  }
  return result(orderId, rec ?? (await filingStore(container).findRecord(orderId)))
}

function filingStore(container: MedusaContainer): FilingStore {
  return container.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE)
}

/** An exchange: its returned items are refunded (key = exchange id), its new items filed as an order of their own (orderId = exchange id). */
export async function onExchangeCreated(container: MedusaContainer, exchangeId: string, deps: HandlerDeps = {}): Promise<FilingResult[]> {
  const out: FilingResult[] = []
  const refunded = await refundTarget(container, await exchangeRefund(container, exchangeId), deps)
  if (refunded) out.push(refunded)
  const x = await loadExchange(container, exchangeId)
  if (!x) return out
  const itemIds = (x.additional_items ?? []).map((i) => i.item_id)
  if (!itemIds.length) return out
  const options = getPluginOptions(container)
  const order = await loadOrder(container, x.order_id)
  if (!order) throw new Error(`order ${x.order_id} of exchange ${exchangeId} not found`)
  const { snapshot, reason, siblings, attention } = await buildSnapshot(container, order, options, {
    kind: "exchange",
    exchangeId,
    itemIds,
  })
  const placedAt = new Date(x.created_at).toISOString()
  if (snapshot) snapshot.placedAt = placedAt
  // new items shipping from several locations: one service order per origin (`<exchange id>~<8 hex>`)
  const others = (siblings ?? []).map((s) => newRecordFor(s.orderId, { ...s, placedAt }, "placed", new Date()))
  const rec = await filingProcessor(container, deps).fileOrder({
    ...newRecordFor(exchangeId, snapshot, "placed", new Date(), reason, attention),
    ...(others.length ? { origin_siblings: others } : {}),
  })
  out.push(result(exchangeId, rec))
  return out
}

export async function onPaymentCaptured(
  container: MedusaContainer,
  paymentId: string,
  deps: HandlerDeps = {},
): Promise<FilingResult | null> {
  const orderId = await paymentOrderId(container, paymentId)
  return orderId ? syncOrder(container, orderId, deps) : null
}

/** The order of a payment (its payment collection's). */
async function paymentOrderId(container: MedusaContainer, paymentId: string): Promise<string | undefined> {
  const [payment] = await graph<{ id: string; payment_collection?: { order?: { id: string } | null } | null }>(container, {
    entity: "payment",
    fields: ["id", "payment_collection.order.id"],
    filters: { id: paymentId },
  })
  return payment?.payment_collection?.order?.id
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
  /** the part of it Medusa booked as a credit line when it was made (what the customer got back without returning anything) */
  unreturned: number
  /** the tax in that part: unreturned × order tax ÷ order total before credit lines, to the cent; once filed, the tax filed */
  tax: number
  /** the credit's orderId at the service */
  creditId: string
  /** state of the credit's filing record, null when not filed */
  filing: string | null
}

export function creditOrderId(refundId: string): string {
  return childOrderId(`credit_${refundId}`)
}

/**
 * The order's refunds and which of them (in part) came without a return: the part Medusa booked as
 * a credit line when the refund was made (see ./refunds.ts). Decided once per refund, so a return
 * after a refund without a return never turns the filed credit into a double: that return is owed
 * (and filed) in full, as Medusa owes it.
 */
/** An order's refunds and credit lines as listManualRefunds reads them. */
interface RefundedOrderRow {
  id: string
  tax_total?: unknown
  total?: unknown
  credit_line_total?: unknown
  credit_lines?:
    | { id: string; amount?: unknown; reference?: string | null; version?: unknown; metadata?: { created_in_version?: unknown } | null }[]
    | null
  transactions?: { reference?: string | null; reference_id?: string | null; version?: unknown }[] | null
  payment_collections?:
    | {
        payments?:
          | {
              id: string
              refunds?:
                { id: string; amount?: unknown; created_at: string | Date; refund_reason?: { label?: string | null } | null }[] | null
            }[]
          | null
      }[]
    | null
}

export async function listManualRefunds(container: MedusaContainer, orderId: string): Promise<ManualRefund[]> {
  const [order] = await graph<RefundedOrderRow>(container, {
    entity: "order",
    fields: [
      "id",
      "tax_total",
      "total",
      "credit_line_total",
      "credit_lines.id",
      "credit_lines.amount",
      "credit_lines.reference",
      "credit_lines.version",
      "credit_lines.metadata",
      "transactions.reference",
      "transactions.reference_id",
      "transactions.version",
      "payment_collections.payments.id",
      "payment_collections.payments.refunds.id",
      "payment_collections.payments.refunds.amount",
      "payment_collections.payments.refunds.created_at",
      "payment_collections.payments.refunds.refund_reason.label",
    ],
    filters: { id: orderId },
  })
  if (!order) return []
  // the order version each refund was made in (its transaction's)
  const versionOf = new Map<string, number>(
    (order.transactions ?? [])
      .filter((t) => t.reference === REFUND_TRANSACTION_REFERENCE)
      .map((t) => [t.reference_id ?? "", Number(t.version ?? 0)]),
  )
  const refunds = (order.payment_collections ?? [])
    .flatMap((pc) =>
      (pc.payments ?? []).flatMap((p) =>
        (p.refunds ?? []).map((r) => ({
          id: r.id,
          paymentId: p.id,
          amount: dec(amountString(r.amount)).toNumber(),
          createdAt: new Date(r.created_at).toISOString(),
          version: versionOf.get(r.id) ?? null,
          reasonLabel: r.refund_reason?.label ?? null,
        })),
      ),
    )
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  const parts = refundCreditParts(
    refunds,
    (order.credit_lines ?? []).map((cl) => ({
      id: cl.id,
      amount: dec(amountString(cl.amount)).toNumber(),
      // Medusa copies credit lines into each new order version; created_in_version is where it was made
      version: creditLineVersion(cl),
      reference: cl.reference ?? null,
    })),
  )
  const tax = dec(amountString(order.tax_total)).toNumber()
  // Medusa books a refund beyond what the order owes as an order credit line (src/medusa/refund-credit-lines.ts), which lowers
  // `total` by the refund: the tax part is taken of the total before credit lines, so it does not
  // depend on the refunds made so far
  const total = dec(amountString(order.total)).plus(amountString(order.credit_line_total)).toNumber()
  const store = filingStore(container)
  const out: ManualRefund[] = []
  for (const r of refunds) {
    const unreturned = parts.get(r.id) ?? 0
    if (!(unreturned > 0)) continue
    const creditId = creditOrderId(r.id)
    const rec = await store.findRecord(creditId)
    // once filed, the credit's tax is what was filed (later returns and edits change the order's tax, not this refund)
    const filedTax = rec?.snapshot?.lines[0]?.chargedTax
    out.push({
      refundId: r.id,
      paymentId: r.paymentId,
      createdAt: r.createdAt,
      amount: r.amount,
      unreturned,
      tax: creditTax(unreturned, tax, total, rec && typeof filedTax === "number" ? Math.abs(filedTax) : null),
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
  const orderId = await paymentOrderId(container, paymentId)
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
  // a record left for a person waits for the person (the re-quote files the order as Medusa holds it then)
  if (rec.state === "needs_attention") return facts.canceled && !rec.cancel_requested_at ? ["cancellation"] : []
  // skipped before issue 26 for a US address whose state or ZIP did not resolve: looked at again
  if (rec.state === "skipped") return UNRESOLVED_SKIP.test(rec.last_error ?? "") && !facts.canceled ? ["destination"] : []
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
  const store = filingStore(container)
  const batch = opts.batch ?? 200
  const out: SweepOutcome = { checked: 0, broughtInLine: [] }
  for (let skip = 0; ; skip += batch) {
    const orders = await graph<{ id: string; canceled_at?: string | Date | null; status?: string | null }>(container, {
      entity: "order",
      fields: ["id", "canceled_at", "status"],
      filters: { created_at: { $gte: since } },
      pagination: { skip, take: batch, order: { created_at: "ASC" } },
    })
    if (!orders.length) break
    const ids = orders.map((o) => o.id)
    const credits = options.manualRefunds === "credit"
    type Row = { id: string; order_id: string; canceled_at?: string | Date | null }
    const [returns, claims, exchanges, edits, paid] = await Promise.all([
      graph<Row & { received_at?: string | Date | null; claim_id?: string | null; exchange_id?: string | null }>(container, {
        entity: "return",
        fields: ["id", "order_id", "received_at", "claim_id", "exchange_id"],
        filters: { order_id: ids },
      }),
      graph<Row>(container, { entity: "order_claim", fields: ["id", "order_id", "canceled_at"], filters: { order_id: ids } }),
      graph<Row & { additional_items?: { item_id: string }[] | null; return?: { items?: ChangeItemRow[] | null } | null }>(container, {
        entity: "order_exchange",
        fields: ["id", "order_id", "canceled_at", "additional_items.*", "return.items.item_id", "return.items.quantity"],
        filters: { order_id: ids },
      }),
      graph<{ id: string; order_id: string }>(container, {
        entity: "order_change",
        fields: ["id", "order_id"],
        filters: { order_id: ids, change_type: "edit", status: "confirmed" },
      }),
      // with manualRefunds "credit", a refund without a return whose payment.refunded was lost is filed too
      credits
        ? graph<{ id: string; payment_collections?: { payments?: { refunds?: { id: string }[] | null }[] | null }[] | null }>(container, {
            entity: "order",
            fields: ["id", "payment_collections.payments.refunds.id"],
            filters: { id: ids },
          })
        : Promise.resolve([]),
    ])
    const refunded = new Set(
      paid
        .filter((o) => (o.payment_collections ?? []).some((pc) => (pc.payments ?? []).some((p) => (p.refunds ?? []).length)))
        .map((o) => o.id),
    )
    for (const o of orders) {
      out.checked++
      const facts = {
        returns: returns.filter((r) => r.order_id === o.id && r.received_at && !r.claim_id && !r.exchange_id).map((r) => r.id),
        claims: claims.filter((c) => c.order_id === o.id && !c.canceled_at).map((c) => c.id),
        exchanges: exchanges.filter((x) => x.order_id === o.id && !x.canceled_at).map((x) => x.id),
        exchangeRefunds: exchanges
          .filter((x) => x.order_id === o.id && !x.canceled_at && (x.return?.items ?? []).some((i) => dec(amountString(i.quantity)).gt(0)))
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
