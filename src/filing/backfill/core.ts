/**
 * Backfill core: turns batches of historical order snapshots into service calls. Each order is
 * filed with `POST orders` (the tax that was charged per line, transactionDate = when it was
 * placed, completedDate = when it was completed), then each of its returns is refunded with
 * `POST orders/refunds/{orderId}` under the return's Medusa id as idempotency key. Orders run
 * concurrently up to `concurrency` (p-limit); one order's calls run in sequence.
 *
 * Never twice: the orderId is the Medusa order id (a duplicate is answered "already existed" by
 * the client after comparing what the service holds) and refund keys are Medusa return ids (the
 * service replays them), so a rerun, a crash mid-batch or a concurrent live filing adds nothing.
 * Resumable: the ledger names the orders already filed; they are skipped without any call.
 * No Medusa import here: the bench drives this file alone (bench/backfill.bench.ts).
 */
import pLimit from "p-limit"
import type { CreateOrderRequest, OrderRecord, RefundRecord, RefundRequest } from "../../service/contract"
import type { FilingSnapshot, RefundItem } from "../../modules/sales-tax-filing/types"
import { childRefundKey, directOrderRequest, orderTaxTotal, refundTaxTotal, sanitizeError } from "../decisions"

export interface BackfillRefund {
  /** the refund's idempotency key: the Medusa return id (on another origin's order: `<return id>:<that order id>`) */
  key: string
  /** the Medusa return id when it is not the key */
  sourceId?: string
  items: RefundItem[]
  returnedAt: string | null
}

export interface BackfillOrder {
  snapshot: FilingSnapshot
  /** when the order became complete (ISO); null: filed with completed=false */
  completedAt: string | null
  refunds: BackfillRefund[]
}

export interface BackfilledRefund {
  key: string
  sourceId?: string
  items: RefundItem[]
  refundedTax: number
  replayed: boolean
  returnedAt: string | null
}

export interface BackfilledOrder {
  order: BackfillOrder
  filedTax: number
  completedDate: string | null
  /** the service already held the order (an earlier run, or the live filing) */
  alreadyExisted: boolean
  refunds: BackfilledRefund[]
}

/** Where the backfill keeps what it filed: the filing records in Medusa, a Set in the bench. */
export interface BackfillLedger {
  /** of `orderIds`, the ones already filed (skipped without a call) */
  filed(orderIds: string[]): Promise<Set<string>>
  /** called once the order and its refunds are at the service */
  record(done: BackfilledOrder): Promise<void>
}

/** The two service calls the backfill makes (SalesTaxClient has them). */
export interface BackfillClient {
  createOrder(body: CreateOrderRequest): Promise<{ order: OrderRecord; alreadyExisted: boolean }>
  refundOrder(orderId: string, body: RefundRequest): Promise<{ refunds: RefundRecord[]; idempotencyKey: string; replayed: boolean }>
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

/**
 * Pure: a historical order shipped from several locations as one BackfillOrder per origin (the
 * snapshots `buildSnapshot` split, the order's own first), each with the part of every return
 * that its lines hold; on another origin's order a refund's key is `<return id>:<that order id>`,
 * as the live filing keys it (so a later live event for the same return adds nothing).
 */
export function perOrigin(
  medusaOrderId: string,
  parts: FilingSnapshot[],
  completedAt: string | null,
  refunds: BackfillRefund[],
): BackfillOrder[] {
  return parts.map((snapshot) => {
    const held = new Set(snapshot.lines.map((l) => l.itemId))
    return {
      snapshot,
      completedAt,
      refunds: refunds
        .map((r) => ({
          key: childRefundKey(r.key, snapshot.orderId, medusaOrderId),
          ...(snapshot.orderId === medusaOrderId ? {} : { sourceId: r.sourceId ?? r.key }),
          items: r.items.filter((i) => held.has(i.itemId)),
          returnedAt: r.returnedAt,
        }))
        .filter((r) => r.items.length),
    }
  })
}

/** The `POST orders` body of a historical order: the charged tax per line, its real dates. */
export function backfillOrderRequest(o: BackfillOrder): CreateOrderRequest {
  const completion = o.completedAt ? { completed: true, completedDate: o.completedAt } : { completed: false }
  // cartId kept (the Medusa cart id): the live filing sends the same one, so a duplicate compares equal
  return directOrderRequest(o.snapshot, completion, o.snapshot.placedAt)
}

export interface BackfillRunner {
  runBatch(batch: BackfillOrder[]): Promise<BatchOutcome>
}

export function backfillRunner(deps: {
  client: BackfillClient
  /** the client of a non-default connection (a snapshot's `connectionId`, option `connections`) */
  clientFor?: (connectionId: string) => BackfillClient
  ledger: BackfillLedger
  /** orders in flight at once (default 16) */
  concurrency?: number
  /** strings never to appear in an error message (the API key) */
  secrets?: (string | undefined)[]
}): BackfillRunner {
  const limit = pLimit(deps.concurrency ?? 16)

  async function fileOne(o: BackfillOrder): Promise<{ alreadyExisted: boolean; refunds: number }> {
    const s = o.snapshot
    const client = s.connectionId && deps.clientFor ? deps.clientFor(s.connectionId) : deps.client
    const { order, alreadyExisted } = await client.createOrder(backfillOrderRequest(o))
    const refunds: BackfilledRefund[] = []
    for (const r of o.refunds) {
      if (!r.items.length) continue
      const res = await client.refundOrder(s.orderId, {
        items: r.items,
        idempotencyKey: r.key,
        ...(r.returnedAt ? { returnedDate: r.returnedAt } : {}),
      })
      refunds.push({
        key: r.key,
        ...(r.sourceId ? { sourceId: r.sourceId } : {}),
        items: r.items,
        refundedTax: Math.abs(refundTaxTotal(res.refunds)),
        replayed: res.replayed,
        returnedAt: r.returnedAt,
      })
    }
    await deps.ledger.record({
      order: o,
      filedTax: orderTaxTotal(order),
      completedDate: order.completedDate ?? null,
      alreadyExisted,
      refunds,
    })
    return { alreadyExisted, refunds: refunds.length }
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
              out.filed++
              if (r.alreadyExisted) out.alreadyAtService++
              out.refunds += r.refunds
            } catch (e) {
              out.failed.push({ orderId: o.snapshot.orderId, error: sanitizeError(e, deps.secrets ?? []) })
            }
          })
        }),
      )
      return out
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Progress (the command line bar and the admin both show it)
// ---------------------------------------------------------------------------------------------

export interface BackfillProgress {
  total: number
  processed: number
  filed: number
  alreadyAtService: number
  skipped: number
  refunds: number
  failed: number
  /** the last few failures (order id and message) */
  errors: { orderId: string; error: string }[]
  startedAt: string
  finishedAt: string | null
  ordersPerSecond: number
  /** seconds left at the current rate; null before the first batch or when done */
  etaSeconds: number | null
}

export function newProgress(total: number, now: Date): BackfillProgress {
  return {
    total,
    processed: 0,
    filed: 0,
    alreadyAtService: 0,
    skipped: 0,
    refunds: 0,
    failed: 0,
    errors: [],
    startedAt: now.toISOString(),
    finishedAt: null,
    ordersPerSecond: 0,
    etaSeconds: null,
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
