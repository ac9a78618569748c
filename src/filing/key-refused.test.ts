/**
 * A refused key in filing (issue 27): the pure rule, then the processor against the sandbox with a
 * wrong key (the sandbox's own 401), healed by a processor with the right key (the restart).
 */
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../service/client"
import { roundCents, sum } from "../../packages/contract/src/money"
import { API_KEY, CONNECTION_ID, chargedSnapshot, controls } from "../../integration-tests/filing-helpers/kit"
import { MemoryFilingStore, memoryLock } from "./__tests__/memory-store"
import { FilingProcessor } from "./processor"
import { newRecordFor } from "./processor-types"
import { isKeyRefused } from "../service/client"
import { KEY_REFUSED, pausedOrderCount, planFailure } from "./key-refused"

describe("the rule", () => {
  it("401 and 403 are a refused key; other answers and network errors are not", () => {
    expect([401, 403, 400, 404, 422, 429, 500].map((status) => isKeyRefused({ status }))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ])
    expect([isKeyRefused(new Error("ECONNRESET")), isKeyRefused(null)]).toEqual([false, false])
  })
  it("a refused key pauses and is always retried, past maxAttempts; its count is for the back-off only", () => {
    expect(planFailure({ status: 401 }, { attempts: 0 }, 3)).toEqual({ attempts: 1, retry: true, paused: KEY_REFUSED })
    // earlier 500s do not count towards the pause's back-off
    expect(planFailure({ status: 403 }, { attempts: 2 }, 3)).toEqual({ attempts: 1, retry: true, paused: KEY_REFUSED })
    expect(planFailure({ status: 401 }, { attempts: 12, paused_reason: KEY_REFUSED }, 3)).toEqual({
      attempts: 13,
      retry: true,
      paused: KEY_REFUSED,
    })
  })
  it("any other error: the usual rule, counted afresh after a pause", () => {
    expect(planFailure({ status: 500 }, { attempts: 12, paused_reason: KEY_REFUSED }, 3)).toEqual({
      attempts: 1,
      retry: true,
      paused: null,
    })
    expect(planFailure({ status: 500 }, { attempts: 2 }, 3)).toEqual({ attempts: 3, retry: false, paused: null })
    expect(planFailure({ status: 422 }, { attempts: 0 }, 3)).toEqual({ attempts: 1, retry: false, paused: null })
  })
  it("orders waiting: an order's records (other origins, edits) count once", () => {
    expect(
      pausedOrderCount([
        { order_id: "order_1" },
        { order_id: "order_1~ab12cd34", parent_order_id: "order_1" },
        { order_id: "order_2", parent_order_id: null },
      ]),
    ).toBe(2)
  })
})

describe("the processor with a refused key (sandbox)", () => {
  let sb: RunningSandbox
  let ctl: ReturnType<typeof controls>
  beforeAll(async () => {
    sb = await startSandbox({ apiKey: API_KEY, connectionId: CONNECTION_ID })
    ctl = controls(sb.url)
  })
  afterAll(async () => {
    await sb?.close()
  })

  const client = (apiKey: string) =>
    new SalesTaxClient({ baseUrl: sb.url, apiKey, connectionId: CONNECTION_ID, timeoutMs: 2000, retry: false })
  const BACKOFF = { baseMs: 1000, maxMs: 60_000 }

  it("paused, retried with back-off past maxAttempts (never at full speed), healed by the fixed key: each order filed once", async () => {
    await ctl.reset()
    const good = client(API_KEY)
    const wrong = "sk_test_rotated_by_mistake_0000"
    const tag = Date.now()
    const snaps = await Promise.all(
      [1, 2].map((n) =>
        chargedSnapshot(good, { orderId: `order_KR${n}_${tag}`, cartId: `cart_KR${n}_${tag}` }, [
          { price: 10.75, quantity: 3 },
          { price: 7.5, quantity: 1, shipping: true },
        ]),
      ),
    )
    const store = new MemoryFilingStore()
    let now = new Date("2026-11-26T08:00:00Z")
    const processor = (apiKey: string) =>
      new FilingProcessor({
        store,
        client: client(apiKey),
        lock: memoryLock(),
        maxAttempts: 3,
        now: () => now,
        secrets: [API_KEY, wrong],
        backoff: BACKOFF,
      })
    const before = processor(wrong)
    for (const s of snaps) {
      const r = await before.fileOrder(newRecordFor(s.orderId, s, "placed", now))
      expect([r?.state, r?.paused_reason, r?.attempts]).toEqual(["failed", KEY_REFUSED, 1])
      expect(r?.last_error).toMatch(/^file: HTTP 401/)
      expect(r?.last_error).not.toContain(wrong)
      expect(r?.next_attempt_at!.getTime()).toBeGreaterThan(now.getTime())
    }
    // not due yet: no call
    expect(await before.processDue()).toEqual([])
    // the back-off grows and is capped; maxAttempts (3) does not end it
    const delays: number[] = []
    for (let i = 0; i < 8; i++) {
      const due = (await store.findRecord(snaps[0]!.orderId))!.next_attempt_at!
      now = new Date(due.getTime())
      await before.process(snaps[0]!.orderId)
      const r = (await store.findRecord(snaps[0]!.orderId))!
      expect([r.state, r.paused_reason]).toEqual(["failed", KEY_REFUSED])
      delays.push(r.next_attempt_at!.getTime() - now.getTime())
    }
    expect((await store.findRecord(snaps[0]!.orderId))!.attempts).toBe(9)
    expect(Math.max(...delays)).toBeLessThanOrEqual(BACKOFF.maxMs)
    expect(delays[delays.length - 1]).toBeGreaterThanOrEqual(BACKOFF.maxMs / 2)
    expect(delays[0]).toBeLessThanOrEqual(4 * BACKOFF.baseMs)

    // the key is fixed and the process restarted: the first record due goes through, the other is made due with it
    await ctl.resetCounts()
    const after = processor(API_KEY)
    now = new Date((await store.findRecord(snaps[1]!.orderId))!.next_attempt_at!.getTime())
    const first = await after.processDue()
    expect(first).toEqual([{ orderId: snaps[1]!.orderId, state: "completed" }])
    expect((await store.findRecord(snaps[0]!.orderId))!.next_attempt_at!.getTime()).toBe(now.getTime())
    expect(await after.processDue()).toEqual([{ orderId: snaps[0]!.orderId, state: "completed" }])
    for (const s of snaps) {
      const r = (await store.findRecord(s.orderId))!
      expect([r.state, r.paused_reason ?? null, r.attempts, r.next_attempt_at, r.last_error]).toEqual(["completed", null, 0, null, null])
      const o = await good.getOrder(s.orderId)
      expect(roundCents(sum(o.lineItems.map((l) => l.tax.amount)))).toBe(roundCents(sum(s.lines.map((l) => l.chargedTax))))
    }
    const counts = await ctl.counts()
    expect((counts.cartToOrder ?? 0) + (counts.createOrder ?? 0)).toBe(2)
    expect(await after.processDue()).toEqual([])
  })
})
