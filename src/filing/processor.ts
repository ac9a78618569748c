/**
 * The filing processor: drives a record towards what Medusa says happened, with service calls keyed by Medusa ids (a step run
 * twice is harmless), all of one order under one lock. Each call's outcome is written after it, and a write-ahead marker
 * (last_step) makes the step after a crash ask the service first. Parts: record-writer.ts, decisions*.ts, filing-calls.ts.
 */
import type { EditIntent, FilingRecordDTO, FilingRefundDTO, FilingSnapshot, NewRecord } from "../modules/sales-tax-filing/types"
import { childRefundKey, remainingItems, routeRefund } from "./decisions-refunds"
import { deriveState, owedSnapshot, refundKey, requoteOfEdit, requoteRequest } from "./decisions"
import { sanitizeError } from "./decisions-retry"
import { KEY_REFUSED } from "./key-refused"
import { FilingCalls } from "./filing-calls"
import { RecordWriter } from "./record-writer"
import { byStatus, rootOf, type EditInput, type FilingProcessorDeps, type RefundIntent } from "./processor-types"

export class FilingProcessor {
  private readonly w: RecordWriter
  private readonly calls: FilingCalls

  constructor(private readonly deps: FilingProcessorDeps) {
    this.w = new RecordWriter(deps)
    this.calls = new FilingCalls(deps, this.w, (id) => this.run(id))
  }

  /** All records of one Medusa order (its own, its edits', exchanges', claims', credits') share one lock. */
  private locked<T>(rootOrderId: string, fn: () => Promise<T>): Promise<T> {
    return this.deps.lock(`sales-tax-filing:${rootOrderId}`, fn)
  }

  /** order.placed: files the order and its other origins' orders (`completedAt`: a historical order, filed complete). */
  fileOrder(record: NewRecord, opts: { completedAt?: Date | null } = {}): Promise<FilingRecordDTO | null> {
    return this.ensured(record, async (rec) => {
      if (opts.completedAt) await this.noteCompletion(rec, opts.completedAt)
      for (const sib of record.origin_siblings ?? []) await this.run(sib.order_id)
    })
  }

  /** Under the order's lock: ensures the record (and its other origins' ones, if any), fn, then its run (unless fn answered it). */
  private ensured(record: NewRecord, fn: (rec: FilingRecordDTO) => Promise<FilingRecordDTO | void>): Promise<FilingRecordDTO | null> {
    return this.locked(rootOf(record), async () => {
      const { origin_siblings: siblings, ...own } = record
      const out = await this.deps.store.ensureRecord(own)
      // other origins' records only with the order's: an origin that appears once it is filed (or edited) is an edit's
      // supplement, and a record from the edited order's grouping would file its lines a second time
      const fresh = out.created || (!out.record.filed_at && !out.record.voided_at && !(out.record.edits ?? []).length)
      for (const sib of fresh ? (siblings ?? []) : []) {
        const { origin_siblings: _, ...sibOwn } = sib
        await this.deps.store.ensureRecord(sibOwn)
      }
      return (await fn(out.record)) ?? this.run(record.order_id)
    })
  }

  /** Payment captured / first fulfilment: complete the order at the service as of `at`. */
  completeOrder(record: NewRecord, at: Date): Promise<FilingRecordDTO | null> {
    return this.ensured(record, async (rec) => {
      for (const sib of await this.noteCompletion(rec, at)) await this.run(sib)
    })
  }

  /** Notes the completion on the record and its other origins' records; returns those others' order ids. */
  private async noteCompletion(rec: FilingRecordDTO, at: Date): Promise<string[]> {
    await this.request([rec], "completion_requested_at", at)
    const children = rec.kind === "order" && !rec.parent_order_id ? await this.deps.store.listChildren(rec.order_id) : []
    const siblings = children.filter((c) => c.kind === "order")
    return (await this.request(siblings, "completion_requested_at", at)).map((s) => s.order_id)
  }

  /** Notes an intent on each record that has none yet and is not skipped, due now; returns those noted. */
  private async request(recs: FilingRecordDTO[], intent: "completion_requested_at" | "cancel_requested_at", at: Date) {
    const noted = recs.filter((r) => !r[intent] && r.state !== "skipped")
    for (const r of noted) await this.deps.store.patchRecord(r.id, { [intent]: at, next_attempt_at: this.w.now() })
    return noted
  }

