/**
 * The backfill core against the sandbox over loopback HTTP: historical orders filed with their
 * dates and charged tax, returns refunded under their keys, and a rerun that adds nothing
 * (proved by what the service holds and its request counts).
 */
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../../service/client"
import { API_KEY, CONNECTION_ID, chargedSnapshot, controls } from "../../../integration-tests/filing-helpers/kit"
import {
  addBatch,
  backfillOrderRequest,
  backfillRunner,
  keyAccepted,
  newProgress,
  type BackfillLedger,
  type BackfillOrder,
  type BackfilledOrder,
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

function setLedger(initial: string[] = []) {
  const filed = new Set(initial)
  const recorded: BackfilledOrder[] = []
  const ledger: BackfillLedger = {
    filed: async (ids) => new Set(ids.filter((id) => filed.has(id))),
    record: async (d) => {
      recorded.push(d)
      filed.add(d.order.snapshot.orderId)
    },
  }
  return { ledger, recorded, filed }
}

describe("backfill core", () => {
  it("files each order with its real dates and the charged tax; returns refunded under the return id", async () => {
    const orders = await historical(4, (i) => i % 2 === 0)
    const { ledger, recorded } = setLedger()
    await ctl.resetCounts()
    const out = await backfillRunner({ client, ledger, concurrency: 3 }).runBatch(orders)
    expect(out).toEqual({ filed: 4, alreadyAtService: 0, skipped: 0, refunds: 2, failed: [] })
    const svc = await client.getOrder("order_hist_0", { expandRefunds: true })
    expect(svc.transactionDate).toBe(placed.toISOString())
    expect(svc.completedDate).toBe(completed)
    expect(svc.cartId).toBe("cart_hist_0")
    expect(svc.lineItems.map((l) => l.tax.amount)).toEqual(orders[0]!.snapshot.lines.map((l) => l.chargedTax))
    expect(svc.refunds?.map((r) => [r.idempotencyKey, r.items.map((i) => Math.abs(i.quantity))])).toEqual([["ret_hist_0", [2]]])
    const rec0 = recorded.find((r) => r.order.snapshot.orderId === "order_hist_0")!
    const charged = orders[0]!.snapshot.lines.reduce((a, l) => a + Math.round(l.chargedTax * 100), 0) / 100
    expect(rec0.filedTax).toBe(charged)
    expect(rec0.refunds[0]!.refundedTax).toBeGreaterThan(0)
    expect(await ctl.counts()).toMatchObject({ createOrder: 4, refundOrder: 2 })
  })

  it("a rerun skips what the ledger holds without any call; without a ledger the service's answers keep it single", async () => {
    const orders = await historical(3, () => true)
    const first = setLedger()
    await backfillRunner({ client, ledger: first.ledger }).runBatch(orders)
    await ctl.resetCounts()
    const again = await backfillRunner({ client, ledger: first.ledger }).runBatch(orders)
    expect(again).toEqual({ filed: 0, alreadyAtService: 0, skipped: 3, refunds: 0, failed: [] })
    expect(Object.values(await ctl.counts()).reduce((a, b) => a + b, 0)).toBe(0)
    // the records were lost: everything is sent again, and nothing is added at the service
    const lost = setLedger()
    const replay = await backfillRunner({ client, ledger: lost.ledger }).runBatch(orders)
    expect(replay).toMatchObject({ filed: 3, alreadyAtService: 3, refunds: 3, failed: [] })
    expect(lost.recorded.every((r) => r.alreadyExisted && r.refunds.every((x) => x.replayed))).toBe(true)
    for (const o of orders) {
      const svc = await client.getOrder(o.snapshot.orderId, { expandRefunds: true })
      expect(svc.refunds).toHaveLength(1)
    }
  })

  it("a failing order is reported (no key in the message) and the others go on; the next run files it", async () => {
    const orders = await historical(3, () => false)
    const { ledger } = setLedger()
    await ctl.fault({ operation: "createOrder", status: 500, count: 1 })
    const out = await backfillRunner({ client, ledger, concurrency: 1, secrets: [API_KEY] }).runBatch(orders)
    expect(out.filed).toBe(2)
    expect(out.failed).toHaveLength(1)
    expect(out.failed[0]!.error).toMatch(/HTTP 500/)
    expect(out.failed[0]!.error).not.toContain(API_KEY)
    const next = await backfillRunner({ client, ledger }).runBatch(orders)
    expect(next).toMatchObject({ filed: 1, skipped: 2, failed: [] })
  })

  it("an order not completed yet is filed with completed=false", async () => {
    const [o] = await historical(1, () => false)
    const req = backfillOrderRequest({ ...o!, completedAt: null })
    expect(req).toMatchObject({ completed: false, completedDate: null, transactionDate: placed.toISOString() })
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
  it("a batch on a refused key files nothing (paused records stay paused); with the fixed key it files (they go again)", async () => {
    const orders = await historical(2, () => false)
    const { ledger } = setLedger()
    const wrong = new SalesTaxClient({ baseUrl: sb.url, apiKey: "sk_test_rotated_by_mistake", connectionId: CONNECTION_ID, retry: false })
    const refused = await backfillRunner({ client: wrong, ledger, concurrency: 1 }).runBatch(orders)
    expect(refused.failed.map((f) => f.error.slice(0, 8))).toEqual(["HTTP 401", "HTTP 401"])
    expect(keyAccepted(refused)).toBe(false)
    const fixed = await backfillRunner({ client, ledger, concurrency: 1 }).runBatch(orders)
    expect([fixed.filed, keyAccepted(fixed)]).toEqual([2, true])
  })
})
