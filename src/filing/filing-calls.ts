/** The processor's calls to the service: filing a snapshot (re-quote and convert, or direct as charged), certificates, the
 * refund rows, the pending edits; each outcome through the writer. */
import type { OrderRecord } from "../../packages/contract/src/index"
import type { EditIntent, FilingRecordDTO, FilingRefundDTO, FilingSnapshot, RecordPatch } from "../modules/sales-tax-filing/types"
import { addTo, editSupplements, planEdit } from "./decisions-refunds"
import {
  chargedTotal,
  compareLines,
  completionAtFiling,
  directOrderRequest,
  filedStep,
  orderTaxTotal,
  owedSnapshot,
  requoteFigures,
  requotesAtFiling,
  requoteRequest,
} from "./decisions"
import { sanitizeError } from "./decisions-retry"
import { dec, roundCents, sum } from "../../packages/contract/src/money"
import { refusesCertificate } from "../service/client"
import type { RecordWriter } from "./record-writer"
import { newRecordFor, WaitError, byStatus, type FilingClient, type FilingProcessorDeps } from "./processor-types"

export class FilingCalls {
  constructor(
    private readonly deps: FilingProcessorDeps,
    private readonly w: RecordWriter,
    /** processes another record of the same order (an edit's refunds and supplements), under the lock held */
    private readonly run: (orderId: string) => Promise<FilingRecordDTO | null>,
  ) {}

  clientOf(s: Pick<FilingSnapshot, "connectionId"> | null | undefined): FilingClient {
    const id = s?.connectionId
    return id && this.deps.clientFor ? this.deps.clientFor(id) : this.deps.client
  }

  /** Voids the order at the service: true when it is void (or was never there), false past the void cutoff (422). */
  async voided(orderId: string, client: FilingClient): Promise<boolean> {
    return client.voidOrder(orderId).then(
      () => true,
      (e: unknown) => byStatus(e, { 404: true, 422: false }),
    )
  }

  /** Files a snapshot; a certificate the service refuses files it directly without the reference, as charged. */
  async file(rec: FilingRecordDTO, s: FilingSnapshot): Promise<FilingRecordDTO> {
    let filed: FilingRecordDTO
    try {
      filed = await this.fileAs(rec, s, false)
    } catch (e) {
      if (!s.exemptionId || !refusesCertificate(e)) throw e
      this.deps.logger?.warn(
        `sales-tax filing: ${s.orderId}: the service refused exemption certificate ${s.exemptionId} (disabled or removed after the sale); filed with the tax as charged per line, without the certificate reference`,
      )
      return this.fileAs(rec, { ...s, exemptionId: null }, true)
    }
    if (s.exemptionId) await this.useSinglePurchase(filed, s)
    return filed
  }

  /** Whether the snapshot's certificate can still be referenced (none, or a client that cannot read them: yes). */
  async certificateUsable(s: FilingSnapshot, client: FilingClient): Promise<boolean> {
    if (!s.exemptionId || !client.getCertificate) return true
    const cert = await client.getCertificate(s.exemptionId).catch((e: unknown) => byStatus(e, { 404: null }))
    return !!cert && !cert.disabledAt
  }

  /** An order filed under a single-purchase certificate: disabled at the service and recorded as used (best effort). */
  async useSinglePurchase(rec: FilingRecordDTO, s: FilingSnapshot): Promise<void> {
    const client = this.clientOf(s)
    if (!s.exemptionId || rec.kind !== "order" || rec.parent_order_id || !client.getCertificate || !client.disableCertificate) return
    try {
      const cert = await client.getCertificate(s.exemptionId)
      if (!cert.singlePurchase) return
      if (!cert.disabledAt) await client.disableCertificate(s.exemptionId)
      await this.deps.certificateUsed?.({ certificateId: s.exemptionId, orderId: rec.order_id, customerId: cert.customerId ?? null })
    } catch (e) {
      this.deps.logger?.warn(
        `sales-tax filing: ${rec.order_id}: single-purchase certificate ${s.exemptionId} could not be marked used (${sanitizeError(e, this.deps.secrets ?? [])})`,
      )
    }
  }

