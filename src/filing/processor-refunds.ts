/**
 * What the processor sends after an order is filed: its refund rows (returns, claims, exchanges,
 * a cancellation after the cutoff, edits' moved lines) and its pending edits (void and refile
 * whole before the cutoff, else refunds plus an order of the edit's own).
 */
import type { EditIntent, FilingRecordDTO, FilingRefundDTO, FilingSnapshot, RecordPatch } from "../modules/sales-tax-filing/types"
import {
  chargedTotal,
  childRefundKey,
  editSupplements,
  owedSnapshot,
  planEdit,
  refundTaxTotal,
  requoteFigures,
  requoteRequest,
  toIso,
} from "./decisions"
import { dec } from "../money"
import { OrderFiler } from "./processor-file"
import { newRecordFor, sortRefunds, statusOf, WaitError } from "./processor-types"

export abstract class RefundSender extends OrderFiler {
  /** Processes one record (the processor's step sequence; processor.ts). */
  protected abstract run(orderId: string): Promise<FilingRecordDTO | null>

  /** Sends every refund row not sent yet (in the order they were recorded); keeps each item's refunded tax. */
  protected async sendRefunds(
    rec: FilingRecordDTO,
    refunds: FilingRefundDTO[],
    inFlight: (r: FilingRefundDTO | null) => void,
  ): Promise<FilingRecordDTO> {
    const { store } = this.deps
    const client = this.clientOf(rec.snapshot)
    for (const r of sortRefunds(refunds)) {
      if (r.state === "refunded" || r.state === "superseded") continue
      if (rec.voided_at) {
        await store.patchRefund(r.id, { state: "superseded" })
        continue
      }
      if (!rec.filed_at) continue
      inFlight(r)
      const res = await client.refundOrder(rec.order_id, {
        items: r.items.map(({ itemId, quantity }) => ({ itemId, quantity })),
        idempotencyKey: r.idempotency_key,
        ...(r.returned_at ? { returnedDate: toIso(r.returned_at) } : {}),
      })
      const taxOf = new Map<string, number>()
      for (const it of res.refunds.flatMap((x) => x.items)) {
        taxOf.set(
          it.itemId,
          dec(taxOf.get(it.itemId) ?? 0)
            .plus(Math.abs(it.tax.amount))
            .toNumber(),
        )
      }
      await store.patchRefund(r.id, {
        state: "refunded",
        refunded_tax: refundTaxTotal(res.refunds),
        refunded_at: this.now(),
        last_error: null,
        items: r.items.map((i) => ({ itemId: i.itemId, quantity: i.quantity, tax: taxOf.get(i.itemId) ?? 0 })),
      })
      inFlight(null)
    }
    return rec
  }

