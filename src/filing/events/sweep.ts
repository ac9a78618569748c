/** The lost-event sweep: orders whose records miss a Medusa fact go through the events' handlers. One sweep per
 * `sweep.everyMinutes` across instances (a slot lock left to expire), which applies the retention too. */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "../../medusa/keys"
import { type FilingRecordDTO } from "../../modules/sales-tax-filing/types"
import { getPluginOptions } from "../../options"
import { childOrderId } from "../decisions-refunds"
import { graph } from "../../query"
import type { PluginOptions } from "../../options"
import { daysBefore } from "../../modules/sales-tax-filing/retention"
import { SALES_TAX_MODULE } from "../../constants"
import type { CallLogSink } from "../../service/call-log"
import { onOrderEdited, syncOrder } from "./orders"
import { onClaimCreated, onExchangeCreated, onReturnReceived } from "./changes"
import { fileRefundAsCredit, listManualRefunds } from "./credits"
import { orderPages, readOrderParts, type OrderParts } from "../order-reader"
import { hasPaymentRefunds, refundItems, type OrderRow } from "../order-rows"
import { filingStore, UNRESOLVED_SKIP } from "../processor-factory"

export const SWEEP_SLOT_KEY = "sales-tax-filing-sweep-slot"

/** Retention: street lines of old filing records (filing.addressRetentionDays), old call-log entries (log.retentionDays). */
export async function applyRetention(container: MedusaContainer, options: PluginOptions, now: Date) {
  const salesTax = container.resolve<Pick<CallLogSink, "pruneCallLog">>(SALES_TAX_MODULE)
  const streets = await filingStore(container).removeStreetLines(daysBefore(now, options.filing.addressRetentionDays), now)
  const calls = await salesTax.pruneCallLog(daysBefore(now, options.log.retentionDays))
  return { streets, calls }
}

/** The sweep job's tick: the instance that takes this slot's lock sweeps, then applies the retention. */
export async function sweepSlot(container: MedusaContainer): Promise<void> {
  const options = getPluginOptions(container)
  const locking = container.resolve(Modules.LOCKING)
  try {
    await locking.acquire(SWEEP_SLOT_KEY, { ownerId: `sweep-${randomUUID()}`, expire: options.sweep.everyMinutes * 60 })
  } catch {
    return // another instance (or an earlier tick) holds this slot
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    const out = await sweepOrders(container)
    if (out.broughtInLine.length)
      logger.info(`sales-tax filing sweep: ${out.checked} orders checked, ${out.broughtInLine.length} brought in line`)
  } finally {
    await applyRetention(container, options, new Date()).catch((e: unknown) =>
      logger.warn(`sales-tax retention: ${(e as Error)?.message ?? e} (tried again at the next sweep)`),
    )
  }
}

/** Pure: the Medusa facts that move an order's tax and that its filing records do not show yet. Empty: in line. */
export function missingFacts(
  facts: ReturnType<typeof orderFacts> & { edits: string[]; canceled: boolean },
  rec: FilingRecordDTO | null,
  children: FilingRecordDTO[],
): string[] {
  if (!rec) return ["no filing record"]
  // a record left for a person waits for the person (the re-quote files the order as Medusa holds it then)
  if (rec.state === "needs_attention") return facts.canceled && !rec.cancel_requested_at ? ["cancellation"] : []
  // skipped before needs_attention existed, for a US address whose state or ZIP did not resolve: looked at again
  if (rec.state === "skipped") return UNRESOLVED_SKIP.test(rec.last_error ?? "") && !facts.canceled ? ["destination"] : []
  const keys = new Set([rec, ...children].flatMap((r) => (r.refunds ?? []).map((x) => x.source_id)))
  const kids = new Set(children.map((c) => c.order_id))
  const edits = new Set((rec.edits ?? []).map((e) => e.id))
  const out: string[] = []
  if (facts.canceled && !rec.cancel_requested_at) out.push("cancellation")
  for (const r of facts.returns) if (!keys.has(r)) out.push(r)
  for (const c of facts.claims) if (!keys.has(c) && !kids.has(childOrderId(c))) out.push(c)
  for (const x of facts.exchanges) {
    if ((facts.exchangeRefunds.includes(x) && !keys.has(x)) || (facts.exchangeOrders.includes(x) && !kids.has(x))) out.push(x)
  }
  for (const e of facts.edits) if (!edits.has(e)) out.push(e)
  return out
}

