/**
 * The filing processor: drives one filing record towards what Medusa says happened (placed,
 * completed, canceled, returned) with service calls whose ids and keys derive from Medusa ids, so
 * running any step twice is harmless. All work on one order runs under one lock; every call is
 * followed by a write of its outcome; a write-ahead marker (last_step) makes the step after a crash
 * ask the service first ("already done" is reconciled, not failed).
 */
import type {
  Address,
  CalculateCartsRequest,
  CertificateRecord,
  CalculateCartsResponse,
  CartToOrderRequest,
  CreateOrderRequest,
  OrderRecord,
  RefundRecord,
  RefundRequest,
  UpdateOrderRequest,
} from "../service/contract"
import type {
  CompletionMode,
  EditIntent,
  FilingLine,
  FilingRecordDTO,
  FilingRefundDTO,
  FilingSnapshot,
  FilingStore,
  NewRecord,
  RecordPatch,
  RefundItem,
  RefundSource,
} from "../modules/sales-tax-filing/types"
import {
  BackoffPolicy,
  DEFAULT_BACKOFF,
  backoffDelayMs,
  chargedTotal,
  childRefundKey,
  compareLines,
  completionAtFiling,
  deriveState,
  directOrderRequest,
  editSupplements,
  lockKey,
  mustFileDirect,
  orderTaxTotal,
  owedSnapshot,
  planEdit,
  refundKey,
  refundTaxTotal,
  remainingItems,
  requoteRequest,
  routeRefund,
  sanitizeError,
  toIso,
} from "./decisions"
import { dec } from "../money"
import { KEY_REFUSED, KEY_REFUSED_MESSAGE, planFailure } from "./key-refused"
import { refusesCertificate } from "../checkout/exemptions/exemptions"

/** The part of SalesTaxClient that filing uses (structural, so tests can wrap the real client). */
export interface FilingClient {
  calculateCarts(body: CalculateCartsRequest): Promise<CalculateCartsResponse>
  cartToOrder(body: CartToOrderRequest): Promise<{ order: OrderRecord; alreadyExisted: boolean }>
  createOrder(body: CreateOrderRequest): Promise<{ order: OrderRecord; alreadyExisted: boolean }>
  getOrder(orderId: string, opts?: { expandRefunds?: boolean }): Promise<OrderRecord>
  updateOrder(orderId: string, body: UpdateOrderRequest): Promise<OrderRecord>
  voidOrder(orderId: string): Promise<void>
  refundOrder(orderId: string, body: RefundRequest): Promise<{ refunds: RefundRecord[]; idempotencyKey: string; replayed: boolean }>
  /** the certificate as the service holds it (an exempt order's refile checks it first; single-purchase use) */
  getCertificate?(id: string): Promise<Pick<CertificateRecord, "certificateId" | "disabledAt" | "singlePurchase" | "customerId">>
  /** disables a certificate (a single-purchase certificate once its order is filed) */
  disableCertificate?(id: string): Promise<void>
}

export interface FilingLogger {
  info(msg: string): void
  warn(msg: string): void
  error(msg: string): void
}

export interface FilingProcessorDeps {
  store: FilingStore
  /** the default connection's client */
  client: FilingClient
  /**
   * The client of a connection by id (a record's `snapshot.connectionId`, option `connections`);
   * absent, or for no id, `client`.
   */
  clientFor?: (connectionId: string) => FilingClient
  /** runs fn with exclusive access to key (Medusa's Locking Module in the app) */
  lock: <T>(key: string, fn: () => Promise<T>) => Promise<T>
  now?: () => Date
  /** failed attempts before a record is left failed for a person (plugin option filing.maxAttempts) */
  maxAttempts: number
  backoff?: BackoffPolicy
  /** strings never to be stored in last_error (the API key) */
  secrets?: (string | undefined)[]
  logger?: FilingLogger
  /**
   * A single-purchase certificate's order was filed and the certificate disabled at the service:
   * the app records it as used by that order (the certificate-origin row); keyed by certificate,
   * the first order stays its user. Best effort: a failure is logged, never fails the filing.
   */
  certificateUsed?: (use: { certificateId: string; orderId: string; customerId: string | null }) => Promise<void>
}

