/**
 * The backfill core against the sandbox over loopback HTTP, through the FilingProcessor on the
 * in-memory store: historical orders filed with their dates and charged tax, returns refunded
 * under their keys, the records the processor writes, and a rerun that adds nothing (proved by
 * what the service holds and its request counts).
 */
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../../service/client"
import { API_KEY, CONNECTION_ID, chargedSnapshot, controls } from "../../../integration-tests/filing-helpers/kit"
import { MemoryFilingStore, memoryLock } from "../__tests__/memory-store"
import type { CompletionMode, FilingRecordDTO } from "../../modules/sales-tax-filing/types"
import {
  addBatch,
  backfillRecord,
  backfillRunner,
  keyAccepted,
  leavesAlone,
  newProgress,
  orderOutcome,
  type BackfillLedger,
  type BackfillOrder,
} from "./core"

let sb: RunningSandbox
let client: SalesTaxClient
let ctl: ReturnType<typeof controls>

beforeAll(async () => {
  sb = await startSandbox({ apiKey: API_KEY, connectionId: CONNECTION_ID })
  client = new SalesTaxClient({ baseUrl: sb.url, apiKey: API_KEY, connectionId: CONNECTION_ID, retry: false })
  ctl = controls(sb.url)
})
afterAll(() => sb.close())
beforeEach(async () => {
  await ctl.reset()
})

const placed = new Date("2026-03-14T15:00:00.000Z")
const completed = "2026-03-16T10:00:00.000Z"

async function historical(n: number, withReturn: (i: number) => boolean): Promise<BackfillOrder[]> {
  const out: BackfillOrder[] = []
  for (let i = 0; i < n; i++) {
    const s = await chargedSnapshot(
      client,
      { orderId: `order_hist_${i}`, cartId: `cart_hist_${i}` },
      [
        { price: 20, quantity: 3 },
        { price: 9.5, quantity: 1, shipping: true },
      ],
      { placedAt: placed },
    )
    out.push({
      snapshot: s,
      completedAt: completed,
      refunds: withReturn(i)
        ? [{ key: `ret_hist_${i}`, items: [{ itemId: s.lines[0]!.itemId, quantity: 2 }], returnedAt: "2026-04-02T00:00:00.000Z" }]
        : [],
    })
  }
  return out
}

/** The processor's records as the ledger (as the app's recordLedger reads the filing module). */
function storeLedger(store: MemoryFilingStore): BackfillLedger {
  return {
    filed: async (ids) =>
      new Set([...store.records.values()].filter((r) => ids.includes(r.order_id) && leavesAlone(r)).map((r) => r.order_id)),
  }
}

function runner(opts: { store?: MemoryFilingStore; c?: SalesTaxClient; mode?: CompletionMode; concurrency?: number } = {}) {
  const store = opts.store ?? new MemoryFilingStore()
  const r = backfillRunner({
    processor: { store, client: opts.c ?? client, lock: memoryLock(), maxAttempts: 5, secrets: [API_KEY] },
    mode: opts.mode ?? "captured",
    ledger: storeLedger(store),
    concurrency: opts.concurrency ?? 3,
  })
  return { store, runBatch: r.runBatch }
}

const rec = async (store: MemoryFilingStore, id: string) => (await store.findRecord(id))!

