/**
 * Backfill, Medusa side: pages through the orders placed in a date range, turns each into a
 * BackfillOrder (the same snapshot the live filing takes: lines as charged, addresses, TICs,
 * exemption; its real completion date; its received returns as refunds keyed by return id), runs
 * the core, and writes a filing record for each order filed (with the filing module's own
 * ensureRecord / patchRecord / ensureRefund / patchRefund). The filing records are the ledger: an
 * order that has one is skipped (the live filing, the retry job and the sweep own it). A record
 * paused by a refused key is the retry job's: once a batch reaches the service (the key works),
 * every paused record is made due, so the retry job files them within its next minute.
 *
 * Used by the exec script (src/scripts/backfill-sales-tax.ts) and the admin action
 * (POST /admin/sales-tax/backfill).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { getSalesTaxClient } from "../../service/client-factory"
import { allApiKeys, optionsForConnection } from "../../service/connections"
import { amountString, dec } from "../../money"
import { getPluginOptions, type PluginOptions } from "../../options"
import { SALES_TAX_FILING_MODULE, type CompletionMode, type RefundItem } from "../../modules/sales-tax-filing/types"
import type SalesTaxFilingModuleService from "../../modules/sales-tax-filing/service"
import { deriveState, sanitizeError } from "../decisions"
import { buildSnapshot, completionInstant, ORDER_FIELDS, refundsShipping } from "../medusa"
import { RETURN_FIELDS, type AddedItemsRow, type OrderRow, type ReturnRow } from "../order-rows"
import { graph, graphPage } from "../../query"
import { newRecordFor } from "../processor"
import { KEY_REFUSED } from "../key-refused"
import {
  addBatch,
  backfillRunner,
  keyAccepted,
  newProgress,
  perOrigin,
  type BackfillLedger,
  type BackfillOrder,
  type BackfillProgress,
  type BackfilledOrder,
} from "./core"

export interface BackfillRange {
  from: Date
  to: Date
}

export interface BackfillRunOptions extends BackfillRange {
  batchSize?: number
  concurrency?: number
  onProgress?: (p: BackfillProgress) => void
  /** stop early (the admin's cancel); checked between batches */
  shouldStop?: () => boolean
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

/** The received quantities of an order's plain returns (not a claim's or an exchange's). */
type PastReturn = BackfillOrder["refunds"][number] & { refundShipping: boolean }

function returnRefunds(returns: ReturnRow[]): Map<string, PastReturn[]> {
  const m = new Map<string, PastReturn[]>()
  for (const r of returns) {
    if (r.claim_id || r.exchange_id || r.canceled_at) continue
    const items: RefundItem[] = (r.items ?? [])
      .map((i) => ({ itemId: i.item_id, quantity: dec(amountString(i.received_quantity)).toNumber() }))
      .filter((i) => i.quantity > 0)
    if (!items.length) continue
    const list = m.get(r.order_id) ?? []
    list.push({
      key: r.id,
      items,
      returnedAt: r.received_at ? new Date(r.received_at).toISOString() : null,
      refundShipping: refundsShipping(r.metadata),
    })
    m.set(r.order_id, list)
  }
  for (const list of m.values()) list.sort((a, b) => (a.returnedAt ?? "").localeCompare(b.returnedAt ?? ""))
  return m
}

/** One page of orders as BackfillOrders; canceled orders and orders with nothing to file are left out (counted in `notFiled`). */
export async function loadBackfillPage(
  container: MedusaContainer,
  options: PluginOptions,
  ids: string[],
): Promise<{ orders: BackfillOrder[]; notFiled: { orderId: string; reason: string }[]; failed: { orderId: string; error: string }[] }> {
  if (!ids.length) return { orders: [], notFiled: [], failed: [] }
  const [orders, claims, exchanges, returns] = await Promise.all([
    graph<OrderRow>(container, { entity: "order", fields: ORDER_FIELDS, filters: { id: ids } }),
    // additional_items.*: Medusa's Query (2.19-2.21) answers additional_items.item_id alone with no items for claims
    graph<AddedItemsRow & { order_id: string }>(container, {
      entity: "order_claim",
      fields: ["id", "order_id", "additional_items.*"],
      filters: { order_id: ids },
    }),
    graph<AddedItemsRow & { order_id: string }>(container, {
      entity: "order_exchange",
      fields: ["id", "order_id", "additional_items.*"],
      filters: { order_id: ids },
    }),
    graph<ReturnRow>(container, {
      entity: "return",
      fields: RETURN_FIELDS,
      filters: { order_id: ids },
    }),
  ])
  const refunds = returnRefunds(returns)
  const mode = options.completionMode as CompletionMode
  const out: BackfillOrder[] = []
  const notFiled: { orderId: string; reason: string }[] = []
  const failed: { orderId: string; error: string }[] = []
  for (const o of orders) {
    if (o.canceled_at || o.status === "canceled") {
      notFiled.push({ orderId: o.id, reason: "canceled: nothing to file" })
      continue
    }
    const order = {
      ...o,
      claims: claims.filter((c) => c.order_id === o.id),
      exchanges: exchanges.filter((x) => x.order_id === o.id),
    }
    let built: Awaited<ReturnType<typeof buildSnapshot>>
    try {
      built = await buildSnapshot(container, order, options, { kind: "order" })
    } catch (e) {
      // one order that cannot be read as charged does not stop the others; a rerun tries it again
      failed.push({ orderId: o.id, error: sanitizeError(e, [options.apiKey]) })
      continue
    }
    const { snapshot, reason, siblings, attention } = built
    if (attention) {
      // a US order a person must look at (issue 26): recorded as needs_attention, never filed by the backfill
      const store = container.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE)
      await store.ensureRecord(newRecordFor(o.id, snapshot, mode, new Date(), reason, true))
      notFiled.push({ orderId: o.id, reason: `needs attention: ${reason}` })
      continue
    }
    if (!snapshot) {
      notFiled.push({ orderId: o.id, reason: reason ?? "nothing to file" })
      continue
    }
    // the snapshot's item lines are the whole quantity as charged (buildSnapshot: wholeItemCharge,
    // tax-inclusive prices at their net); the returns are filed as refunds of their own
    const completed = mode === "placed" ? new Date(o.created_at) : completionInstant(order, mode)
    const parts = [snapshot, ...(siblings ?? [])]
    // a return that refunds shipping (metadata refund_shipping, as the live filing reads it) refunds the shipping lines too
    const shipping = parts.flatMap((p) => p.lines.filter((l) => l.kind === "shipping").map((l) => ({ itemId: l.itemId, quantity: 1 })))
    const past = (refunds.get(o.id) ?? []).map(({ refundShipping, ...r }) => ({
      ...r,
      items: refundShipping ? [...r.items, ...shipping] : r.items,
    }))
    // shipped from several locations: one service order per origin, each refunded for its own lines
    out.push(...perOrigin(o.id, parts, completed ? completed.toISOString() : null, past))
  }
  return { orders: out, notFiled, failed }
}

