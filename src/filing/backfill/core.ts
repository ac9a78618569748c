/**
 * Backfill core (no Medusa import: the bench drives it): files historical orders through the FilingProcessor, directly as
 * charged and dated when placed, then each received return as a refund keyed by its id; `concurrency` orders at once. Never
 * twice (Medusa ids) and resumable (the ledger skips orders with a record); a failed order stays failed for the retry job.
 */
import pLimit from "p-limit"
import type { CompletionMode, FilingRecordDTO, FilingSnapshot, NewRecord, RefundItem } from "../../modules/sales-tax-filing/types"
import { sanitizeError } from "../decisions-retry"
import { FilingProcessor } from "../processor"
import { recordOf, type FilingProcessorDeps } from "../processor-types"

export interface BackfillRefund {
  /** the Medusa return id (the refund's idempotency key) */
  key: string
  items: RefundItem[]
  returnedAt: string | null
}

/** `snapshot`: the first origin's service order, `siblings` the other origins'; `completedAt` null: filed not completed. */
export interface BackfillOrder {
  snapshot: FilingSnapshot
  siblings?: FilingSnapshot[]
  completedAt: string | null
  /** its received returns, oldest first */
  refunds: BackfillRefund[]
}

/** What has a record already (the filing records in Medusa): of `orderIds`, those the backfill leaves alone (`leavesAlone`). */
export interface BackfillLedger {
  filed(orderIds: string[]): Promise<Set<string>>
}

/** Pure: whether the backfill skips an order's record: every record but a failed one of its own (the live filing owns the rest). */
export function leavesAlone(r: { state: string; snapshot?: Pick<FilingSnapshot, "backfill"> | null }): boolean {
  return !(r.state === "failed" && r.snapshot?.backfill)
}

/** `filed`: orders this batch sent to the service, `alreadyAtService` of them it held already; `skipped`: the ledger's. */
export type BatchOutcome = Pick<BackfillProgress, "filed" | "alreadyAtService" | "skipped" | "refunds"> & {
  failed: BackfillProgress["errors"]
}

/** Pure: a historical order's records, marked `backfill` (filed directly as charged), the other origins as siblings. */
export function backfillRecord(o: Pick<BackfillOrder, "snapshot" | "siblings">, mode: CompletionMode, now: Date): NewRecord {
  const backfill = (s: FilingSnapshot) => ({ ...s, backfill: true })
  return recordOf(o.snapshot.orderId, { snapshot: backfill(o.snapshot), siblings: o.siblings?.map(backfill) }, mode, now)
}

/** Pure: what a historical order's records say after the processor ran: filed, the refunds sent, or the first failure. */
export function orderOutcome(records: (FilingRecordDTO | null)[]): { filed: boolean; refunds: number; error: string | null } {
  const at = records.findIndex((r) => !r || r.state === "failed" || !r.filed_at)
  const refunds = records.reduce(
    (n, r) => n + (r?.refunds ?? []).filter((x) => x.source_type === "return" && x.state === "refunded").length,
    0,
  )
  if (at < 0) return { filed: true, refunds, error: null }
  const failed = records[at]
  return { filed: false, refunds, error: failed?.last_error ?? `not filed (${failed?.state ?? "no record"})` }
}

export function backfillRunner(deps: {
  processor: Omit<FilingProcessorDeps, "onFiled">
  mode: CompletionMode
  ledger: BackfillLedger
  concurrency?: number
}) {
  const limit = pLimit(deps.concurrency ?? 16)
  // the orders the service already held, as the client's compare-on-duplicate answered
  const already = new Set<string>()
  const processor = new FilingProcessor({ ...deps.processor, onFiled: (f) => void (f.alreadyExisted && already.add(f.orderId)) })
  const now = () => deps.processor.now?.() ?? new Date()

  async function fileOne(o: BackfillOrder) {
    const record = backfillRecord(o, deps.mode, now())
    // a completion mode other than "placed": filed complete as of when it was completed
    const completedAt = deps.mode !== "placed" && o.completedAt ? new Date(o.completedAt) : null
    await processor.fileOrder(record, { completedAt })
    for (const r of o.refunds) {
      if (!r.items.length) continue
      await processor.refund(record, {
        source: "return",
        sourceId: r.key,
        items: r.items,
        returnedAt: r.returnedAt ? new Date(r.returnedAt) : null,
      })
    }
    const ids = [o.snapshot.orderId, ...(o.siblings ?? []).map((s) => s.orderId)]
    const records = await Promise.all(ids.map((id) => deps.processor.store.findRecord(id)))
    const alreadyExisted = already.has(o.snapshot.orderId)
    for (const id of ids) already.delete(id)
    return { alreadyExisted, ...orderOutcome(records) }
  }

  return {
    async runBatch(batch: BackfillOrder[]): Promise<BatchOutcome> {
      const done = await deps.ledger.filed(batch.map((o) => o.snapshot.orderId))
      const todo = batch.filter((o) => !done.has(o.snapshot.orderId))
      const out: BatchOutcome = { filed: 0, alreadyAtService: 0, skipped: batch.length - todo.length, refunds: 0, failed: [] }
      await Promise.all(
        todo.map((o) =>
          limit(async () => {
            try {
              const r = await fileOne(o)
              if (r.error) {
                out.failed.push({ orderId: o.snapshot.orderId, error: r.error })
                return
              }
              out.filed++
              if (r.alreadyExisted) out.alreadyAtService++
              out.refunds += r.refunds
            } catch (e) {
              out.failed.push({ orderId: o.snapshot.orderId, error: sanitizeError(e, deps.processor.secrets ?? []) })
            }
          }),
        ),
      )
      return out
    },
  }
}

/** A backfill's progress (the command line's bar, the admin's): the last few `errors`; `etaSeconds` null before a batch or done. */
export type BackfillProgress = ReturnType<typeof newProgress>

export function newProgress(total: number, now: Date) {
  return {
    total,
    processed: 0,
    filed: 0,
    alreadyAtService: 0,
    skipped: 0,
    refunds: 0,
    failed: 0,
    errors: [] as { orderId: string; error: string }[],
    startedAt: now.toISOString(),
    finishedAt: null as string | null,
    ordersPerSecond: 0,
    etaSeconds: null as number | null,
  }
}

/** Pure: the batch reached the service with a key it accepts: the records paused by a refused key can go again. */
export function keyAccepted(b: Pick<BatchOutcome, "filed">): boolean {
  return b.filed > 0
}

/** Adds a batch's outcome; rate and ETA from the elapsed time since the start. */
export function addBatch(p: BackfillProgress, b: BatchOutcome, now: Date, keepErrors = 20): BackfillProgress {
  const processed = p.processed + b.filed + b.skipped + b.failed.length
  const elapsed = Math.max(0.001, (now.getTime() - new Date(p.startedAt).getTime()) / 1000)
  const rate = processed / elapsed
  const left = Math.max(0, p.total - processed)
  return {
    ...p,
    processed,
    filed: p.filed + b.filed,
    alreadyAtService: p.alreadyAtService + b.alreadyAtService,
    skipped: p.skipped + b.skipped,
    refunds: p.refunds + b.refunds,
    failed: p.failed + b.failed.length,
    errors: [...p.errors, ...b.failed].slice(-keepErrors),
    ordersPerSecond: Math.round(rate * 10) / 10,
    etaSeconds: rate > 0 ? Math.round(left / rate) : null,
  }
}