describe("backfill core", () => {
  it("files each order through the processor with its real dates and the charged tax; returns refunded under the return id", async () => {
    const orders = await historical(4, (i) => i % 2 === 0)
    await ctl.resetCounts()
    const { store, runBatch } = runner()
    const out = await runBatch(orders)
    expect(out).toEqual({ filed: 4, alreadyAtService: 0, skipped: 0, refunds: 2, failed: [] })
    const svc = await client.getOrder("order_hist_0", { expandRefunds: true })
    expect(svc.transactionDate).toBe(placed.toISOString())
    expect(svc.completedDate).toBe(completed)
    expect(svc.cartId).toBe("cart_hist_0")
    expect(svc.lineItems.map((l) => l.tax.amount)).toEqual(orders[0]!.snapshot.lines.map((l) => l.chargedTax))
    expect(svc.refunds?.map((r) => [r.idempotencyKey, r.items.map((i) => Math.abs(i.quantity))])).toEqual([["ret_hist_0", [2]]])
    // the records the processor wrote: filed directly, completed as of then, the return refunded
    const r0 = await rec(store, "order_hist_0")
    const charged = orders[0]!.snapshot.lines.reduce((a, l) => a + Math.round(l.chargedTax * 100), 0) / 100
    expect(r0).toMatchObject({
      state: "partially_refunded",
      filing_path: "direct",
      last_step: "backfill",
      filed_tax: charged,
      completed_at: new Date(completed),
      completion_requested_at: new Date(completed),
      next_attempt_at: null,
    })
    expect(r0.snapshot?.backfill).toBe(true)
    expect(r0.refunds?.map((x) => [x.idempotency_key, x.source_type, x.source_id, x.state])).toEqual([
      ["ret_hist_0", "return", "ret_hist_0", "refunded"],
    ])
    expect(Number(r0.refunds![0]!.refunded_tax)).not.toBe(0)
    // no re-quote, no cart conversion: one order and one refund call each
    expect(await ctl.counts()).toMatchObject({ createOrder: 4, refundOrder: 2, calculateCarts: 0, cartToOrder: 0 })
  })

  it("a rerun skips what has a record without any call; records lost, the service's answers keep it single", async () => {
    const orders = await historical(3, () => true)
    const first = runner()
    await first.runBatch(orders)
    await ctl.resetCounts()
    const again = await first.runBatch(orders)
    expect(again).toEqual({ filed: 0, alreadyAtService: 0, skipped: 3, refunds: 0, failed: [] })
    expect(Object.values(await ctl.counts()).reduce((a, b) => a + b, 0)).toBe(0)
    // the records were lost: everything is sent again, and nothing is added at the service
    const lost = runner()
    const replay = await lost.runBatch(orders)
    expect(replay).toMatchObject({ filed: 3, alreadyAtService: 3, refunds: 3, failed: [] })
    for (const o of orders) {
      const svc = await client.getOrder(o.snapshot.orderId, { expandRefunds: true })
      expect(svc.refunds).toHaveLength(1)
    }
  })

  it("a failing order is reported (no key in the message), left failed on its record, and the others go on; the next run files it", async () => {
    const orders = await historical(3, () => false)
    const { store, runBatch } = runner({ concurrency: 1 })
    await ctl.fault({ operation: "createOrder", status: 500, count: 1 })
    const out = await runBatch(orders)
    expect(out.filed).toBe(2)
    expect(out.failed).toHaveLength(1)
    expect(out.failed[0]!.error).toMatch(/^file: HTTP 500/)
    expect(out.failed[0]!.error).not.toContain(API_KEY)
    expect((await rec(store, out.failed[0]!.orderId)).state).toBe("failed")
    const next = await runBatch(orders)
    expect(next).toMatchObject({ filed: 1, skipped: 2, failed: [] })
    expect((await rec(store, out.failed[0]!.orderId)).state).toBe("completed")
  })

  it("an order not completed yet is filed with completed=false", async () => {
    const [o] = await historical(1, () => false)
    const { store, runBatch } = runner()
    expect(await runBatch([{ ...o!, completedAt: null }])).toMatchObject({ filed: 1, failed: [] })
    const svc = await client.getOrder(o!.snapshot.orderId)
    expect([svc.completedDate ?? null, svc.transactionDate]).toEqual([null, placed.toISOString()])
    expect(await rec(store, o!.snapshot.orderId)).toMatchObject({ state: "filed", completed_at: null, completion_requested_at: null })
  })

  it("a live record (even a failed one) is left alone; a failed one of the backfill's is filed again", () => {
    const s = { backfill: true } as const
    expect([
      leavesAlone({ state: "failed", snapshot: null }),
      leavesAlone({ state: "failed", snapshot: {} }),
      leavesAlone({ state: "completed", snapshot: s }),
      leavesAlone({ state: "failed", snapshot: s }),
    ]).toEqual([true, true, true, false])
  })
})

