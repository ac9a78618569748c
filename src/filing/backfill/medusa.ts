/** Backfill, Medusa side (the exec script's and the admin's): the orders placed in a date range, page by page, as
 * BackfillOrders (the live filing's snapshot, completion date, received returns) for the core; the filing records are the ledger. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { getPluginOptions, type PluginOptions } from "../../options"
import type { CompletionMode } from "../../modules/sales-tax-filing/types"
import { sanitizeError } from "../decisions-retry"
import { buildSnapshot, completionInstant } from "../snapshot"
import { refundItems, returnedItems, type ReturnRow } from "../order-rows"
import { orderPages, readOrders } from "../order-reader"
import { graphPage } from "../../query"
import { newRecordFor } from "../processor-types"
import { filingProcessorDeps, filingStore } from "../processor-factory"
import { KEY_REFUSED } from "../key-refused"
import {
  addBatch,
  backfillRunner,
  keyAccepted,
  leavesAlone,
  newProgress,
  type BackfillLedger,
  type BackfillOrder,
  type BackfillRefund,
  type BackfillProgress,
} from "./core"
import type { rangeOf } from "./range"

type BackfillRange = ReturnType<typeof rangeOf>

export interface BackfillRunOptions extends BackfillRange {
  batchSize?: number
  concurrency?: number
  onProgress?: (p: BackfillProgress) => void
}

const rangeFilter = (r: BackfillRange) => ({ created_at: { $gte: r.from.toISOString(), $lt: r.to.toISOString() } })

/** Orders placed in [from, to). */
export async function countOrders(container: MedusaContainer, r: BackfillRange): Promise<number> {
  const { metadata } = await graphPage<{ id: string }>(container, {
    entity: "order",
    fields: ["id"],
    filters: rangeFilter(r),
    pagination: { skip: 0, take: 1 },
  })
  return metadata?.count ?? 0
}

/** Pure: an order's received plain returns (not a claim's or an exchange's, not canceled) as refunds, oldest first, with the
 * order's own shipping (`shippingIds`) when one refunds shipping. */
export function pastReturns(returns: ReturnRow[] | null | undefined, shippingIds: string[]): BackfillRefund[] {
  return (returns ?? [])
    .filter((r) => !r.claim_id && !r.exchange_id && !r.canceled_at && refundItems(r.items, (i) => i.received_quantity).length)
    .map((r) => ({
      key: r.id,
      items: returnedItems(r, shippingIds),
      returnedAt: r.received_at ? new Date(r.received_at).toISOString() : null,
    }))
    .sort((a, b) => (a.returnedAt ?? "").localeCompare(b.returnedAt ?? ""))
}

/** One page of orders as BackfillOrders; canceled orders and orders with nothing to file are left out (counted in `notFiled`). */
export async function loadBackfillPage(container: MedusaContainer, options: PluginOptions, ids: string[]) {
  const orders = await readOrders(container, ids)
  const mode = options.completionMode as CompletionMode
  const out: BackfillOrder[] = []
  const notFiled: { orderId: string; reason: string }[] = []
  const failed: { orderId: string; error: string }[] = []
  for (const o of orders) {
    if (o.canceled_at || o.status === "canceled") {
      notFiled.push({ orderId: o.id, reason: "canceled: nothing to file" })
      continue
    }
    const built = await buildSnapshot(container, o, options, { kind: "order" }).catch((e: unknown) => {
      // one order that cannot be read as charged does not stop the others; a rerun tries it again
      failed.push({ orderId: o.id, error: sanitizeError(e, [options.apiKey]) })
      return null
    })
    if (!built) continue
    const { snapshot, reason, siblings, attention } = built
    if (attention) {
      // a US order a person must look at: recorded as needs_attention when it has no record yet,
      // never filed here; only ensured, never run, so an existing record is left to its owner
      await filingStore(container).ensureRecord(newRecordFor(o.id, snapshot, mode, new Date(), reason, true))
      notFiled.push({ orderId: o.id, reason: `needs attention: ${reason}` })
      continue
    }
    if (!snapshot) {
      notFiled.push({ orderId: o.id, reason: reason ?? "nothing to file" })
      continue
    }
    // the snapshot's lines are the whole quantity as charged; the returns are filed as refunds of their own
    const completed = mode === "placed" ? new Date(o.created_at) : completionInstant(o, mode)
    const shipping = [snapshot, ...(siblings ?? [])].flatMap((p) => p.lines.filter((l) => l.kind === "shipping").map((l) => l.itemId))
    const refunds = pastReturns(o.returns, shipping)
    // the processor routes each return's lines to the origin's service order holding them
    out.push({ snapshot, ...(siblings?.length ? { siblings } : {}), completedAt: completed ? completed.toISOString() : null, refunds })
  }
  return { orders: out, notFiled, failed }
}

/** The filing records as the backfill's ledger: an order that has one is skipped. */
export function recordLedger(container: MedusaContainer): BackfillLedger {
  const store = filingStore(container)
  return {
    async filed(orderIds) {
      const rows = await store.listFilingRecords(
        { order_id: orderIds },
        { select: ["order_id", "state", "snapshot"], take: orderIds.length + 1 },
      )
      return new Set(rows.filter((r) => leavesAlone(r)).map((r) => r.order_id))
    },
  }
}

/** Files every order placed in [from, to) without a filing record; returns the final progress. */
export async function runBackfill(container: MedusaContainer, opts: BackfillRunOptions): Promise<BackfillProgress> {
  const options = getPluginOptions(container)
  const total = await countOrders(container, opts)
  let progress = newProgress(total, new Date())
  opts.onProgress?.(progress)
  const runner = backfillRunner({
    processor: filingProcessorDeps(container),
    mode: options.completionMode as CompletionMode,
    ledger: recordLedger(container),
    concurrency: opts.concurrency ?? 8,
  })
  const pages = orderPages(container, rangeFilter(opts), opts.batchSize ?? 200)
  const page = async () => {
    const next = await pages.next()
    const ids = next.done ? [] : next.value.map((o) => o.id)
    return ids.length ? loadBackfillPage(container, options, ids) : null
  }
  // the next page is read while the current one is at the service; its failure surfaces at its
  // `await` below (the handler only keeps Node from calling it unhandled in the meantime)
  const prefetch = <T>(p: Promise<T>) => (p.catch(() => undefined), p)
  let resumed = false
  let next = prefetch(page())
  for (let cur = await next; cur; cur = await next) {
    next = prefetch(page())
    const out = await runner.runBatch(cur.orders)
    if (!resumed && keyAccepted(out)) {
      // the key works: the live filing's records paused by a refused key go again (the retry job)
      resumed = true
      await filingStore(container).resumePaused(KEY_REFUSED, new Date())
    }
    out.skipped += cur.notFiled.length
    out.failed.push(...cur.failed)
    progress = addBatch(progress, out, new Date())
    opts.onProgress?.(progress)
  }
  progress = { ...progress, finishedAt: new Date().toISOString(), etaSeconds: null }
  opts.onProgress?.(progress)
  return progress
}
