/**
 * The filing processor against the sandbox (in-process, ephemeral port), with the in-memory store
 * and lock. What the service holds is read back from the service (GET order ?expand=refunds) and
 * from the sandbox's request counts.
 */
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../service/client"
import { dec, roundCents, sum } from "../../packages/contract/src/money"
import type { CompletionMode, FilingSnapshot } from "../modules/sales-tax-filing/types"
import { API_KEY, CONNECTION_ID, chargedSnapshot, controls } from "../../integration-tests/filing-helpers/kit"
import { MemoryFilingStore, memoryLock } from "./__tests__/memory-store"
import { FilingProcessor } from "./processor"
import { newRecordFor } from "./processor-types"

let sb: RunningSandbox
let ctl: ReturnType<typeof controls>
let seq = 0

beforeAll(async () => {
  sb = await startSandbox({ apiKey: API_KEY, connectionId: CONNECTION_ID })
  ctl = controls(sb.url)
})
afterAll(async () => {
  await sb?.close()
})
beforeEach(async () => {
  await ctl.reset()
})

function client(retry: false | { maxAttempts: number } = { maxAttempts: 3 }) {
  return new SalesTaxClient({
    baseUrl: sb.url,
    apiKey: API_KEY,
    connectionId: CONNECTION_ID,
    timeoutMs: 2000,
    retry: retry === false ? false : { ...retry, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 5000 },
  })
}

function setup(opts: { retry?: false | { maxAttempts: number }; maxAttempts?: number; now?: () => Date } = {}) {
  const store = new MemoryFilingStore()
  const c = client(opts.retry ?? { maxAttempts: 3 })
  const p = new FilingProcessor({
    store,
    client: c,
    lock: memoryLock(),
    maxAttempts: opts.maxAttempts ?? 5,
    now: opts.now,
    secrets: [API_KEY],
    backoff: { baseMs: 1000, maxMs: 60_000 },
  })
  return { store, client: c, p }
}

const ids = () => {
  seq += 1
  return { orderId: `order_T${seq}_${Date.now()}`, cartId: `cart_T${seq}_${Date.now()}` }
}

const LINES = [
  { price: 10.75, quantity: 3 },
  { price: 19.99, quantity: 2, tic: 20010 },
  { price: 7.5, quantity: 1, shipping: true },
]

const charged = (s: FilingSnapshot) => roundCents(sum(s.lines.map((l) => l.chargedTax)))
const serviceTax = (o: { lineItems: { tax: { amount: number } }[] }) => roundCents(sum(o.lineItems.map((l) => l.tax.amount)))
const rec = (s: FilingSnapshot, mode: CompletionMode = "placed") => newRecordFor(s.orderId, s, mode, new Date())