/** The filing records as the backfill's ledger. */
export function recordLedger(container: MedusaContainer, mode: CompletionMode): BackfillLedger {
  const store = container.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE)
  return {
    async filed(orderIds) {
      const rows = await store.listFilingRecords({ order_id: orderIds }, { select: ["order_id"], take: orderIds.length + 1 })
      return new Set(rows.map((r) => r.order_id))
    },
    async record(done: BackfilledOrder) {
      const s = done.order.snapshot
      const now = new Date()
      // no next attempt: the retry job must not pick the record up half-written
      const { record, created } = await store.ensureRecord({ ...newRecordFor(s.orderId, s, mode, now), next_attempt_at: null })
      if (!created) return // the live filing made it meanwhile: it owns the record
      const completedAt = done.completedDate ? new Date(done.completedDate) : null
      for (const r of done.refunds) {
        const { refund } = await store.ensureRefund(record.id, {
          order_id: s.orderId,
          source_type: "return",
          source_id: r.sourceId ?? r.key,
          idempotency_key: r.key,
          items: r.items,
          returned_at: r.returnedAt ? new Date(r.returnedAt) : null,
        })
        await store.patchRefund(refund.id, { state: "refunded", refunded_tax: r.refundedTax, refunded_at: now })
      }
      const patch = {
        filed_at: now,
        filing_path: "direct" as const,
        filed_tax: done.filedTax,
        completed_at: completedAt,
        completion_requested_at: mode === "placed" ? null : completedAt,
        last_step: "backfill",
        attempts: 0,
        next_attempt_at: null,
        last_error: null,
      }
      const fresh = (await store.findRecord(s.orderId))!
      const state = deriveState({ ...fresh, ...patch }, fresh.refunds ?? [], false)
      await store.patchRecord(record.id, { ...patch, state })
    },
  }
}

/**
 * Files every order placed in [from, to) that has no filing record yet. Pages of `batchSize`
 * (default 200) ordered by creation; the next page is read while the current one is at the
 * service. Returns the final progress (also given to `onProgress` after each page).
 */
export async function runBackfill(container: MedusaContainer, opts: BackfillRunOptions): Promise<BackfillProgress> {
  const options = getPluginOptions(container)
  const mode = options.completionMode as CompletionMode
  const batchSize = opts.batchSize ?? 200
  const total = await countOrders(container, opts)
  let progress = newProgress(total, new Date())
  opts.onProgress?.(progress)
  const runner = backfillRunner({
    client: getSalesTaxClient(options).background(),
    clientFor: (connectionId) => getSalesTaxClient(optionsForConnection(options, connectionId)).background(),
    ledger: recordLedger(container, mode),
    concurrency: opts.concurrency ?? 8,
    secrets: allApiKeys(options),
  })
  const page = async (skip: number) => {
    const data = await graph<{ id: string }>(container, {
      entity: "order",
      fields: ["id"],
      filters: rangeFilter(opts),
      pagination: { skip, take: batchSize, order: { created_at: "ASC", id: "ASC" } },
    })
    const ids = data.map((o) => o.id)
    return { ids, ...(await loadBackfillPage(container, options, ids)) }
  }
  // the next page is read while the current one is at the service; its failure surfaces at its
  // `await` below (the handler only keeps Node from calling it unhandled in the meantime)
  const prefetch = <T>(p: Promise<T>) => (p.catch(() => undefined), p)
  let skip = 0
  let resumed = false
  let next = prefetch(page(skip))
  for (;;) {
    const cur = await next
    if (!cur.ids.length) break
    skip += cur.ids.length
    next =
      cur.ids.length < batchSize || opts.shouldStop?.()
        ? Promise.resolve({ ids: [], orders: [], notFiled: [], failed: [] })
        : prefetch(page(skip))
    const out = await runner.runBatch(cur.orders)
    if (!resumed && keyAccepted(out)) {
      // the key works: the live filing's records paused by a refused key go again (the retry job)
      resumed = true
      await container.resolve<SalesTaxFilingModuleService>(SALES_TAX_FILING_MODULE).resumePaused(KEY_REFUSED, new Date())
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