  async fileAs(rec: FilingRecordDTO, s: FilingSnapshot, direct: boolean): Promise<FilingRecordDTO> {
    const client = this.clientOf(s)
    let cmp: ReturnType<typeof compareLines> | null = null
    if (requotesAtFiling(s, direct)) {
      const quote = await client.calculateCarts(requoteRequest(s))
      const cart = quote.items.find((c) => c.cartId === s.cartId) ?? quote.items[0]
      cmp = compareLines(s.lines, cart?.lineItems ?? [])
    }
    const completion = completionAtFiling(rec, s)
    // lines carrying the provider's fallback tax take the direct path whatever the re-quote says
    if (cmp?.equal && !s.lines.some((l) => l.fallback)) {
      const r = await client.cartToOrder({
        cartId: s.cartId!,
        orderId: s.orderId,
        completed: completion.completed,
        ...(completion.completed && completion.completedDate ? { completedDate: completion.completedDate } : {}),
      })
      // the cart may have moved between the re-quote and the conversion: the filed tax must be the charged tax
      if (!r.alreadyExisted && !dec(orderTaxTotal(r.order)).eq(chargedTotal(s.lines))) {
        this.deps.logger?.warn(`sales-tax filing: ${s.orderId} converted with a different tax; voiding and filing the charged tax`)
        await client.voidOrder(s.orderId)
      } else {
        this.deps.onFiled?.({ orderId: s.orderId, path: "cart", alreadyExisted: r.alreadyExisted })
        return this.markFiled(rec, r.order, "cart", cmp)
      }
    }
    const r = await client.createOrder(directOrderRequest(s, completion))
    this.deps.onFiled?.({ orderId: s.orderId, path: "direct", alreadyExisted: r.alreadyExisted })
    return this.markFiled(rec, r.order, "direct", cmp)
  }

  async markFiled(rec: FilingRecordDTO, order: OrderRecord, path: "cart" | "direct", cmp: ReturnType<typeof compareLines> | null) {
    return this.w.patch(rec, {
      filed_at: this.w.now(),
      filing_path: path,
      filed_tax: orderTaxTotal(order),
      requoted_tax: cmp ? cmp.quotedTotal : rec.requoted_tax,
      tax_difference: cmp ? (cmp.equal ? 0 : cmp.difference) : rec.tax_difference,
      completed_at: order.completedDate ? new Date(order.completedDate) : null,
      last_step: filedStep(rec.snapshot),
    })
  }