/** Pure: one order's facts among the parts read: received plain returns, live claims and exchanges; an exchange's refund and
 * its new items apart (a handler may die between the two). */
export function orderFacts(orderId: string, p: OrderParts) {
  const exchanges = p.exchanges.filter((x) => x.order_id === orderId && !x.canceled_at)
  return {
    returns: p.returns
      .filter((r) => r.order_id === orderId && r.received_at && !r.canceled_at && !r.claim_id && !r.exchange_id)
      .map((r) => r.id),
    claims: p.claims.filter((c) => c.order_id === orderId && !c.canceled_at).map((c) => c.id),
    exchanges: exchanges.map((x) => x.id),
    exchangeRefunds: exchanges.filter((x) => refundItems(x.return?.items).length).map((x) => x.id),
    exchangeOrders: exchanges.filter((x) => (x.additional_items ?? []).length).map((x) => x.id),
  }
}

/** Runs an order through the handler of each fact (all keyed by Medusa ids: what is filed already adds nothing). */
export async function bringInLine(
  container: MedusaContainer,
  orderId: string,
  facts: Pick<ReturnType<typeof orderFacts>, "returns" | "claims" | "exchanges"> & { edits: boolean },
  creditRefundIds: string[],
): Promise<void> {
  await syncOrder(container, orderId)
  if (facts.edits) await onOrderEdited(container, orderId)
  for (const id of facts.returns) await onReturnReceived(container, id)
  for (const id of facts.claims) await onClaimCreated(container, id)
  for (const id of facts.exchanges) await onExchangeCreated(container, id)
  for (const id of creditRefundIds) await fileRefundAsCredit(container, orderId, id)
}

/** Brings in line the orders of the last `sweep.days` days with no filing record or whose records miss a Medusa fact. */
export async function sweepOrders(container: MedusaContainer): Promise<{ checked: number; broughtInLine: string[] }> {
  const options = getPluginOptions(container)
  const since = daysBefore(new Date(), options.sweep.days)
  const store = filingStore(container)
  const out = { checked: 0, broughtInLine: [] as string[] }
  type Row = Pick<OrderRow, "id" | "canceled_at" | "status">
  const pages = orderPages<Row>(container, { created_at: { $gte: since } }, 200, ["id", "canceled_at", "status"])
  for await (const orders of pages) {
    const ids = orders.map((o) => o.id)
    const [parts, edits, paid] = await Promise.all([
      readOrderParts(container, ids),
      graph<{ id: string; order_id: string }>(container, {
        entity: "order_change",
        fields: ["id", "order_id"],
        filters: { order_id: ids, change_type: "edit", status: "confirmed" },
      }),
      // with manualRefunds "credit", a refund without a return whose payment.refunded was lost is filed too
      options.manualRefunds === "credit"
        ? graph<Pick<OrderRow, "id" | "payment_collections">>(container, {
            entity: "order",
            fields: ["id", "payment_collections.payments.refunds.id"],
            filters: { id: ids },
          })
        : Promise.resolve([]),
    ])
    const refunded = new Set(paid.filter(hasPaymentRefunds).map((o) => o.id))
    for (const o of orders) {
      out.checked++
      const facts = {
        ...orderFacts(o.id, parts),
        edits: edits.filter((e) => e.order_id === o.id).map((e) => e.id),
        canceled: Boolean(o.canceled_at) || o.status === "canceled",
      }
      const rec = await store.findRecord(o.id)
      const missing = missingFacts(facts, rec, rec ? await store.listChildren(o.id) : [])
      const unfiledCredits = refunded.has(o.id) ? (await listManualRefunds(container, o.id)).filter((r) => !r.filing) : []
      if (!missing.length && !unfiledCredits.length) continue
      const credits = unfiledCredits.map((r) => r.refundId)
      await bringInLine(container, o.id, { ...facts, edits: facts.edits.length > 0 }, credits)
      out.broughtInLine.push(o.id)
    }
  }
  return out
}