export interface RefundIntent {
  source: Exclude<RefundSource, "cancel" | "edit">
  sourceId: string
  items: RefundItem[]
  returnedAt?: Date | null
}

export interface ProcessOutcome {
  orderId: string
  state: string
  error?: string
}

function statusOf(err: unknown): number | null {
  const s = (err as { status?: unknown })?.status
  return typeof s === "number" ? s : null
}

/** An order edit to file: the order change id, when it was confirmed, the order's lines after it (every origin's). */
export interface EditInput {
  id: string
  at: Date
  lines: FilingLine[]
  /** where each line ships from after the edit, by item id (the origins recorded on its tax lines) */
  origins?: Record<string, Address>
}

/** A retryable "not yet": work that waits for other work of the same order (a pending refund). */
class WaitError extends Error {
  readonly retryable = true
}

/**
 * Builds the row for a new record; a snapshot of null (no US destination) makes a "skipped"
 * record. `attention`: a US order a person must look at (issue 26): "needs_attention" with the
 * reason, never processed (its snapshot, when the destination resolved, is kept for the re-quote).
 */
export function newRecordFor(
  orderId: string,
  snapshot: FilingSnapshot | null,
  mode: CompletionMode,
  now: Date,
  reason = "no US shipping address: nothing to file",
  attention = false,
): NewRecord {
  return {
    order_id: orderId,
    kind: snapshot?.kind ?? "order",
    parent_order_id: snapshot?.parentOrderId ?? null,
    cart_id: snapshot?.cartId ?? null,
    customer_id: snapshot?.customerId ?? null,
    completion_mode: mode,
    snapshot,
    charged_tax: snapshot ? chargedTotal(snapshot.lines) : null,
    state: attention ? "needs_attention" : snapshot ? "pending" : "skipped",
    last_error: attention || !snapshot ? reason : null,
    next_attempt_at: snapshot && !attention ? now : null,
  }
}

export class FilingProcessor {
  private readonly now: () => Date
  private readonly backoff: BackoffPolicy

  constructor(private readonly deps: FilingProcessorDeps) {
    this.now = deps.now ?? (() => new Date())
    this.backoff = deps.backoff ?? DEFAULT_BACKOFF
  }

  // -------------------------------------------------------------------------------------------
  // Intents (each: ensure the record, note the intent, then process; all under the order's lock)
  // -------------------------------------------------------------------------------------------

  /** order.placed (and exchanges' new items): file the order (and its other origins' orders). */
  fileOrder(record: NewRecord): Promise<FilingRecordDTO | null> {
    return this.locked(rootOf(record), async () => {
      await this.ensure(record)
      for (const sib of record.origin_siblings ?? []) await this.run(sib.order_id)
      return this.run(record.order_id)
    })
  }

  /**
   * Ensures the record and, for an order shipped from several origins, its other origins'
   * records (kind "order", parent = the order: refunds are routed to them line by line, a
   * cancellation voids them, completion completes them). Returns the record's own.
   */
  private async ensure(record: NewRecord): Promise<{ record: FilingRecordDTO; created: boolean }> {
    const { origin_siblings: siblings, ...own } = record
    const out = await this.deps.store.ensureRecord(own)
    // the other origins' records are made with the order's: once it is filed (or edited), an
    // origin that appears later is an edit's (its lines are filed as the edit's supplement), and a
    // record made from the edited order's grouping would file its lines a second time
    const fresh = out.created || (!out.record.filed_at && !out.record.voided_at && !(out.record.edits ?? []).length)
    for (const sib of fresh ? (siblings ?? []) : []) {
      const { origin_siblings: _, ...sibOwn } = sib
      await this.deps.store.ensureRecord(sibOwn)
    }
    return out
  }