describe("filing an order", () => {
  it("files through carts/orders when the re-quote equals the charged tax, and the filed tax is the charged tax", async () => {
    const { p, client: c, store } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    expect(charged(s)).toBeGreaterThan(0)
    const r = await p.fileOrder(rec(s))
    expect(r?.state).toBe("completed")
    expect(r?.filing_path).toBe("cart")
    const order = await c.getOrder(s.orderId)
    expect(order.cartId).toBe(s.cartId)
    expect(order.completedDate).not.toBeNull()
    for (const l of s.lines) expect(order.lineItems.find((x) => x.itemId === l.itemId)?.tax.amount).toBe(l.chargedTax)
    expect(serviceTax(order)).toBe(charged(s))
    const stored = await store.findRecord(s.orderId)
    expect(stored?.filed_tax).toBe(charged(s))
    expect(stored?.tax_difference).toBe(0)
  })

  it("files the charged tax directly when a rate changed, and records the difference", async () => {
    const { p, client: c, store } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    const quoted = s.lines.map((l) => l.chargedTax)
    s.lines[0]!.chargedTax = roundCents(dec(s.lines[0]!.chargedTax).minus(0.37)) // charged under an older, lower rate
    const counts0 = await ctl.counts()
    const r = await p.fileOrder(rec(s))
    expect(r?.filing_path).toBe("direct")
    const order = await c.getOrder(s.orderId)
    s.lines.forEach((l) => expect(order.lineItems.find((x) => x.itemId === l.itemId)?.tax.amount).toBe(l.chargedTax))
    expect(serviceTax(order)).toBe(charged(s))
    const stored = await store.findRecord(s.orderId)
    expect(stored?.tax_difference).toBe(roundCents(dec(roundCents(sum(quoted))).minus(charged(s))))
    expect(stored?.tax_difference).toBe(0.37)
    const counts1 = await ctl.counts()
    expect(counts1.cartToOrder ?? 0).toBe(counts0.cartToOrder ?? 0)
    expect((counts1.createOrder ?? 0) - (counts0.createOrder ?? 0)).toBe(1)
  })

  it("takes the direct path for fallback-coded lines even when the amounts agree", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    s.lines[1]!.fallback = true
    const r = await p.fileOrder(rec(s))
    expect(r?.filing_path).toBe("direct")
    expect(serviceTax(await c.getOrder(s.orderId))).toBe(charged(s))
  })

  it("files an order without a cart (draft order) directly", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, { ...ids(), cartId: null }, LINES)
    const r = await p.fileOrder(rec(s))
    expect(r?.state).toBe("completed")
    expect(r?.filing_path).toBe("direct")
  })

  it("a record without a snapshot (no US destination) is skipped without any call", async () => {
    const { p } = setup()
    const before = await ctl.counts()
    const r = await p.fileOrder(newRecordFor("order_eu", null, "placed", new Date()))
    expect(r?.state).toBe("skipped")
    expect(await ctl.counts()).toEqual(before)
  })
})

describe("completion modes", () => {
  it.each(["captured", "fulfilled"] as const)("%s: filed with completed=false, completed later by PATCH completedDate", async (mode) => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    const r1 = await p.fileOrder(rec(s, mode))
    expect(r1?.state).toBe("filed")
    expect((await c.getOrder(s.orderId)).completedDate).toBeNull()
    const at = new Date(Date.now() - 500)
    const r2 = await p.completeOrder(rec(s, mode), at)
    expect(r2?.state).toBe("completed")
    expect(new Date((await c.getOrder(s.orderId)).completedDate!).toISOString()).toBe(at.toISOString())
    const n = (await ctl.counts()).updateOrder
    await p.completeOrder(rec(s, mode), new Date()) // the event again: nothing more to do
    expect((await ctl.counts()).updateOrder).toBe(n)
  })

  it("completion known before filing: filed completed in one call", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    const at = new Date(Date.now() - 2000)
    const r = await p.completeOrder(rec(s, "captured"), at)
    expect(r?.state).toBe("completed")
    expect(new Date((await c.getOrder(s.orderId)).completedDate!).toISOString()).toBe(at.toISOString())
    expect((await ctl.counts()).updateOrder ?? 0).toBe(0)
  })
})