describe("backfill records (pure)", () => {
  it("the snapshot and its other origins' marked backfill, the others as the order's origin siblings", async () => {
    const [o] = await historical(1, () => false)
    const sib = { ...o!.snapshot, orderId: `${o!.snapshot.orderId}~0a1b2c3d`, parentOrderId: o!.snapshot.orderId, lines: [] }
    const now = new Date("2026-04-01T00:00:00Z")
    const r = backfillRecord({ snapshot: o!.snapshot, siblings: [sib] }, "captured", now)
    expect([r.order_id, r.snapshot?.backfill, r.state, r.next_attempt_at]).toEqual([o!.snapshot.orderId, true, "pending", now])
    expect(r.origin_siblings?.map((x) => [x.order_id, x.parent_order_id, x.snapshot?.backfill])).toEqual([
      [sib.orderId, o!.snapshot.orderId, true],
    ])
    expect(backfillRecord({ snapshot: o!.snapshot }, "placed", now).origin_siblings).toBeUndefined()
  })

  it("an order's outcome: filed when every record is at the service; else the first failure's error", () => {
    const r = (x: Partial<FilingRecordDTO>) =>
      ({ state: "filed", filed_at: new Date(), refunds: [], last_error: null, ...x }) as FilingRecordDTO
    const refund = { source_type: "return", state: "refunded" } as NonNullable<FilingRecordDTO["refunds"]>[number]
    expect(orderOutcome([r({ refunds: [refund] }), r({ refunds: [refund, { ...refund, source_type: "edit" }] })])).toEqual({
      filed: true,
      refunds: 2,
      error: null,
    })
    expect(orderOutcome([r({}), r({ state: "failed", filed_at: null, last_error: "file: HTTP 500" })])).toEqual({
      filed: false,
      refunds: 0,
      error: "file: HTTP 500",
    })
    expect(orderOutcome([null])).toEqual({ filed: false, refunds: 0, error: "not filed (no record)" })
  })
})

describe("backfill progress", () => {
  it("counts, rate and ETA from the elapsed time", () => {
    const t0 = new Date("2026-01-01T00:00:00Z")
    let p = newProgress(1000, t0)
    p = addBatch(
      p,
      { filed: 180, alreadyAtService: 5, skipped: 15, refunds: 30, failed: [{ orderId: "o1", error: "x" }] },
      new Date(t0.getTime() + 2000),
    )
    expect(p).toMatchObject({
      processed: 196,
      filed: 180,
      skipped: 15,
      failed: 1,
      refunds: 30,
      ordersPerSecond: 98,
      etaSeconds: 8,
      errors: [{ orderId: "o1", error: "x" }],
    })
  })
})

describe("a refused key (issue 27)", () => {
  it("a batch on a refused key files nothing (its records paused); with the fixed key the rerun files them", async () => {
    const orders = await historical(2, () => false)
    const store = new MemoryFilingStore()
    const wrong = new SalesTaxClient({ baseUrl: sb.url, apiKey: "sk_test_rotated_by_mistake", connectionId: CONNECTION_ID, retry: false })
    const refused = await runner({ store, c: wrong, concurrency: 1 }).runBatch(orders)
    expect(refused.failed.map((f) => f.error.slice(0, 14))).toEqual(["file: HTTP 401", "file: HTTP 401"])
    expect(keyAccepted(refused)).toBe(false)
    expect((await rec(store, orders[0]!.snapshot.orderId)).paused_reason).toBe("key_refused")
    const fixed = await runner({ store, concurrency: 1 }).runBatch(orders)
    expect([fixed.filed, keyAccepted(fixed)]).toEqual([2, true])
    expect((await rec(store, orders[0]!.snapshot.orderId)).paused_reason).toBeNull()
  })
})