  /** order.canceled: void (before the cutoff / while not completed), else refund what is left. */
  cancelOrder(record: NewRecord, at: Date): Promise<FilingRecordDTO | null> {
    return this.ensured(record, async (rec) => {
      // the order's edits' own orders and its other origins' orders go with it (voided, or refunded after the cutoff)
      const children = rec.kind === "order" ? await this.deps.store.listChildren(rec.order_id) : []
      const family = [rec, ...children.filter((c) => c.kind === "edit" || c.kind === "order")]
      await this.request(family, "cancel_requested_at", at)
      for (const r of family.slice(1)) await this.run(r.order_id)
    })
  }

  /** order-edit.confirmed: records the edit (once per edit id) and files it (FilingCalls.applyEdits). */
  editOrder(record: NewRecord, edit: EditInput): Promise<FilingRecordDTO | null> {
    return this.ensured(record, async (rec) => {
      // an order that needs attention keeps its edits too (shown; its re-quote files the order as edited)
      if (rec.state === "skipped" || (!rec.snapshot && rec.state !== "needs_attention")) return rec
      const edits = rec.edits ?? []
      if (!edits.some((e) => e.id === edit.id)) {
        const intent: EditIntent = {
          id: edit.id,
          state: "pending",
          at: edit.at.toISOString(),
          lines: edit.lines,
          ...(edit.origins && Object.keys(edit.origins).length ? { origins: edit.origins } : {}),
          // filed after a re-quote: the edit is quoted for the corrected destination too (applyEdits)
          ...(rec.snapshot?.requote && rec.state !== "needs_attention" ? { requote: requoteOfEdit(edit.lines) } : {}),
        }
        await this.deps.store.patchRecord(rec.id, { edits: [...edits, intent], next_attempt_at: this.w.now() })
      }
    })
  }

  /** A return's, claim's or exchange's items, refunded on the records holding them (record-writer.ts: ensureRefund's key). */
  refund(record: NewRecord, intent: RefundIntent): Promise<FilingRecordDTO | null> {
    return this.ensured(record, async (rec) => {
      if (rec.state === "skipped" || !rec.snapshot) return rec
      const root = rootOf(rec)
      const rootRec = root === rec.order_id ? rec : await this.deps.store.findRecord(root)
      const family = [...(rootRec ? [rootRec] : []), ...(await this.deps.store.listChildren(root))].filter(
        (r) => r.snapshot && r.state !== "skipped" && r.kind !== "credit",
      )
      const key = refundKey(intent.source, intent.sourceId)
      // a refund already recorded under this key (redelivery) is not routed again
      const known = new Set(family.flatMap((r) => (r.refunds ?? []).map((x) => x.idempotency_key)))
      const already = family.some((r) => known.has(childRefundKey(key, r.order_id, root)))
      const parts = already ? [] : routeRefund(intent.items, family)
      for (const part of parts) {
        const home = family.find((r) => r.order_id === part.orderId)!
        const created = await this.w.ensureRefund(home, root, intent.source, intent.sourceId, part.items, intent.returnedAt ?? null)
        if (created) await this.deps.store.patchRecord(home.id, { next_attempt_at: this.w.now() })
      }
      for (const part of parts) if (part.orderId !== record.order_id) await this.run(part.orderId)
    })
  }

  /** Admin fix of a record still in needs_attention: `build`'s snapshot for the corrected destination, filed with the owed tax. */
  async requote(orderId: string, build: (rec: FilingRecordDTO) => Promise<FilingSnapshot>) {
    return this.locked(await this.w.rootId(orderId), async () => {
      const rec = await this.deps.store.findRecord(orderId)
      if (!rec || rec.state !== "needs_attention") return { record: rec, requoted: false }
      const s = await build(rec)
      const quoted = await this.calls.clientOf(s).calculateCarts(requoteRequest(s))
      const snapshot = owedSnapshot(s, quoted.items[0]?.lineItems ?? [], this.w.now())
      // the order is filed as Medusa holds it now: edits recorded while it waited are in it already
      const edits = (rec.edits ?? []).map((e) => (e.state === "pending" ? { ...e, state: "applied" as const, mode: "none" as const } : e))
      await this.deps.store.patchRecord(rec.id, {
        state: "pending",
        snapshot,
        cart_id: snapshot.cartId,
        customer_id: snapshot.customerId,
        charged_tax: snapshot.requote!.collectedTax,
        last_error: null,
        attempts: 0,
        next_attempt_at: this.w.now(),
        ...(rec.edits ? { edits } : {}),
      })
      return { record: await this.run(orderId), requoted: true }
    })
  }

  async retry(orderId: string): Promise<FilingRecordDTO | null> {
    return this.locked(await this.w.rootId(orderId), async () => {
      const rec = await this.deps.store.findRecord(orderId)
      if (!rec) return null
      await this.deps.store.patchRecord(rec.id, { attempts: 0, next_attempt_at: this.w.now() })
      return this.run(orderId)
    })
  }

