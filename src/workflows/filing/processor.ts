/**
 * The filing processor: drives one filing record towards what Medusa says happened (placed,
 * completed, canceled, returned) with service calls whose ids and keys derive from Medusa ids, so
 * running any step twice is harmless. All work on one order runs under one lock; every call is
 * followed by a write of its outcome; a write-ahead marker (last_step) makes the step after a crash
 * ask the service first ("already done" is reconciled, not failed).
 */
import type {
  CalculateCartsRequest, CalculateCartsResponse, CartToOrderRequest, CreateOrderRequest, OrderRecord,
  RefundRecord, RefundRequest, UpdateOrderRequest,
} from "../../contract"
import type {
  CompletionMode, FilingRecordDTO, FilingRefundDTO, FilingSnapshot, FilingStore, NewRecord, RecordPatch,
  RefundItem, RefundSource,
} from "../../modules/sales-tax-filing/types"
import {
  BackoffPolicy, DEFAULT_BACKOFF, backoffDelayMs, chargedTotal, compareLines, completionAtFiling,
  deriveState, directOrderRequest, isRetryable, lockKey, mustFileDirect, normalizeRefundItems,
  orderTaxTotal, refundKey, refundTaxTotal, remainingItems, requoteRequest, sanitizeError, toIso,
} from "./decisions"
import { dec } from "../../money"

/** The part of SalesTaxClient that filing uses (structural, so tests can wrap the real client). */
export interface FilingClient {
  calculateCarts(body: CalculateCartsRequest): Promise<CalculateCartsResponse>
  cartToOrder(body: CartToOrderRequest): Promise<{ order: OrderRecord; alreadyExisted: boolean }>
  createOrder(body: CreateOrderRequest): Promise<{ order: OrderRecord; alreadyExisted: boolean }>
  getOrder(orderId: string, opts?: { expandRefunds?: boolean }): Promise<OrderRecord>
  updateOrder(orderId: string, body: UpdateOrderRequest): Promise<OrderRecord>
  voidOrder(orderId: string): Promise<void>
  refundOrder(orderId: string, body: RefundRequest): Promise<{ refunds: RefundRecord[]; idempotencyKey: string; replayed: boolean }>
}

export interface FilingLogger {
  info(msg: string): void
  warn(msg: string): void
  error(msg: string): void
}

export interface FilingProcessorDeps {
  store: FilingStore
  client: FilingClient
  /** runs fn with exclusive access to key (Medusa's Locking Module in the app) */
  lock: <T>(key: string, fn: () => Promise<T>) => Promise<T>
  now?: () => Date
  /** failed attempts before a record is left failed for a person (plugin option filing.maxAttempts) */
  maxAttempts: number
  backoff?: BackoffPolicy
  /** strings never to be stored in last_error (the API key) */
  secrets?: (string | undefined)[]
  logger?: FilingLogger
}