describe("cancellation", () => {
  it("before the cutoff: voids the order", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    await p.fileOrder(rec(s))
    const r = await p.cancelOrder(rec(s), new Date())
    expect(r?.state).toBe("voided")
    await expect(c.getOrder(s.orderId)).rejects.toMatchObject({ status: 404 })
    await p.cancelOrder(rec(s), new Date())
    expect((await ctl.counts()).voidOrder).toBe(1)
  })

  it("after the cutoff: refunds the whole order under cancel:<order id>", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    await p.fileOrder(rec(s))
    const later = new Date(Date.now() + 62 * 86_400_000)
    await ctl.setClock(later)
    const r = await p.cancelOrder(rec(s), new Date())
    expect(r?.state).toBe("refunded")
    const order = await c.getOrder(s.orderId, { expandRefunds: true })
    expect(order.refunds).toHaveLength(1)
    expect(order.refunds![0]!.idempotencyKey).toBe(`cancel:${s.orderId}`)
    const refunded = roundCents(sum(order.refunds![0]!.items.map((i) => Math.abs(i.tax.amount))))
    expect(refunded).toBe(charged(s))
    await p.cancelOrder(rec(s), new Date())
    expect((await c.getOrder(s.orderId, { expandRefunds: true })).refunds).toHaveLength(1)
  })

  it("after a partial return, the cancel refund covers only what is left", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    await p.fileOrder(rec(s))
    await p.refund(rec(s), { source: "return", sourceId: `return_${s.orderId}`, items: [{ itemId: s.lines[0]!.itemId, quantity: 1 }] })
    await ctl.setClock(new Date(Date.now() + 62 * 86_400_000))
    const r = await p.cancelOrder(rec(s), new Date())
    expect(r?.state).toBe("refunded")
    const order = await c.getOrder(s.orderId, { expandRefunds: true })
    const qty = (id: string) =>
      sum(order.refunds!.flatMap((x) => x.items.filter((i) => i.itemId === id).map((i) => Math.abs(i.quantity)))).toNumber()
    s.lines.forEach((l) => expect(qty(l.itemId)).toBe(l.quantity))
  })

  it("canceled before it ever reached the service: voided without a call", async () => {
    const { p, client: c } = setup({ retry: false })
    const s = await chargedSnapshot(c, ids(), LINES)
    await ctl.fault({ operation: "*", status: 503 })
    const r1 = await p.fileOrder(rec(s))
    expect(r1?.state).toBe("failed")
    await ctl.clearFaults()
    const r2 = await p.cancelOrder(rec(s), new Date())
    expect(r2?.state).toBe("voided")
    await expect(c.getOrder(s.orderId)).rejects.toMatchObject({ status: 404 })
    expect((await ctl.counts()).cartToOrder ?? 0).toBe(0)
  })
})

describe("refunds", () => {
  it("two partial returns: exactly the returned items and quantities, one refund per return even when delivered twice", async () => {
    const { p, client: c, store } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    await p.fileOrder(rec(s))
    const ret1 = { source: "return" as const, sourceId: `return_A_${s.orderId}`, items: [{ itemId: s.lines[0]!.itemId, quantity: 2 }] }
    const ret2 = {
      source: "return" as const,
      sourceId: `return_B_${s.orderId}`,
      items: [
        { itemId: s.lines[0]!.itemId, quantity: 1 },
        { itemId: s.lines[1]!.itemId, quantity: 1 },
      ],
    }
    const a = await p.refund(rec(s), ret1)
    expect(a?.state).toBe("partially_refunded")
    await Promise.all([p.refund(rec(s), ret2), p.refund(rec(s), ret2), p.refund(rec(s), ret1)])
    const order = await c.getOrder(s.orderId, { expandRefunds: true })
    expect(order.refunds?.map((r) => r.idempotencyKey).sort()).toEqual([ret1.sourceId, ret2.sourceId].sort())
    const r2 = order.refunds!.find((r) => r.idempotencyKey === ret2.sourceId)!
    expect(r2.items.map((i) => [i.itemId, Math.abs(i.quantity)]).sort()).toEqual(
      [
        [s.lines[0]!.itemId, 1],
        [s.lines[1]!.itemId, 1],
      ].sort(),
    )
    const stored = await store.findRecord(s.orderId)
    expect(stored?.refunds?.map((r) => r.state)).toEqual(["refunded", "refunded"])
    expect(stored?.state).toBe("partially_refunded")
  })

  it("a refund waits until its order is filed", async () => {
    const { p, client: c, store } = setup({ retry: false })
    const s = await chargedSnapshot(c, ids(), LINES)
    await ctl.fault({ operation: "cartToOrder", status: 500 })
    const intent = { source: "return" as const, sourceId: `return_W_${s.orderId}`, items: [{ itemId: s.lines[0]!.itemId, quantity: 1 }] }
    const r1 = await p.refund(rec(s), intent)
    expect(r1?.state).toBe("failed")
    expect((await ctl.counts()).refundOrder ?? 0).toBe(0)
    expect((await store.findRecord(s.orderId))?.refunds?.[0]?.state).toBe("pending")
    await ctl.clearFaults()
    const r2 = await p.retry(s.orderId)
    expect(r2?.state).toBe("partially_refunded")
    expect((await c.getOrder(s.orderId, { expandRefunds: true })).refunds).toHaveLength(1)
  })

  it("items not in the filed order are ignored; a return of nothing filed makes no refund", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    await p.fileOrder(rec(s))
    await p.refund(rec(s), { source: "return", sourceId: `return_X_${s.orderId}`, items: [{ itemId: "ordli_unknown", quantity: 1 }] })
    expect((await ctl.counts()).refundOrder ?? 0).toBe(0)
  })
})

