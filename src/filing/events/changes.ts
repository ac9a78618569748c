/** Returns, claims, exchanges: what each refunds, read from Medusa as a refund intent (its items), which the processor routes
 * to the service orders that hold them; their new items filed as orders of their own. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { roundCents, sum } from "../../../packages/contract/src/money"
import { buildSnapshot, orderRecordInput, splitByOrigin, wholeItemCharge } from "../snapshot"
import { filingProcessor, filingStore, result, type FilingResult } from "../processor-factory"
import { getPluginOptions } from "../../options"
import { readClaim, readExchange, readOrder, readOwnShippingIds, readReturn } from "../order-reader"
import { claimedItems, quantityOf, refundItems, refundsShipping, returnedItems, type ExchangeRow, type OrderRow } from "../order-rows"
import { recordOf, type RefundIntent } from "../processor-types"
import { chargedTotal } from "../decisions"
import { childOrderId, replacementCharge, taxShare } from "../decisions-refunds"
import type { FilingSnapshot, RefundItem } from "../../modules/sales-tax-filing/types"

/** Files the Medusa order, then refunds `intent` on the records holding its items (none: nothing done). */
async function refundOn(container: MedusaContainer, orderId: string, intent: RefundIntent | null): Promise<FilingResult | null> {
  if (!intent) return null
  const options = getPluginOptions(container)
  const p = filingProcessor(container)
  const { record } = await orderRecordInput(container, orderId, options)
  await p.fileOrder(record)
  return result(orderId, await p.refund(record, intent))
}

/** A claim not canceled, with its claimed units and its replacement (outbound) items. */
async function loadClaim(container: MedusaContainer, claimId: string) {
  const c = await readClaim(container, claimId)
  if (!c || c.canceled_at) return null
  const additionalItemIds = (c.additional_items ?? []).map((i) => i.item_id)
  return { ...c, type: c.type === "replace" ? ("replace" as const) : ("refund" as const), claimed: claimedItems(c), additionalItemIds }
}

/** Pure: a refund claim refunds the claimed units (key = claim id); a replace claim refunds nothing. */
function claimRefund(c: NonNullable<Awaited<ReturnType<typeof loadClaim>>>): RefundIntent | null {
  if (c.type === "replace") return null
  return { source: "claim", sourceId: c.id, items: c.claimed, returnedAt: new Date(c.created_at) }
}

/** The tax of the claimed units as Medusa charged them (each line's whole-quantity tax's share, rounded half-up to the cent). */
export function claimedTax(order: Pick<OrderRow, "items">, claimed: RefundItem[]): number {
  const share = (c: RefundItem) => {
    const it = (order.items ?? []).find((i) => i.id === c.itemId)
    return it ? taxShare(wholeItemCharge(it).tax, c.quantity, quantityOf(it.quantity)) : 0
  }
  return roundCents(sum(claimed.map(share)))
}

/** Pure: an exchange refunds its returned items (key = exchange id). */
function exchangeRefund(x: ExchangeRow): RefundIntent {
  return { source: "exchange", sourceId: x.id, items: refundItems(x.return?.items), returnedAt: new Date(x.created_at) }
}

async function loadExchange(container: MedusaContainer, exchangeId: string) {
  const x = await readExchange(container, exchangeId)
  return x && !x.canceled_at ? x : null
}

/** A received return: its received items refunded (key = return id), after filing the exchanges and claims whose new items
 * come back, if they are not yet; a claim's or an exchange's return is that one's refund (same key: once). */
export async function onReturnReceived(container: MedusaContainer, returnId: string): Promise<FilingResult | null> {
  const r = await readReturn(container, returnId)
  if (!r) return null
  if (r.claim_id) {
    const c = await loadClaim(container, r.claim_id)
    return c && refundOn(container, c.order_id, claimRefund(c))
  }
  if (r.exchange_id) {
    const x = await loadExchange(container, r.exchange_id)
    return x && refundOn(container, x.order_id, exchangeRefund(x))
  }
  const shipping = refundsShipping(r.metadata) ? await readOwnShippingIds(container, r.order_id) : []
  const returnedAt = r.received_at ? new Date(r.received_at) : new Date()
  const items = returnedItems(r, shipping)
  const order = await readOrder(container, r.order_id)
  const returned = new Set(items.map((i) => i.itemId))
  const comesBack = (x: ExchangeRow) => (x.additional_items ?? []).some((i) => returned.has(i.item_id))
  for (const x of (order?.exchanges ?? []).filter(comesBack)) await onExchangeCreated(container, x.id)
  for (const c of (order?.claims ?? []).filter(comesBack)) await onClaimCreated(container, c.id)
  return refundOn(container, r.order_id, { source: "return", sourceId: r.id, items, returnedAt })
}