  async process(orderId: string): Promise<FilingRecordDTO | null> {
    return this.locked(await this.w.rootId(orderId), () => this.run(orderId))
  }

  /** The scheduled job: every record whose next attempt is due. */
  async processDue(limit = 100) {
    const ids = await this.deps.store.listDue(this.w.now(), limit)
    const out: { orderId: string; state: string; error?: string }[] = []
    for (const id of ids) {
      try {
        const rec = await this.process(id)
        out.push({ orderId: id, state: rec?.state ?? "missing", ...(rec?.last_error ? { error: rec.last_error } : {}) })
      } catch (e) {
        out.push({ orderId: id, state: "error", error: sanitizeError(e, this.deps.secrets ?? []) })
      }
    }
    return out
  }

  private async run(orderId: string): Promise<FilingRecordDTO | null> {
    let rec = await this.deps.store.findRecord(orderId)
    if (!rec) return null
    if (rec.state === "needs_attention") return this.w.parked(rec)
    if (rec.state === "skipped" || !rec.snapshot) return rec
    const s = rec.snapshot
    const client = this.calls.clientOf(s)
    const wasPaused = rec.paused_reason === KEY_REFUSED
    let step = "file"
    let refundInFlight: FilingRefundDTO | null = null
    const inFlight = (r: FilingRefundDTO | null) => void (refundInFlight = r)
    try {
      // 1. File (reconciling a filing that reached the service before a crash)
      if (!rec.filed_at) {
        if (rec.last_step === "file" || rec.cancel_requested_at) {
          const existing = await client.getOrder(orderId).catch((e: unknown) => byStatus(e, { 404: null }))
          if (existing) {
            rec = await this.calls.markFiled(rec, existing, rec.filing_path ?? "direct", null)
            if (s.exemptionId && existing.exemption?.exemptionId === s.exemptionId) await this.calls.useSinglePurchase(rec, s)
          } else if (rec.cancel_requested_at) {
            // canceled before it ever reached the service: nothing to void
            rec = await this.w.patch(rec, { voided_at: this.w.now(), last_step: "void" })
          }
        }
        if (!rec.filed_at && !rec.voided_at) {
          rec = await this.w.patch(rec, { last_step: "file" })
          rec = await this.calls.file(rec, s)
        }
      }

      // 2. Completion (captured / fulfilled modes)
      step = "complete"
      if (rec.filed_at && !rec.voided_at && !rec.completed_at && rec.completion_requested_at) {
        const o = await client.updateOrder(orderId, { completedDate: new Date(rec.completion_requested_at).toISOString() })
        rec = await this.w.patch(rec, {
          completed_at: o.completedDate ? new Date(o.completedDate) : rec.completion_requested_at,
          last_step: step,
        })
      }

      // 3. Cancellation: void, or (after the cutoff) refund whatever is left under cancel:<order id>
      step = "cancel"
      let refunds = (await this.w.reload(orderId)).refunds ?? []
      if (rec.filed_at && rec.cancel_requested_at && !rec.voided_at && !refunds.some((r) => r.source_type === "cancel")) {
        if (await this.calls.voided(orderId, client)) {
          rec = await this.w.patch(rec, { voided_at: this.w.now(), last_step: "void" })
        } else {
          const items = remainingItems(s.lines, refunds)
          if (items.length) await this.w.ensureRefund(rec, orderId, "cancel", orderId, items, rec.cancel_requested_at)
          refunds = (await this.w.reload(orderId)).refunds ?? []
        }
      }

      // 4. Refunds (only once filed; a voided order supersedes them)
      step = "refund"
      await this.calls.sendRefunds(rec, refunds, inFlight)

      // 5. Order edits (the order's own record): void and refile whole, or refunds + an order of their own
      step = "edit"
      if (rec.kind === "order" && (rec.edits ?? []).some((e) => e.state === "pending")) {
        rec = await this.calls.applyEdits(await this.w.reload(orderId), inFlight)
      }

      const fresh = await this.w.reload(orderId)
      const state = deriveState(fresh, fresh.refunds ?? [], false)
      const done = { state, attempts: 0, next_attempt_at: null, last_error: null, last_step: fresh.last_step }
      const out = await this.w.patch(fresh, { ...done, ...(wasPaused ? { paused_reason: null } : {}) })
      if (wasPaused) await this.w.resumePaused(orderId)
      return out
    } catch (err) {
      return this.w.fail(orderId, step, err, refundInFlight)
    }
  }
}