  /** Files the pending edits of an order's own record, oldest first. */
  protected async applyEdits(rec: FilingRecordDTO, inFlight: (r: FilingRefundDTO | null) => void): Promise<FilingRecordDTO> {
    const { store } = this.deps
    const client = this.clientOf(rec.snapshot)
    for (const intent of rec.edits ?? []) {
      if (intent.state !== "pending") continue
      let edit = intent
      const setEdit = async (patch: Partial<EditIntent>, more: RecordPatch = {}) => {
        const edits = (rec.edits ?? []).map((e) => (e.id === edit.id ? { ...e, ...patch } : e))
        rec = await this.patch(rec, { edits, ...more })
      }
      if (rec.voided_at || rec.cancel_requested_at) {
        await setEdit({ state: "superseded" })
        continue
      }
      if (!rec.filed_at) throw new WaitError(`edit ${edit.id}: the order is not filed yet`)
      const rq = rec.snapshot!.requote
      if (edit.requote && !edit.requote.quoted) {
        // filed after a re-quote: Medusa's lines carry the tax collected (none); what is owed for the
        // corrected destination is quoted at the service, the same way the re-quote did
        const s: FilingSnapshot = { ...rec.snapshot!, cartId: null, lines: edit.lines }
        const quoted = await client.calculateCarts(requoteRequest(s))
        const owed = owedSnapshot(s, quoted.items[0]?.lineItems ?? [], this.now()).lines
        await setEdit({ lines: owed, requote: { ...edit.requote, quoted: true } })
        edit = { ...edit, lines: owed, requote: { ...edit.requote, quoted: true } }
      }
      // the order's service orders: its own, its other origins' (kind "order") and its edits'
      const children = (await store.listChildren(rec.order_id)).filter((c) => (c.kind === "edit" || c.kind === "order") && !c.voided_at)
      const plan = planEdit(edit.lines, [rec, ...children], edit.origins)
      if (plan.blocked) throw new WaitError(`edit ${edit.id}: waiting for a refund of this order to be sent`)
      if (!plan.changed) {
        await setEdit({ state: "applied", mode: edit.mode ?? "none" })
        continue
      }
      // an exempt order is voided and filed again only while its certificate is still usable at the
      // service: a certificate disabled (or removed) after the sale never reopens the filed order,
      // the edit's changed lines take the refund + supplement path instead (filed as charged)
      if (plan.refileLines && !(await this.certificateUsable(rec.snapshot!, client))) {
        this.deps.logger?.info(
          `sales-tax filing: ${rec.order_id} edit ${edit.id}: exemption certificate ${rec.snapshot!.exemptionId} is no longer usable; the order stays filed and the changed lines are refunded and filed on their own`,
        )
      } else if (plan.refileLines) {
        // before the void cutoff: void and file the order again, whole, with what Medusa charges now
        let voided = false
        try {
          await client.voidOrder(rec.order_id)
          voided = true
        } catch (e) {
          if (statusOf(e) === 404) voided = true
          else if (statusOf(e) !== 422) throw e
        }
        if (voided) {
          const lines = plan.refileLines
          const requote = rq ? requoteFigures(rq, lines, edit.requote?.collected) : rq
          const snapshot: FilingSnapshot = { ...rec.snapshot!, cartId: null, lines, ...(requote ? { requote } : {}) }
          // the edit stays pending (mode refile) until the new order is filed: a crash in between
          // files it on the next run (step 1), and the edit then finds nothing left to change
          await setEdit(
            { mode: "refile" },
            {
              snapshot,
              charged_tax: requote ? requote.collectedTax : chargedTotal(snapshot.lines),
              filed_at: null,
              filing_path: null,
              completed_at: null,
              revision: (rec.revision ?? 0) + 1,
              last_step: "file",
            },
          )
          rec = await this.file(rec, snapshot)
          await setEdit({ state: "applied" })
          continue
        }
      }
      // after the cutoff (or with refunds on the order): move the changed lines whole
      for (const part of plan.refunds) {
        const home = part.orderId === rec.order_id ? rec : children.find((c) => c.order_id === part.orderId)!
        await store.ensureRefund(home.id, {
          order_id: home.order_id,
          source_type: "edit",
          source_id: edit.id,
          idempotency_key: childRefundKey(edit.id, home.order_id, rec.order_id),
          items: part.items,
          returned_at: new Date(edit.at),
        })
      }
      // the changed and added lines as the edit's own orders, one per origin they ship from
      const supplements = editSupplements(edit.id, rec.snapshot!.origin, plan.supplement, edit.origins)
      for (const sup of supplements) {
        const snapshot: FilingSnapshot = {
          ...rec.snapshot!,
          orderId: sup.orderId,
          kind: "edit",
          parentOrderId: rec.order_id,
          cartId: null,
          placedAt: edit.at,
          origin: sup.origin,
          lines: sup.lines,
          ...(rq ? { requote: requoteFigures(rq, sup.lines, edit.requote?.collected) } : {}),
        }
        const fresh = newRecordFor(sup.orderId, snapshot, "placed", this.now())
        await store.ensureRecord(snapshot.requote ? { ...fresh, charged_tax: snapshot.requote.collectedTax } : fresh)
      }
      await setEdit({ state: "applied", mode: "supplement" })
      rec = await this.sendRefunds(rec, (await this.reload(rec.order_id)).refunds ?? [], inFlight)
      for (const part of plan.refunds) if (part.orderId !== rec.order_id) await this.run(part.orderId)
      for (const sup of supplements) await this.run(sup.orderId)
    }
    return rec
  }
}
