/** The processor's record reads and writes, and what a failed step leaves (back-off, or a pause while the key is refused). */
import type { FilingRecordDTO, FilingRefundDTO, RecordPatch, RefundItem, RefundSource } from "../modules/sales-tax-filing/types"
import { childRefundKey } from "./decisions-refunds"
import { refundKey } from "./decisions"
import { backoffDelay } from "../service/client"
import { DEFAULT_BACKOFF, sanitizeError } from "./decisions-retry"
import { KEY_REFUSED, KEY_REFUSED_MESSAGE, planFailure } from "./key-refused"
import type { FilingProcessorDeps } from "./processor-types"

export class RecordWriter {
  readonly now: () => Date

  constructor(private readonly deps: FilingProcessorDeps) {
    this.now = deps.now ?? (() => new Date())
  }

  async rootId(orderId: string): Promise<string> {
    const rec = await this.deps.store.findRecord(orderId)
    return rec?.parent_order_id ?? orderId
  }

  async reload(orderId: string): Promise<FilingRecordDTO> {
    const r = await this.deps.store.findRecord(orderId)
    if (!r) throw new Error(`filing record for ${orderId} vanished`)
    return r
  }

  async patch(rec: FilingRecordDTO, patch: RecordPatch): Promise<FilingRecordDTO> {
    await this.deps.store.patchRecord(rec.id, patch)
    return { ...rec, ...patch }
  }

  /** Records a refund row on `home` (its key: `refundKey`, with `:<home's order id>` off the root's record); true when new. */
  async ensureRefund(
    home: Pick<FilingRecordDTO, "id" | "order_id">,
    rootOrderId: string,
    source: RefundSource,
    sourceId: string,
    items: RefundItem[],
    at: Date | null,
  ): Promise<boolean> {
    const key = childRefundKey(refundKey(source, sourceId), home.order_id, rootOrderId)
    const row = { order_id: home.order_id, source_type: source, source_id: sourceId, idempotency_key: key, items, returned_at: at }
    return (await this.deps.store.ensureRefund(home.id, row)).created
  }

  /** A needs_attention record waits for a person: its intents schedule nothing; canceled before it was filed, skipped. */
  async parked(rec: FilingRecordDTO): Promise<FilingRecordDTO> {
    if (rec.cancel_requested_at && !rec.filed_at) {
      return this.patch(rec, {
        state: "skipped",
        next_attempt_at: null,
        last_error: `canceled before it was filed: nothing to file (was: ${rec.last_error ?? "needs attention"})`.slice(0, 1000),
      })
    }
    return rec.next_attempt_at ? this.patch(rec, { next_attempt_at: null }) : rec
  }

  /** The service accepts the key again: the other records paused by a refused key are made due now. */
  async resumePaused(orderId: string): Promise<void> {
    try {
      const n = (await this.deps.store.resumePaused?.(KEY_REFUSED, this.now())) ?? 0
      this.deps.logger?.info(`sales-tax filing: ${orderId} went through after a refused key; ${n} other paused records made due`)
    } catch (e) {
      // this record is filed; the others still come due on their own back-off
      this.deps.logger?.warn(`sales-tax filing: paused records not made due (${sanitizeError(e, this.deps.secrets ?? [])})`)
    }
  }

  async fail(orderId: string, step: string, err: unknown, refund: FilingRefundDTO | null): Promise<FilingRecordDTO | null> {
    const { store } = this.deps
    const message = sanitizeError(err, this.deps.secrets ?? [])
    const rec = await store.findRecord(orderId)
    if (!rec) return null
    // a refused key (401/403) pauses the record: retried with back-off, never left for a person (key-refused.ts)
    const { attempts, retry: again, paused } = planFailure(err, rec, this.deps.maxAttempts)
    const { baseMs: baseDelayMs, maxMs: maxDelayMs } = this.deps.backoff ?? DEFAULT_BACKOFF
    const next = again ? new Date(this.now().getTime() + backoffDelay(attempts, { baseDelayMs, maxDelayMs })) : null
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