export interface RefundIntent {
  source: Exclude<RefundSource, "cancel">
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

/** Builds the row for a new record; a snapshot of null (no US destination) makes a "skipped" record. */
export function newRecordFor(
  orderId: string,
  snapshot: FilingSnapshot | null,
  mode: CompletionMode,
  now: Date,
  reason = "no US shipping address: nothing to file",
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
    state: snapshot ? "pending" : "skipped",
    last_error: snapshot ? null : reason,
    next_attempt_at: snapshot ? now : null,
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

  /** order.placed (and exchanges' new items): file the order. */
  fileOrder(record: NewRecord): Promise<FilingRecordDTO | null> {
    return this.locked(record.order_id, async () => {
      await this.deps.store.ensureRecord(record)
      return this.run(record.order_id)
    })
  }

  /** Payment captured / first fulfilment: complete the order at the service as of `at`. */
  completeOrder(record: NewRecord, at: Date): Promise<FilingRecordDTO | null> {
    return this.locked(record.order_id, async () => {
      const { record: rec } = await this.deps.store.ensureRecord(record)
      if (!rec.completion_requested_at && rec.state !== "skipped") {
        await this.deps.store.patchRecord(rec.id, { completion_requested_at: at, next_attempt_at: this.now() })
      }
      return this.run(record.order_id)
    })
  }

  /** order.canceled: void (before the cutoff / while not completed), else refund what is left. */
  cancelOrder(record: NewRecord, at: Date): Promise<FilingRecordDTO | null> {
    return this.locked(record.order_id, async () => {
      const { record: rec } = await this.deps.store.ensureRecord(record)
      if (!rec.cancel_requested_at && rec.state !== "skipped") {
        await this.deps.store.patchRecord(rec.id, { cancel_requested_at: at, next_attempt_at: this.now() })
      }
      return this.run(record.order_id)
    })
  }

  /** A received return, a claim's or an exchange's returned items: refund exactly those. */
  refund(record: NewRecord, intent: RefundIntent): Promise<FilingRecordDTO | null> {
    return this.locked(record.order_id, async () => {
      const { record: rec } = await this.deps.store.ensureRecord(record)
      if (rec.state === "skipped" || !rec.snapshot) return rec
      const items = normalizeRefundItems(intent.items, rec.snapshot.lines)
      if (items.length) {
        const { created } = await this.deps.store.ensureRefund(rec.id, {
          order_id: rec.order_id,
          source_type: intent.source,
          source_id: intent.sourceId,
          idempotency_key: refundKey(intent.source, intent.sourceId),
          items,
          returned_at: intent.returnedAt ?? null,
        })
        if (created) await this.deps.store.patchRecord(rec.id, { next_attempt_at: this.now() })
      }
      return this.run(record.order_id)
    })
  }

  /** Admin retry: forget the attempt count and process now. */
  retry(orderId: string): Promise<FilingRecordDTO | null> {
    return this.locked(orderId, async () => {
      const rec = await this.deps.store.findRecord(orderId)
      if (!rec) return null
      await this.deps.store.patchRecord(rec.id, { attempts: 0, next_attempt_at: this.now() })
      return this.run(orderId)
    })
  }

  /** Processes one record (no new intent). */
  process(orderId: string): Promise<FilingRecordDTO | null> {
    return this.locked(orderId, () => this.run(orderId))
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

  private locked<T>(orderId: string, fn: () => Promise<T>): Promise<T> {
    return this.deps.lock(lockKey(orderId), fn)
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
    if (rec.state === "skipped" || !rec.snapshot) return rec
    const s = rec.snapshot
    const { client, store } = this.deps
    let step = "file"
    let refundInFlight: FilingRefundDTO | null = null
    try {
      // 1. File (reconciling a filing that reached the service before a crash)
      if (!rec.filed_at) {
        if (rec.last_step === "file" || rec.cancel_requested_at) {
          const existing = await this.getOrderOrNull(orderId)
          if (existing) rec = await this.markFiled(rec, existing, rec.filing_path ?? "direct", null)
          else if (rec.cancel_requested_at) {
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
        rec = await this.patch(rec, { completed_at: o.completedDate ? new Date(o.completedDate) : rec.completion_requested_at, last_step: step })
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
                order_id: orderId, source_type: "cancel", source_id: orderId,
                idempotency_key: refundKey("cancel", orderId), items, returned_at: rec.cancel_requested_at,
              })
            }
            refunds = (await this.reload(orderId)).refunds ?? []
          } else throw e
        }
      }

      // 4. Refunds (only once filed; a voided order supersedes them)
      step = "refund"
      for (const r of sortRefunds(refunds)) {
        if (r.state === "refunded" || r.state === "superseded") continue
        if (rec.voided_at) {
          await store.patchRefund(r.id, { state: "superseded" })
          continue
        }
        if (!rec.filed_at) continue
        refundInFlight = r
        const res = await client.refundOrder(orderId, {
          items: r.items,
          idempotencyKey: r.idempotency_key,
          ...(r.returned_at ? { returnedDate: toIso(r.returned_at) } : {}),
        })
        await store.patchRefund(r.id, {
          state: "refunded", refunded_tax: refundTaxTotal(res.refunds), refunded_at: this.now(), last_error: null,
        })
        refundInFlight = null
      }

      const fresh = await this.reload(orderId)
      const state = deriveState(fresh, fresh.refunds ?? [], false)
      await store.patchRecord(fresh.id, { state, attempts: 0, next_attempt_at: null, last_error: null, last_step: fresh.last_step })
      return { ...fresh, state, attempts: 0, next_attempt_at: null, last_error: null }
    } catch (err) {
      return this.fail(orderId, step, err, refundInFlight)
    }
  }

  private async file(rec: FilingRecordDTO, s: FilingSnapshot): Promise<FilingRecordDTO> {
    const { client } = this.deps
    const forced = mustFileDirect(s)
    let cmp: ReturnType<typeof compareLines> | null = null
    if (s.cartId) {
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
    rec: FilingRecordDTO, order: OrderRecord, path: "cart" | "direct", cmp: ReturnType<typeof compareLines> | null,
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

  private async getOrderOrNull(orderId: string): Promise<OrderRecord | null> {
    try {
      return await this.deps.client.getOrder(orderId)
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
    const attempts = rec.attempts + 1
    const again = isRetryable(err) && attempts < this.deps.maxAttempts
    const next = again ? new Date(this.now().getTime() + backoffDelayMs(attempts, this.backoff)) : null
    if (refund) await store.patchRefund(refund.id, { state: "failed", attempts: refund.attempts + 1, last_error: message })
    const patch: RecordPatch = {
      state: "failed", attempts, next_attempt_at: next, last_error: `${step}: ${message}`,
    }
    await store.patchRecord(rec.id, patch)
    this.deps.logger?.warn(
      `sales-tax filing: ${orderId} ${step} failed (attempt ${attempts}/${this.deps.maxAttempts}${again ? `, next at ${next!.toISOString()}` : ", left for a person"}): ${message}`,
    )
    return { ...rec, ...patch }
  }
}

function sortRefunds(refunds: FilingRefundDTO[]): FilingRefundDTO[] {
  return [...refunds].sort((a, b) => (a.created_at?.getTime?.() ?? 0) - (b.created_at?.getTime?.() ?? 0))
}