describe("exactly once", () => {
  it("the same placement five times concurrently: one order at the service", async () => {
    const { p, client: c } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    await Promise.all(Array.from({ length: 5 }, () => p.fileOrder(rec(s))))
    const n = await ctl.counts()
    expect(n.cartToOrder).toBe(1)
    expect(serviceTax(await c.getOrder(s.orderId))).toBe(charged(s))
  })

  it("crash between the service call and the record: the next run reconciles, no second order", async () => {
    const { p, client: c, store } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    // the process dies right after cartToOrder: no write after it lands (markFiled, nor the failure note)
    store.beforeWrite = (what) => {
      if (what === "patchRecord" && [...store.records.values()].some((r) => r.last_step === "file")) throw new Error("process killed")
    }
    await expect(p.fileOrder(rec(s))).rejects.toThrow("process killed")
    store.beforeWrite = undefined
    expect((await store.findRecord(s.orderId))?.filed_at).toBeNull()
    expect((await ctl.counts()).cartToOrder).toBe(1)
    const r = await p.process(s.orderId)
    expect(r?.state).toBe("completed")
    expect((await ctl.counts()).cartToOrder).toBe(1)
    expect((await ctl.counts()).createOrder ?? 0).toBe(0)
  })

  it("crash after a refund call: the repeat is replayed by its key, one refund", async () => {
    const { p, client: c, store } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    await p.fileOrder(rec(s))
    let refundCalled = false
    store.beforeWrite = (what) => {
      if (what === "patchRefund" || (refundCalled && what === "patchRecord")) {
        refundCalled = true
        throw new Error("process killed")
      }
    }
    const intent = { source: "claim" as const, sourceId: `claim_${s.orderId}`, items: [{ itemId: s.lines[1]!.itemId, quantity: 2 }] }
    await expect(p.refund(rec(s), intent)).rejects.toThrow("process killed")
    store.beforeWrite = undefined
    expect((await store.findRecord(s.orderId))?.refunds?.[0]?.state).toBe("pending")
    const r = await p.refund(rec(s), intent)
    expect(r?.state).toBe("partially_refunded")
    expect((await ctl.counts()).refundOrder).toBe(2)
    expect((await c.getOrder(s.orderId, { expandRefunds: true })).refunds).toHaveLength(1)
  })

  it("a lost answer (the service wrote, the response failed) is reconciled", async () => {
    const { p, client: c } = setup({ retry: false })
    const s = await chargedSnapshot(c, ids(), LINES)
    await ctl.fault({ operation: "cartToOrder", status: 503, phase: "after", count: 1 })
    const r1 = await p.fileOrder(rec(s))
    expect(r1?.state).toBe("failed")
    const r2 = await p.process(s.orderId)
    expect(r2?.state).toBe("completed")
    expect(serviceTax(await c.getOrder(s.orderId))).toBe(charged(s))
  })
})

