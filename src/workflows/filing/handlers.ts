/**
 * What each Medusa event does to filing. Every handler first makes sure the order's record exists
 * (so an event that arrives before, or instead of, order.placed still files the order), then
 * records its intent and processes the record under the order's lock.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { SALES_TAX_FILING_MODULE, type FilingRecordDTO, type FilingStore, type CompletionMode } from "../../modules/sales-tax-filing/types"
import {
  buildSnapshot, claimRefund, completionInstant, exchangeRefund, filingProcessor, getPluginOptions, loadExchange,
  loadOrder, orderRecordInput, returnRefund, type RefundTarget,
} from "./medusa"
import { newRecordFor, type FilingClient, type ProcessOutcome } from "./processor"

export interface HandlerDeps { client?: FilingClient; now?: () => Date }

export interface FilingResult { orderId: string; state: string | null; lastError?: string | null }

const result = (orderId: string, rec: FilingRecordDTO | null): FilingResult => ({
  orderId, state: rec?.state ?? null, lastError: rec?.last_error ?? null,
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
 * A received return: the items of the original order are refunded on its record (key = return
 * id); items that came with an exchange are refunded on that exchange's own record
 * (key = `<return id>:<exchange id>`).
 */
export async function onReturnReceived(container: MedusaContainer, returnId: string, deps: HandlerDeps = {}): Promise<FilingResult | null> {
  const target = await returnRefund(container, returnId)
  if (!target || target.intent.source !== "return") return refundTarget(container, target, deps)
  const order = await loadOrder(container, target.orderId)
  const exchangeIds: string[] = (order?.exchanges ?? []).map((x: any) => x.id)
  let rest = target.intent.items
  for (const exchangeId of exchangeIds) {
    const exItems = new Set<string>(
      ((order.exchanges ?? []).find((x: any) => x.id === exchangeId)?.additional_items ?? []).map((i: any) => i.item_id),
    )
    const mine = rest.filter((i) => exItems.has(i.itemId))
    if (!mine.length) continue
    rest = rest.filter((i) => !exItems.has(i.itemId))
    await onExchangeCreated(container, exchangeId, deps) // files the exchange first if it is not yet
    const store = container.resolve(SALES_TAX_FILING_MODULE) as unknown as FilingStore
    const rec = await store.findRecord(exchangeId)
    if (!rec?.snapshot) continue
    await filingProcessor(container, deps).refund(
      newRecordFor(exchangeId, rec.snapshot, "placed", new Date()),
      { ...target.intent, sourceId: `${returnId}:${exchangeId}`, items: mine },
    )
  }
  return refundTarget(container, { orderId: target.orderId, intent: { ...target.intent, items: rest } }, deps)
}

export function onClaimCreated(container: MedusaContainer, claimId: string, deps: HandlerDeps = {}) {
  return claimRefund(container, claimId).then((t) => refundTarget(container, t, deps))
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

export async function onPaymentCaptured(container: MedusaContainer, paymentId: string, deps: HandlerDeps = {}): Promise<FilingResult | null> {
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