/** A claim: `refund` refunds the claimed units (key = claim id); `replace` files the replacement as an order of its own
 * (orderId = claim id) for its tax less the claimed units', if above 0. */
export async function onClaimCreated(container: MedusaContainer, claimId: string): Promise<FilingResult | null> {
  const c = await loadClaim(container, claimId)
  if (!c) return null
  if (c.type === "refund") return refundOn(container, c.order_id, claimRefund(c))
  const options = getPluginOptions(container)
  const p = filingProcessor(container)
  const { record, order } = await orderRecordInput(container, c.order_id, options)
  await p.fileOrder(record)
  if (!c.additionalItemIds.length) return result(c.order_id, await filingStore(container).findRecord(c.order_id))
  const built = await buildSnapshot(container, order, options, { kind: "claim", claimId, itemIds: c.additionalItemIds })
  const { snapshot, originOf } = built
  const id = childOrderId(claimId)
  let filed: Parameters<typeof recordOf>[1] = built
  if (snapshot) {
    const items = snapshot.lines.filter((l) => l.kind === "item")
    const shipping = snapshot.lines.filter((l) => l.kind === "shipping")
    const credit = claimedTax(order, c.claimed)
    const paid = [...replacementCharge(items, credit), ...shipping].map((l, index) => ({ ...l, index }))
    const replacementTax = chargedTotal(items)
    const claim = { type: "replace" as const, replacementTax, claimedTax: credit }
    // the replacement's lines as paid (those of each origin when they ship from several: `<claim order id>~<8 hex>`)
    const paidFor = (s: FilingSnapshot): FilingSnapshot => ({ ...s, claim: { ...claim, chargedTax: chargedTotal(s.lines) } })
    const snap = paidFor({ ...snapshot, placedAt: new Date(c.created_at).toISOString(), lines: paid })
    if (!paid.length || chargedTotal(paid) === 0) {
      const why = `not filed: the replacement costs the customer no tax (replacement ${replacementTax.toFixed(2)}, claimed items ${credit.toFixed(2)})`
      filed = { snapshot: null, reason: why }
    } else if (originOf && !built.attention) {
      const [primary, ...others] = splitByOrigin(snap, originOf)
      filed = { snapshot: paidFor(primary!), siblings: others.map(paidFor) }
    } else filed = { ...built, snapshot: snap }
  }
  const rec = await p.fileOrder({ ...recordOf(id, filed, "placed", new Date()), kind: "claim", parent_order_id: c.order_id })
  return result(id, rec)
}

/** An exchange: its returned items are refunded (key = exchange id), its new items filed as an order of their own (orderId = exchange id). */
export async function onExchangeCreated(container: MedusaContainer, exchangeId: string): Promise<FilingResult[]> {
  const x = await loadExchange(container, exchangeId)
  if (!x) return []
  const refunded = await refundOn(container, x.order_id, exchangeRefund(x))
  const out: FilingResult[] = refunded ? [refunded] : []
  const itemIds = (x.additional_items ?? []).map((i) => i.item_id)
  if (!itemIds.length) return out
  const options = getPluginOptions(container)
  const order = await readOrder(container, x.order_id)
  if (!order) throw new Error(`order ${x.order_id} of exchange ${exchangeId} not found`)
  const built = await buildSnapshot(container, order, options, { kind: "exchange", exchangeId, itemIds })
  const placed = (s: FilingSnapshot) => ({ ...s, placedAt: new Date(x.created_at).toISOString() })
  // new items shipping from several locations: one service order per origin (`<exchange id>~<8 hex>`)
  const siblings = built.siblings?.map(placed)
  const record = recordOf(exchangeId, { ...built, snapshot: built.snapshot && placed(built.snapshot), siblings }, "placed", new Date())
  const rec = await filingProcessor(container).fileOrder(record)
  out.push(result(exchangeId, rec))
  return out
}