describe("retries", () => {
  it.each([500, 503, 429])("HTTP %i: failed with a next attempt; the due run heals it", async (status) => {
    let now = new Date()
    const { p, client: c, store } = setup({ retry: false, now: () => now })
    const s = await chargedSnapshot(c, ids(), LINES)
    await ctl.fault({ operation: "calculateCarts", status, count: 1, ...(status === 429 ? { retryAfter: "1" } : {}) })
    const r1 = await p.fileOrder(rec(s))
    expect(r1?.state).toBe("failed")
    expect(r1?.attempts).toBe(1)
    expect(r1?.last_error).toContain(String(status))
    expect(r1?.next_attempt_at!.getTime()).toBeGreaterThan(now.getTime())
    expect(await p.processDue()).toEqual([]) // not yet due
    now = new Date(r1!.next_attempt_at!.getTime() + 1)
    const out = await p.processDue()
    expect(out).toEqual([{ orderId: s.orderId, state: "completed" }])
    expect((await store.findRecord(s.orderId))?.next_attempt_at).toBeNull()
  })

  it("timeouts: healed by the due run", async () => {
    let now = new Date()
    const { p, client: c } = setup({ retry: false, now: () => now })
    const s = await chargedSnapshot(c, ids(), LINES)
    await ctl.fault({ operation: "cartToOrder", delayMs: 3000, count: 1 })
    const r1 = await p.fileOrder(rec(s))
    expect(r1?.state).toBe("failed")
    now = new Date(r1!.next_attempt_at!.getTime() + 1)
    expect((await p.processDue())[0]?.state).toBe("completed")
    expect(serviceTax(await c.getOrder(s.orderId))).toBe(charged(s))
  })

  it("gives up after maxAttempts (left failed for a person), the admin retry files it", async () => {
    let now = new Date()
    const { p, client: c } = setup({ retry: false, maxAttempts: 3, now: () => now })
    const s = await chargedSnapshot(c, ids(), LINES)
    await ctl.fault({ operation: "calculateCarts", status: 500 })
    let r = await p.fileOrder(rec(s))
    for (let i = 0; i < 5 && r?.next_attempt_at; i++) {
      now = new Date(r.next_attempt_at.getTime() + 1)
      await p.processDue()
      r = await p.process(s.orderId) // idempotent look at the record
      now = new Date(now.getTime())
    }
    expect(r?.state).toBe("failed")
    expect(r?.next_attempt_at).toBeNull()
    expect(r?.attempts).toBeGreaterThanOrEqual(3)
    await ctl.clearFaults()
    now = new Date(now.getTime() + 86_400_000)
    expect(await p.processDue()).toEqual([])
    const healed = await p.retry(s.orderId)
    expect(healed?.state).toBe("completed")
  })

  it("a non-retryable answer is left for a person at once, and the key never reaches the record", async () => {
    const { p, client: c, store } = setup({ retry: false })
    const s = await chargedSnapshot(c, ids(), LINES)
    await ctl.fault({ operation: "calculateCarts", status: 422 })
    const r = await p.fileOrder(rec(s))
    expect(r?.state).toBe("failed")
    expect(r?.next_attempt_at).toBeNull()
    expect(JSON.stringify(await store.findRecord(s.orderId))).not.toContain(API_KEY)
  })
})

describe("an order filed as one service order per origin (issue 16)", () => {
  it("its other origins' records are made with the order's record only: once the order is filed, a new origin group (an edit's, filed as the edit's own order) makes no second record of the same lines", async () => {
    const { p, client: c, store } = setup()
    const s = await chargedSnapshot(c, ids(), LINES)
    const [first, ...rest] = s.lines
    const own: FilingSnapshot = { ...s, lines: [first!] }
    const other = (orderId: string): FilingSnapshot => ({
      ...s,
      orderId,
      parentOrderId: s.orderId,
      cartId: null,
      lines: rest.map((l, index) => ({ ...l, index })),
    })
    // made with the order's record: both filed
    const sib = other(`${s.orderId}~0000abcd`)
    await p.fileOrder({ ...rec(own), origin_siblings: [rec(sib)] })
    expect((await store.findRecord(sib.orderId))?.state).toBe("completed")
    expect((await c.getOrder(sib.orderId)).lineItems).toHaveLength(rest.length)
    // the same order read again with another grouping (a new origin after an edit): no new record
    const late = other(`${s.orderId}~1111abcd`)
    await p.fileOrder({ ...rec(own), origin_siblings: [rec(late)] })
    expect(await store.findRecord(late.orderId)).toBeNull()
    await expect(c.getOrder(late.orderId)).rejects.toMatchObject({ status: 404 })
  })
})
