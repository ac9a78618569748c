/**
 * Backfill core: files batches of historical orders through the FilingProcessor, each directly as
 * charged and dated when placed, then each received return as a refund keyed by its return id.
 * Orders run concurrently up to `concurrency`; one order's work in sequence under its lock. Never
 * twice (ids and keys from Medusa ids) and resumable (the ledger skips orders with a record); a
 * failed order stays failed on its record for the retry job. No Medusa import: the bench drives it.
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

export interface BackfillOrder {
  /** the order as charged (the first origin's service order when it shipped from several) */
  snapshot: FilingSnapshot
  /** the other origins' service orders (one per stock location the lines shipped from) */
  siblings?: FilingSnapshot[]
  /** when the order became complete (ISO); null: filed with completed=false */
  completedAt: string | null
  /** its received returns, oldest first */
  refunds: BackfillRefund[]
}

/** Where the backfill finds what has a record already: the filing records in Medusa, nothing in the bench. */
export interface BackfillLedger {
  /** of `orderIds`, the ones whose record the backfill leaves alone (`leavesAlone`): skipped without a call */
  filed(orderIds: string[]): Promise<Set<string>>
}

/** Pure: whether the backfill skips an order's record: every record but a failed one of its own (the live filing owns the rest). */
export function leavesAlone(r: { state: string; snapshot?: Pick<FilingSnapshot, "backfill"> | null }): boolean {
  return !(r.state === "failed" && r.snapshot?.backfill)
}

export interface BatchOutcome {
  /** orders sent to the service by this batch (new at the service or already there) */
  filed: number
  /** of those, orders the service already held */
  alreadyAtService: number
  /** orders the ledger said were filed: no call */
  skipped: number
  refunds: number
  failed: { orderId: string; error: string }[]
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

export interface BackfillRunner {
  runBatch(batch: BackfillOrder[]): Promise<BatchOutcome>
}

export function backfillRunner(deps: {
  /** the processor's store, clients, lock, attempts and secrets (its `onFiled` is the runner's) */
  processor: Omit<FilingProcessorDeps, "onFiled">
  /** the records' completion mode (plugin option completionMode) */
  mode: CompletionMode
  ledger: BackfillLedger
  /** orders in flight at once (default 16) */
  concurrency?: number
}): BackfillRunner {
  const limit = pLimit(deps.concurrency ?? 16)
  // the orders the service already held, as the client's compare-on-duplicate answered
  const already = new Set<string>()
  const processor = new FilingProcessor({ ...deps.processor, onFiled: (f) => void (f.alreadyExisted && already.add(f.orderId)) })
  const now = () => deps.processor.now?.() ?? new Date()

  async function fileOne(o: BackfillOrder): Promise<{ alreadyExisted: boolean; refunds: number; error: string | null }> {
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
    const out = orderOutcome(records)
    const alreadyExisted = already.has(o.snapshot.orderId)
    for (const id of ids) already.delete(id)
    return { alreadyExisted, refunds: out.refunds, error: out.error }
  }

  return {
    async runBatch(batch) {
      const out: BatchOutcome = { filed: 0, alreadyAtService: 0, skipped: 0, refunds: 0, failed: [] }
      const done = await deps.ledger.filed(batch.map((o) => o.snapshot.orderId))
      await Promise.all(
        batch.map((o) => {
          if (done.has(o.snapshot.orderId)) {
            out.skipped++
            return undefined
          }
          return limit(async () => {
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
          })
        }),
      )
      return out
    },
  }
}

// Progress (the command line bar and the admin both show it)

/**
 * A backfill's progress: `errors` keeps the last few failures (order id and message), `etaSeconds`
 * the seconds left at the current rate (null before the first batch or when done).
 */
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

/**
 * Pure: the batch reached the service with a key it accepts (an order filed, or found already
 * there): the live filing's records paused by a refused key (key-refused.ts) can go again now.
 */
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