  /** Payment captured / first fulfilment: complete the order at the service as of `at`. */
  completeOrder(record: NewRecord, at: Date): Promise<FilingRecordDTO | null> {
    return this.locked(rootOf(record), async () => {
      const { record: rec } = await this.ensure(record)
      if (!rec.completion_requested_at && rec.state !== "skipped") {
        await this.deps.store.patchRecord(rec.id, { completion_requested_at: at, next_attempt_at: this.now() })
      }
      for (const sib of rec.kind === "order" && !rec.parent_order_id ? await this.deps.store.listChildren(rec.order_id) : []) {
        if (sib.kind !== "order" || sib.completion_requested_at || sib.state === "skipped") continue
        await this.deps.store.patchRecord(sib.id, { completion_requested_at: at, next_attempt_at: this.now() })
        await this.run(sib.order_id)
      }
      return this.run(record.order_id)
    })
  }

  /** order.canceled: void (before the cutoff / while not completed), else refund what is left. */
  cancelOrder(record: NewRecord, at: Date): Promise<FilingRecordDTO | null> {
    return this.locked(rootOf(record), async () => {
      const { record: rec } = await this.ensure(record)
      // the order's edits' own orders and its other origins' orders go with it (voided, or refunded after the cutoff)
      const family = [
        rec,
        ...(rec.kind === "order"
          ? (await this.deps.store.listChildren(rec.order_id)).filter((c) => c.kind === "edit" || c.kind === "order")
          : []),
      ]
      for (const r of family) {
        if (!r.cancel_requested_at && r.state !== "skipped") {
          await this.deps.store.patchRecord(r.id, { cancel_requested_at: at, next_attempt_at: this.now() })
        }
      }
      for (const r of family.slice(1)) await this.run(r.order_id)
      return this.run(record.order_id)
    })
  }

  /**
   * order-edit.confirmed: records the edit on the order's record (once per edit id) and files it:
   * before the void cutoff an order with no refunds is voided and filed again whole; otherwise the
   * changed lines' remaining quantities are refunded (key = edit id) and the changed and added
   * lines filed as an order of their own (orderId = edit id).
   */
  editOrder(record: NewRecord, edit: EditInput): Promise<FilingRecordDTO | null> {
    return this.locked(rootOf(record), async () => {
      const { record: rec } = await this.ensure(record)
      if (rec.state === "skipped" || !rec.snapshot) return rec
      const edits = rec.edits ?? []
      if (!edits.some((e) => e.id === edit.id)) {
        const intent: EditIntent = {
          id: edit.id,
          state: "pending",
          at: edit.at.toISOString(),
          lines: edit.lines,
          ...(edit.origins && Object.keys(edit.origins).length ? { origins: edit.origins } : {}),
        }
        await this.deps.store.patchRecord(rec.id, { edits: [...edits, intent], next_attempt_at: this.now() })
      }
      return this.run(record.order_id)
    })
  }

  /**
   * A received return, a claim's or an exchange's returned items: refund exactly those. Each item
   * is refunded on the record that holds it (the order, an edit's, an exchange's or a claim's own
   * order); on a record other than the order's the key is `<source key>:<record order id>`.
   */
  refund(record: NewRecord, intent: RefundIntent): Promise<FilingRecordDTO | null> {
    return this.locked(rootOf(record), async () => {
      const { record: rec } = await this.ensure(record)
      if (rec.state === "skipped" || !rec.snapshot) return rec
      const root = rec.parent_order_id ?? rec.order_id
      const rootRec = root === rec.order_id ? rec : await this.deps.store.findRecord(root)
      const family = [...(rootRec ? [rootRec] : []), ...(await this.deps.store.listChildren(root))].filter(
        (r) => r.snapshot && r.state !== "skipped" && r.kind !== "credit",
      )
      const key = refundKey(intent.source, intent.sourceId)
      // a refund already recorded under this key (redelivery) is not routed again
      const known = new Set(family.flatMap((r) => (r.refunds ?? []).map((x) => x.idempotency_key)))
      const touched: string[] = []
      const pending = family.filter((r) => !known.has(childRefundKey(key, r.order_id, root)))
      const already = family.length !== pending.length
      for (const part of already ? [] : routeRefund(intent.items, pending)) {
        const home = family.find((r) => r.order_id === part.orderId)!
        const { created } = await this.deps.store.ensureRefund(home.id, {
          order_id: home.order_id,
          source_type: intent.source,
          source_id: intent.sourceId,
          idempotency_key: childRefundKey(key, home.order_id, root),
          items: part.items,
          returned_at: intent.returnedAt ?? null,
        })
        if (created) await this.deps.store.patchRecord(home.id, { next_attempt_at: this.now() })
        touched.push(home.order_id)
      }
      for (const id of touched) if (id !== record.order_id) await this.run(id)
      return this.run(record.order_id)
    })
  }

