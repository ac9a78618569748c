/** The order's own events: placed / synced (filed, completed, canceled as Medusa holds it), payment captured, edits confirmed,
 * and the admin's and the job's retries. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { type FilingRecordDTO, type CompletionMode, type NewRecord } from "../../modules/sales-tax-filing/types"
import { buildSnapshot, completionInstant, orderRecordInput } from "../snapshot"
import { filingProcessor, filingStore, result, UNRESOLVED_SKIP, type FilingResult, type HandlerDeps } from "../processor-factory"
import { getPluginOptions } from "../../options"
import { graph } from "../../query"

/** `own`, a record that needs attention, shows the order as Medusa holds it now; without it, an old "skipped" record for a US
 * address whose state or ZIP did not resolve becomes one. */
async function noteAttention(container: MedusaContainer, record: NewRecord, own?: FilingRecordDTO | null): Promise<void> {
  if (record.state !== "needs_attention") return
  const store = filingStore(container)
  const rec = own ?? (await store.findRecord(record.order_id))
  const reassessed = rec?.state === "skipped" && !rec.filed_at && UNRESOLVED_SKIP.test(rec.last_error ?? "")
  if (!rec || (own ? rec.state !== "needs_attention" : !reassessed)) return
  await store.patchRecord(rec.id, {
    snapshot: record.snapshot,
    charged_tax: record.charged_tax,
    last_error: record.last_error ?? rec.last_error,
    ...(reassessed ? { state: record.state, cart_id: record.cart_id, customer_id: record.customer_id, next_attempt_at: null } : {}),
  })
}

/** Files the order and brings completion and cancellation in line with what Medusa holds. */
export async function syncOrder(container: MedusaContainer, orderId: string): Promise<FilingResult> {
  const options = getPluginOptions(container)
  const p = filingProcessor(container)
  const { record, order } = await orderRecordInput(container, orderId, options)
  await noteAttention(container, record)
  let rec = await p.fileOrder(record)
  const mode = options.completionMode as CompletionMode
  if (mode !== "placed") {
    const at = completionInstant(order, mode)
    if (at) rec = await p.completeOrder(record, at)
  }
  if (order.canceled_at || order.status === "canceled") rec = await p.cancelOrder(record, new Date(order.canceled_at ?? Date.now()))
  return result(orderId, rec)
}
/** order-edit.confirmed: every confirmed edit not filed yet, against the order's lines as Medusa charges them now. */
export async function onOrderEdited(container: MedusaContainer, orderId: string): Promise<FilingResult | null> {
  const options = getPluginOptions(container)
  const p = filingProcessor(container)
  const input = await orderRecordInput(container, orderId, options)
  const { record } = input
  let { lines, origins } = input
  const own = await filingStore(container).findRecord(orderId)
  const rq = own?.state !== "needs_attention" ? own?.snapshot?.requote : null
  if (rq) {
    // filed after an admin's re-quote: the edited lines for the corrected destination (the processor quotes what is owed)
    const built = await buildSnapshot(container, input.order, options, { kind: "order" }, { state: rq.state, zip: rq.zip })
    lines = [built.snapshot, ...(built.siblings ?? [])].flatMap((s) => s?.lines ?? [])
    origins = {}
  } else if (own?.state === "needs_attention") {
    // still waiting for a person: the record shows the order as edited (its re-quote files that)
    await noteAttention(container, record, own)
    lines = record.snapshot?.lines ?? []
  } else if (!record.snapshot || record.state === "needs_attention") return result(orderId, await p.fileOrder(record))
  await p.fileOrder(record)
  const changes = await graph<{ id: string; confirmed_at?: string | Date | null }>(container, {
    entity: "order_change",
    fields: ["id", "change_type", "status", "confirmed_at"],
    filters: { order_id: orderId, change_type: "edit", status: "confirmed" },
  })
  let rec: FilingRecordDTO | null = null
  const at = (ch: { confirmed_at?: string | Date | null }) => new Date(ch.confirmed_at ?? 0).getTime()
  for (const ch of [...changes].sort((a, b) => at(a) - at(b))) {
    rec = await p.editOrder(record, { id: ch.id, at: new Date(ch.confirmed_at ?? Date.now()), lines, origins })
  }
  return result(orderId, rec ?? (await filingStore(container).findRecord(orderId)))
}
export async function onPaymentCaptured(container: MedusaContainer, paymentId: string) {
  const orderId = await paymentOrderId(container, paymentId)
  return orderId ? syncOrder(container, orderId) : null
}

/** The order of a payment (its payment collection's). */
export async function paymentOrderId(container: MedusaContainer, paymentId: string): Promise<string | undefined> {
  const [payment] = await graph<{ id: string; payment_collection?: { order?: { id: string } | null } | null }>(container, {
    entity: "payment",
    fields: ["id", "payment_collection.order.id"],
    filters: { id: paymentId },
  })
  return payment?.payment_collection?.order?.id
}

export async function retryFiling(container: MedusaContainer, orderId: string): Promise<FilingResult> {
  return result(orderId, await filingProcessor(container).retry(orderId))
}

export async function processDueFilings(container: MedusaContainer, limit = 100, deps: HandlerDeps = {}) {
  return filingProcessor(container, deps).processDue(limit)
}