  /** Sends every refund row not sent yet (in the order they were recorded); keeps each item's refunded tax. */
  async sendRefunds(rec: FilingRecordDTO, refunds: FilingRefundDTO[], inFlight: (r: FilingRefundDTO | null) => void) {
    const { store } = this.deps
    const client = this.clientOf(rec.snapshot)
    for (const r of [...refunds].sort((a, b) => (a.created_at?.getTime?.() ?? 0) - (b.created_at?.getTime?.() ?? 0))) {
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
        ...(r.returned_at ? { returnedDate: new Date(r.returned_at).toISOString() } : {}),
      })
      const taxOf = new Map<string, number>()
      for (const it of res.refunds.flatMap((x) => x.items)) addTo(taxOf, it.itemId, Math.abs(it.tax.amount))
      await store.patchRefund(r.id, {
        state: "refunded",
        refunded_tax: roundCents(sum(res.refunds.flatMap((x) => x.items.map((i) => i.tax.amount)))),
        refunded_at: this.w.now(),
        last_error: null,
        items: r.items.map((i) => ({ itemId: i.itemId, quantity: i.quantity, tax: taxOf.get(i.itemId) ?? 0 })),
      })
      inFlight(null)
    }
  }

  /** Files the pending edits of an order's own record, oldest first. */
  async applyEdits(rec: FilingRecordDTO, inFlight: (r: FilingRefundDTO | null) => void): Promise<FilingRecordDTO> {
    const { store } = this.deps
    const client = this.clientOf(rec.snapshot)
    for (const intent of rec.edits ?? []) {
      if (intent.state !== "pending") continue
      let edit = intent
      const setEdit = async (patch: Partial<EditIntent>, more: RecordPatch = {}) => {
        const edits = (rec.edits ?? []).map((e) => (e.id === edit.id ? { ...e, ...patch } : e))
        rec = await this.w.patch(rec, { edits, ...more })
      }
      if (rec.voided_at || rec.cancel_requested_at) {
        await setEdit({ state: "superseded" })
        continue
      }
      if (!rec.filed_at) throw new WaitError(`edit ${edit.id}: the order is not filed yet`)
      const rq = rec.snapshot!.requote
      if (edit.requote && !edit.requote.quoted) {
        // filed after a re-quote: Medusa's lines carry the tax collected; what the corrected destination owes is quoted
        const s: FilingSnapshot = { ...rec.snapshot!, cartId: null, lines: edit.lines }
        const quoted = await client.calculateCarts(requoteRequest(s))
        const owed = owedSnapshot(s, quoted.items[0]?.lineItems ?? [], this.w.now()).lines
        edit = { ...edit, lines: owed, requote: { ...edit.requote, quoted: true } }
        await setEdit(edit)
      }
      // the order's service orders: its own, its other origins' (kind "order") and its edits'
      const children = (await store.listChildren(rec.order_id)).filter((c) => (c.kind === "edit" || c.kind === "order") && !c.voided_at)
      const plan = planEdit(edit.lines, [rec, ...children], edit.origins)
      if (plan.blocked) throw new WaitError(`edit ${edit.id}: waiting for a refund of this order to be sent`)
      if (!plan.changed) {
        await setEdit({ state: "applied", mode: edit.mode ?? "none" })
        continue
      }
      // an exempt order is voided and filed again only while its certificate is usable: one disabled or removed after the
      // sale never reopens the filed order, the changed lines take the refund + supplement path (filed as charged)
      if (plan.refileLines && !(await this.certificateUsable(rec.snapshot!, client))) {
        this.deps.logger?.info(
          `sales-tax filing: ${rec.order_id} edit ${edit.id}: exemption certificate ${rec.snapshot!.exemptionId} is no longer usable; the order stays filed and the changed lines are refunded and filed on their own`,
        )
      } else if (plan.refileLines) {
        // before the void cutoff: void and file the order again, whole, with what Medusa charges now
        if (await this.voided(rec.order_id, client)) {
          const lines = plan.refileLines
          const requote = rq ? requoteFigures(rq, lines, edit.requote?.collected) : rq
          const snapshot: FilingSnapshot = { ...rec.snapshot!, cartId: null, lines, ...(requote ? { requote } : {}) }
          // pending (mode refile) until the new order is filed: after a crash the next run files it (step 1), then the edit
          // finds nothing left to change
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
        await this.w.ensureRefund(home, rec.order_id, "edit", edit.id, part.items, new Date(edit.at))
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
        const fresh = newRecordFor(sup.orderId, snapshot, "placed", this.w.now())
        await store.ensureRecord(snapshot.requote ? { ...fresh, charged_tax: snapshot.requote.collectedTax } : fresh)
      }
      await setEdit({ state: "applied", mode: "supplement" })
      await this.sendRefunds(rec, (await this.w.reload(rec.order_id)).refunds ?? [], inFlight)
      for (const part of plan.refunds) if (part.orderId !== rec.order_id) await this.run(part.orderId)
      for (const sup of supplements) await this.run(sup.orderId)
    }
    return rec
  }
}