  /**
   * Admin fix of a needs_attention record (issue 26): `build` gives the order's snapshot for the
   * corrected destination; its lines are quoted at the service and carry the tax it computes (none
   * was collected: the merchant owes it), and the record is filed with them. Only a record still in
   * needs_attention is touched (under the order's lock): a second call files nothing.
   */
  async requote(
    orderId: string,
    build: (rec: FilingRecordDTO) => Promise<FilingSnapshot>,
  ): Promise<{ record: FilingRecordDTO | null; requoted: boolean }> {
    return this.locked(await this.rootId(orderId), async () => {
      const rec = await this.deps.store.findRecord(orderId)
      if (!rec || rec.state !== "needs_attention") return { record: rec, requoted: false }
      const s = await build(rec)
      const quoted = await this.clientOf(s).calculateCarts(requoteRequest(s))
      const snapshot = owedSnapshot(s, quoted.items[0]?.lineItems ?? [], this.now())
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
        next_attempt_at: this.now(),
        ...(rec.edits ? { edits } : {}),
      })
      return { record: await this.run(orderId), requoted: true }
    })
  }

  /** Admin retry: forget the attempt count and process now. */
  async retry(orderId: string): Promise<FilingRecordDTO | null> {
    return this.locked(await this.rootId(orderId), async () => {
      const rec = await this.deps.store.findRecord(orderId)
      if (!rec) return null
      await this.deps.store.patchRecord(rec.id, { attempts: 0, next_attempt_at: this.now() })
      return this.run(orderId)
    })
  }

  /** Processes one record (no new intent). */
  async process(orderId: string): Promise<FilingRecordDTO | null> {
    return this.locked(await this.rootId(orderId), () => this.run(orderId))
  }

  /** The scheduled job: every record whose next attempt is due. */
  async processDue(limit = 100): Promise<ProcessOutcome[]> {
    const ids = await this.deps.store.listDue(this.now(), limit)
    const out: ProcessOutcome[] = []
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

  // -------------------------------------------------------------------------------------------

  /** All records of one Medusa order (its own, its edits', exchanges', claims', credits') share one lock. */
  private locked<T>(rootOrderId: string, fn: () => Promise<T>): Promise<T> {
    return this.deps.lock(lockKey(rootOrderId), fn)
  }

  private async rootId(orderId: string): Promise<string> {
    const rec = await this.deps.store.findRecord(orderId)
    return rec?.parent_order_id ?? orderId
  }

  private async reload(orderId: string): Promise<FilingRecordDTO> {
    const r = await this.deps.store.findRecord(orderId)
    if (!r) throw new Error(`filing record for ${orderId} vanished`)
    return r
  }

  private async patch(rec: FilingRecordDTO, patch: RecordPatch): Promise<FilingRecordDTO> {
    await this.deps.store.patchRecord(rec.id, patch)
    return { ...rec, ...patch }
  }

  private async run(orderId: string): Promise<FilingRecordDTO | null> {
    let rec = await this.deps.store.findRecord(orderId)
    if (!rec) return null
    if (rec.state === "needs_attention") return this.parked(rec)
    if (rec.state === "skipped" || !rec.snapshot) return rec
    const s = rec.snapshot
    const { store } = this.deps
    const client = this.clientOf(s)
    const wasPaused = rec.paused_reason === KEY_REFUSED
    let step = "file"
    let refundInFlight: FilingRefundDTO | null = null
    try {
      // 1. File (reconciling a filing that reached the service before a crash)
      if (!rec.filed_at) {
        if (rec.last_step === "file" || rec.cancel_requested_at) {
          const existing = await this.getOrderOrNull(orderId, client)
          if (existing) {
            rec = await this.markFiled(rec, existing, rec.filing_path ?? "direct", null)
            if (s.exemptionId && existing.exemption?.exemptionId === s.exemptionId) await this.useSinglePurchase(rec, s)
          } else if (rec.cancel_requested_at) {
            // canceled before it ever reached the service: nothing to void
            rec = await this.patch(rec, { voided_at: this.now(), last_step: "void" })
          }
        }
        if (!rec.filed_at && !rec.voided_at) {
          rec = await this.patch(rec, { last_step: "file" })
          rec = await this.file(rec, s)
        }
      }

      // 2. Completion (captured / fulfilled modes)
      step = "complete"
      if (rec.filed_at && !rec.voided_at && !rec.completed_at && rec.completion_requested_at) {
        const o = await client.updateOrder(orderId, { completedDate: toIso(rec.completion_requested_at) })
        rec = await this.patch(rec, {
          completed_at: o.completedDate ? new Date(o.completedDate) : rec.completion_requested_at,
          last_step: step,
        })
      }

      // 3. Cancellation: void, or (after the cutoff) refund whatever is left under cancel:<order id>
      step = "cancel"
      let refunds = (await this.reload(orderId)).refunds ?? []
      if (rec.filed_at && rec.cancel_requested_at && !rec.voided_at && !refunds.some((r) => r.source_type === "cancel")) {
        try {
          await client.voidOrder(orderId)
          rec = await this.patch(rec, { voided_at: this.now(), last_step: "void" })
        } catch (e) {
          const st = statusOf(e)
          if (st === 404) {
            rec = await this.patch(rec, { voided_at: this.now(), last_step: "void" })
          } else if (st === 422) {
            const items = remainingItems(s.lines, refunds)
            if (items.length) {
              await store.ensureRefund(rec.id, {
                order_id: orderId,
                source_type: "cancel",
                source_id: orderId,
                idempotency_key: refundKey("cancel", orderId),
                items,
                returned_at: rec.cancel_requested_at,
              })
            }
            refunds = (await this.reload(orderId)).refunds ?? []
          } else throw e
        }
      }

      // 4. Refunds (only once filed; a voided order supersedes them)
      step = "refund"
      rec = await this.sendRefunds(rec, refunds, (r) => {
        refundInFlight = r
      })
      refundInFlight = null

      // 5. Order edits (the order's own record): void and refile whole, or refunds + an order of their own
      step = "edit"
      if (rec.kind === "order" && (rec.edits ?? []).some((e) => e.state === "pending")) {
        rec = await this.applyEdits(await this.reload(orderId), (r) => {
          refundInFlight = r
        })
        refundInFlight = null
      }

      const fresh = await this.reload(orderId)
      const state = deriveState(fresh, fresh.refunds ?? [], false)
      await store.patchRecord(fresh.id, {
        state,
        attempts: 0,
        next_attempt_at: null,
        last_error: null,
        last_step: fresh.last_step,
        ...(wasPaused ? { paused_reason: null } : {}),
      })
      if (wasPaused) await this.resumePaused(orderId)
      return { ...fresh, state, attempts: 0, next_attempt_at: null, last_error: null, ...(wasPaused ? { paused_reason: null } : {}) }
    } catch (err) {
      return this.fail(orderId, step, err, refundInFlight)
    }
  }

  /** Sends every refund row not sent yet (in the order they were recorded); keeps each item's refunded tax. */
  private async sendRefunds(
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
  private async applyEdits(rec: FilingRecordDTO, inFlight: (r: FilingRefundDTO | null) => void): Promise<FilingRecordDTO> {
    const { store } = this.deps
    const client = this.clientOf(rec.snapshot)
    for (const edit of rec.edits ?? []) {
      if (edit.state !== "pending") continue
      const setEdit = async (patch: Partial<EditIntent>, more: RecordPatch = {}) => {
        const edits = (rec.edits ?? []).map((e) => (e.id === edit.id ? { ...e, ...patch } : e))
        rec = await this.patch(rec, { edits, ...more })
      }
      if (rec.voided_at || rec.cancel_requested_at) {
        await setEdit({ state: "superseded" })
        continue
      }
      if (!rec.filed_at) throw new WaitError(`edit ${edit.id}: the order is not filed yet`)
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
          const snapshot: FilingSnapshot = { ...rec.snapshot!, cartId: null, lines: plan.refileLines }
          // the edit stays pending (mode refile) until the new order is filed: a crash in between
          // files it on the next run (step 1), and the edit then finds nothing left to change
          await setEdit(
            { mode: "refile" },
            {
              snapshot,
              charged_tax: chargedTotal(snapshot.lines),
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
        }
        await store.ensureRecord(newRecordFor(sup.orderId, snapshot, "placed", this.now()))
      }
      await setEdit({ state: "applied", mode: "supplement" })
      rec = await this.sendRefunds(rec, (await this.reload(rec.order_id)).refunds ?? [], inFlight)
      for (const part of plan.refunds) if (part.orderId !== rec.order_id) await this.run(part.orderId)
      for (const sup of supplements) await this.run(sup.orderId)
    }
    return rec
  }

  /**
   * Files a snapshot. A certificate the service refuses (disabled or removed after the sale) never
   * fails the filing: the order is filed again without the certificate reference, directly, with
   * the tax as charged per line (0 on the exempt lines), so what is filed is what was charged.
   */
  private async file(rec: FilingRecordDTO, s: FilingSnapshot): Promise<FilingRecordDTO> {
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

  /**
   * Whether the snapshot's certificate can still be referenced (no certificate: yes). A client
   * that cannot read certificates answers yes (file()'s fallback still files what was charged);
   * a failure to read it is thrown (retried later: nothing was voided).
   */
  private async certificateUsable(s: FilingSnapshot, client: FilingClient): Promise<boolean> {
    if (!s.exemptionId || !client.getCertificate) return true
    try {
      const cert = await client.getCertificate(s.exemptionId)
      return !cert.disabledAt
    } catch (e) {
      if (statusOf(e) === 404) return false
      throw e
    }
  }

  /**
   * After an order (the Medusa order's own record) is filed under a single-purchase certificate:
   * the certificate is disabled at the service (it exempted its one order) and recorded as used by
   * it. Idempotent: a disabled certificate is not disabled again, and the first order stays its
   * user. Best effort: a failure is logged and never fails the filing.
   */
  private async useSinglePurchase(rec: FilingRecordDTO, s: FilingSnapshot): Promise<void> {
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

  private async fileAs(rec: FilingRecordDTO, s: FilingSnapshot, direct: boolean): Promise<FilingRecordDTO> {
    const client = this.clientOf(s)
    const forced = direct || mustFileDirect(s)
    let cmp: ReturnType<typeof compareLines> | null = null
    if (s.cartId && !direct) {
      const quote = await client.calculateCarts(requoteRequest(s))
      const cart = quote.items.find((c) => c.cartId === s.cartId) ?? quote.items[0]
      cmp = compareLines(s.lines, cart?.lineItems ?? [])
    }
    const completion = completionAtFiling(rec, s)
    if (!forced && cmp?.equal) {
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
        return this.markFiled(rec, r.order, "cart", cmp)
      }
    }
    const r = await client.createOrder(directOrderRequest(s, completion, s.placedAt))
    return this.markFiled(rec, r.order, "direct", cmp)
  }

  private async markFiled(
    rec: FilingRecordDTO,
    order: OrderRecord,
    path: "cart" | "direct",
    cmp: ReturnType<typeof compareLines> | null,
  ): Promise<FilingRecordDTO> {
    return this.patch(rec, {
      filed_at: this.now(),
      filing_path: path,
      filed_tax: orderTaxTotal(order),
      requoted_tax: cmp ? cmp.quotedTotal : rec.requoted_tax,
      tax_difference: cmp ? (cmp.equal ? 0 : cmp.difference) : rec.tax_difference,
      completed_at: order.completedDate ? new Date(order.completedDate) : null,
      last_step: "filed",
    })
  }

  /** The client of the connection a snapshot was (or is to be) filed on: the default without one. */
  /**
   * A needs_attention record waits for a person: an intent (completion, cancellation) noted on it
   * is kept for when it is filed, but schedules nothing; canceled before it was filed, nothing is
   * left to file (skipped).
   */
  private async parked(rec: FilingRecordDTO): Promise<FilingRecordDTO> {
    if (rec.cancel_requested_at && !rec.filed_at) {
      return this.patch(rec, {
        state: "skipped",
        next_attempt_at: null,
        last_error: `canceled before it was filed: nothing to file (was: ${rec.last_error ?? "needs attention"})`.slice(0, 1000),
      })
    }
    return rec.next_attempt_at ? this.patch(rec, { next_attempt_at: null }) : rec
  }

  private clientOf(s: Pick<FilingSnapshot, "connectionId"> | null | undefined): FilingClient {
    const id = s?.connectionId
    return id && this.deps.clientFor ? this.deps.clientFor(id) : this.deps.client
  }

  /** The service accepts the key again: the other records paused by a refused key are made due now. */
  private async resumePaused(orderId: string): Promise<void> {
    try {
      const n = (await this.deps.store.resumePaused?.(KEY_REFUSED, this.now())) ?? 0
      this.deps.logger?.info(`sales-tax filing: ${orderId} went through after a refused key; ${n} other paused records made due`)
    } catch (e) {
      // this record is filed; the others still come due on their own back-off
      this.deps.logger?.warn(`sales-tax filing: paused records not made due (${sanitizeError(e, this.deps.secrets ?? [])})`)
    }
  }

  private async getOrderOrNull(orderId: string, client: FilingClient = this.deps.client): Promise<OrderRecord | null> {
    try {
      return await client.getOrder(orderId)
    } catch (e) {
      if (statusOf(e) === 404) return null
      throw e
    }
  }

  private async fail(orderId: string, step: string, err: unknown, refund: FilingRefundDTO | null): Promise<FilingRecordDTO | null> {
    const { store } = this.deps
    const message = sanitizeError(err, this.deps.secrets ?? [])
    const rec = await store.findRecord(orderId)
    if (!rec) return null
    // a refused key (401/403) pauses the record: retried with back-off, never left for a person (key-refused.ts)
    const { attempts, retry: again, paused } = planFailure(err, rec, this.deps.maxAttempts)
    const next = again ? new Date(this.now().getTime() + backoffDelayMs(attempts, this.backoff)) : null
    if (refund) await store.patchRefund(refund.id, { state: "failed", attempts: refund.attempts + 1, last_error: message })
    const patch: RecordPatch = {
      state: "failed",
      attempts,
      next_attempt_at: next,
      last_error: `${step}: ${message}`,
      ...(paused || rec.paused_reason ? { paused_reason: paused } : {}),
    }
    await store.patchRecord(rec.id, patch)
    this.deps.logger?.warn(
      paused
        ? `sales-tax filing: ${orderId} ${step}: ${KEY_REFUSED_MESSAGE} (${message}); retried at ${next!.toISOString()} and on, with back-off, until the service accepts the key`
        : `sales-tax filing: ${orderId} ${step} failed (attempt ${attempts}/${this.deps.maxAttempts}${again ? `, next at ${next!.toISOString()}` : ", left for a person"}): ${message}`,
    )
    return { ...rec, ...patch }
  }
}

function rootOf(record: Pick<NewRecord, "order_id" | "parent_order_id">): string {
  return record.parent_order_id ?? record.order_id
}

function sortRefunds(refunds: FilingRefundDTO[]): FilingRefundDTO[] {
  return [...refunds].sort((a, b) => (a.created_at?.getTime?.() ?? 0) - (b.created_at?.getTime?.() ?? 0))
}
