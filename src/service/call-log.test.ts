import { AsyncLocalStorage } from "node:async_hooks"
import fc from "fast-check"
import type { AttemptInfo } from "./client"
import { CallLogBuffer, pruneInBatches, rowOf, type CallLogRow, type CallLogSink } from "./call-log"

const attempt = (over: Partial<AttemptInfo> = {}): AttemptInfo => ({
  operation: "calculateCarts",
  attempt: 1,
  status: 200,
  durationMs: 12.4,
  willRetry: false,
  ids: { cartId: "cart_1" },
  ...over,
})

class MemorySink implements CallLogSink {
  rows: CallLogRow[] = []
  fail: Error | null = null
  writes = 0
  async writeCallLog(rows: CallLogRow[]): Promise<void> {
    this.writes++
    if (this.fail) throw this.fail
    this.rows.push(...rows)
  }
  async pruneCallLog(before: Date): Promise<number> {
    const n = this.rows.length
    this.rows = this.rows.filter((r) => r.at >= before)
    return n - this.rows.length
  }
}

describe("the service-call log's buffer", () => {
  it("a row holds the attempt's facts and ids; bodies only when the client handed them over", () => {
    const at = new Date("2026-11-22T10:00:00Z")
    expect(
      rowOf(
        "conn-1",
        attempt({ status: null, errorTitle: "Timeout", errorCode: "timeout", ids: { orderId: "order_1", refundKey: "return_1" } }),
        at,
      ),
    ).toEqual({
      at,
      operation: "calculateCarts",
      connection_id: "conn-1",
      status: null,
      latency_ms: 12,
      attempt: 1,
      cart_id: null,
      order_id: "order_1",
      return_id: "return_1",
      error_title: "Timeout",
      error_code: "timeout",
      request_body: null,
      response_body: null,
    })
    const withBodies = rowOf("conn-1", attempt({ requestBody: { carts: [] }, responseBody: [1, 2] }), at)
    expect(withBodies.request_body).toEqual({ carts: [] })
    expect(withBodies.response_body).toEqual({ value: [1, 2] })
  })

  it("close() writes what is buffered and lets the sink go: no write after the application's shutdown", async () => {
    const sink = new MemorySink()
    const log = new CallLogBuffer({ flushMs: 5 })
    log.attach(sink)
    log.record("conn-1", attempt())
    await log.close(sink)
    expect([sink.rows.length, log.pending]).toEqual([1, 0])
    log.record("conn-1", attempt({ attempt: 2 }))
    await new Promise((r) => setTimeout(r, 30))
    expect([sink.writes, sink.rows.length, log.pending]).toEqual([1, 1, 1])
    await log.close(new MemorySink()) // another sink's close does nothing
    expect(log.pending).toBe(1)
  })

  it("a later module instance let go (a loader-only instance between tests) hands the log back to the one before it", async () => {
    const [app, loaderOnly] = [new MemorySink(), new MemorySink()]
    const log = new CallLogBuffer({ flushMs: 5 })
    log.attach(app)
    log.attach(loaderOnly)
    log.record("conn-1", attempt())
    await log.close(loaderOnly)
    log.record("conn-1", attempt({ attempt: 2 }))
    await log.flush()
    expect([loaderOnly.rows.map((r) => r.attempt), app.rows.map((r) => r.attempt)]).toEqual([[1], [2]])
  })

  it("record() never waits on the sink: rows are written later, in one batch", async () => {
    const sink = new MemorySink()
    const buf = new CallLogBuffer({ flushMs: 5 })
    buf.attach(sink, () => undefined)
    let resolveWrite!: () => void
    sink.writeCallLog = async (rows) => {
      await new Promise<void>((r) => (resolveWrite = r))
      sink.rows.push(...rows)
    }
    buf.record("c", attempt())
    buf.record("c", attempt({ attempt: 2 }))
    expect(sink.rows).toHaveLength(0) // nothing written synchronously
    const flushing = buf.flush()
    expect(buf.pending).toBe(0)
    resolveWrite()
    await flushing
    expect(sink.rows.map((r) => r.attempt)).toEqual([1, 2])
  })

  it("a flush belongs to no request: the request that scheduled it is not its async context (its spans, its stores)", async () => {
    const request = new AsyncLocalStorage<string>()
    const sink = new MemorySink()
    const buf = new CallLogBuffer({ flushMs: 5 })
    buf.attach(sink, () => undefined)
    const writtenIn: (string | undefined)[] = []
    sink.writeCallLog = async (rows) => {
      writtenIn.push(request.getStore())
      sink.rows.push(...rows)
    }
    request.run("a store cart request", () => buf.record("c", attempt()))
    while (!sink.rows.length) await new Promise((r) => setTimeout(r, 5))
    expect(writtenIn).toEqual([undefined])
  })

  it("a failing sink: calls go on, the batch is dropped, ONE warning for the streak, writes resume by themselves", async () => {
    const sink = new MemorySink()
    const warnings: string[] = []
    const buf = new CallLogBuffer({ flushMs: 1_000_000 })
    buf.attach(sink, (m) => warnings.push(m))
    sink.fail = new Error('relation "sales_tax_call_log" does not exist')
    for (let i = 0; i < 3; i++) {
      buf.record("c", attempt({ attempt: i + 1 }))
      await buf.flush()
    }
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/could not be written \(relation "sales_tax_call_log" does not exist\); calls to the service go on/)
    expect(buf.dropped).toBe(3)
    sink.fail = null
    buf.record("c", attempt({ attempt: 9 }))
    await buf.flush()
    expect(sink.rows.map((r) => r.attempt)).toEqual([9])
    expect(warnings[1]).toBe("sales-tax: the service-call log is written again")
  })

  it("is bounded: past maxBuffered new rows are dropped and counted", async () => {
    const buf = new CallLogBuffer({ flushMs: 1_000_000, maxBuffered: 3 })
    for (let i = 1; i <= 5; i++) buf.record("c", attempt({ attempt: i }))
    const sink = new MemorySink()
    buf.attach(sink, () => undefined)
    await buf.flush()
    expect(sink.rows.map((r) => r.attempt)).toEqual([1, 2, 3])
    expect(buf.dropped).toBe(2)
  })

  it("prunes entries older than retentionDays", async () => {
    const sink = new MemorySink()
    const buf = new CallLogBuffer()
    buf.attach(sink, () => undefined)
    buf.retentionDays = 14
    const now = new Date("2026-11-22T00:00:00Z")
    sink.rows.push(
      rowOf("c", attempt({ attempt: 1 }), new Date("2026-11-07T00:00:00Z")),
      rowOf("c", attempt({ attempt: 2 }), new Date("2026-11-09T00:00:00Z")),
    )
    expect(await buf.prune(now)).toBe(1)
    expect(sink.rows.map((r) => r.attempt)).toEqual([2])
  })

  it("enqueue-only record(): the rows written are the rows built at record time (rowOf), in order, for any attempts", async () => {
    const attemptArb: fc.Arbitrary<AttemptInfo> = fc.record(
      {
        operation: fc.constantFrom("calculateCarts", "cartToOrder", "refundOrder", "getOrder", "listCertificates"),
        attempt: fc.integer({ min: 1, max: 4 }),
        status: fc.option(fc.integer({ min: 200, max: 599 }), { nil: null }),
        durationMs: fc.double({ min: 0, max: 30_000, noNaN: true }),
        willRetry: fc.boolean(),
        error: fc.string(),
        errorTitle: fc.string(),
        errorCode: fc.constantFrom("http", "timeout", "network", "validation", "response_validation"),
        ids: fc.record({ cartId: fc.string(), orderId: fc.string(), refundKey: fc.string() }, { requiredKeys: [] }),
        requestBody: fc.oneof(fc.constant(undefined), fc.constant(null), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
        responseBody: fc.oneof(fc.constant(undefined), fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.integer())),
      },
      { requiredKeys: ["operation", "attempt", "status", "durationMs", "willRetry"] },
    ) as fc.Arbitrary<AttemptInfo>
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom("conn-a", "conn-b"), attemptArb), { maxLength: 20 }), async (calls) => {
        const sink = new MemorySink()
        const buf = new CallLogBuffer({ flushMs: 1_000_000 })
        buf.attach(sink, () => undefined)
        const expected: CallLogRow[] = []
        for (const [conn, info] of calls) {
          const before = Date.now()
          buf.record(conn, info)
          const after = Date.now()
          // the old record(): the row built at once, stamped now
          const row = rowOf(conn, info, new Date(before))
          expected.push(row)
          expect(after - before).toBeLessThan(1000)
        }
        await buf.flush()
        expect(sink.rows).toHaveLength(calls.length)
        sink.rows.forEach((r, i) => {
          const want = expected[i]!
          // stamped when recorded (within the call), not when flushed
          expect(r.at.getTime()).toBeGreaterThanOrEqual(want.at.getTime())
          expect(r.at.getTime() - want.at.getTime()).toBeLessThan(1000)
          expect({ ...r, at: null }).toEqual({ ...want, at: null })
        })
      }),
      { numRuns: 300 },
    )
  })
})

describe("pruning in bounded batches (issue 27)", () => {
  /** expired ids in a table; `take` lists oldest first, `drop` deletes; statements are recorded */
  const table = (n: number) => {
    let ids = Array.from({ length: n }, (_, i) => `stcl_${String(i).padStart(6, "0")}`)
    const takes: number[] = []
    const drops: number[] = []
    return {
      takes,
      drops,
      left: () => ids.length,
      take: async (limit: number) => {
        takes.push(limit)
        return ids.slice(0, limit)
      },
      drop: async (d: string[]) => {
        drops.push(d.length)
        const gone = new Set(d)
        ids = ids.filter((x) => !gone.has(x))
      },
    }
  }
  it("2,500 expired entries: three statements of at most 1,000 ids, every entry deleted", async () => {
    const t = table(2500)
    expect(await pruneInBatches(t.take, t.drop)).toBe(2500)
    expect([t.takes, t.drops, t.left()]).toEqual([[1000, 1000, 1000], [1000, 1000, 500], 0])
  })
  it("nothing expired: one look, no delete; exactly a batch: one more look", async () => {
    const none = table(0)
    expect(await pruneInBatches(none.take, none.drop)).toBe(0)
    expect([none.takes.length, none.drops]).toEqual([1, []])
    const one = table(1000)
    expect(await pruneInBatches(one.take, one.drop)).toBe(1000)
    expect([one.takes.length, one.drops, one.left()]).toEqual([2, [1000], 0])
  })
  it("property: any count, any batch size: all deleted, no statement over the batch, maxBatches bounds the loop", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 700 }), async (n, batch) => {
        const t = table(n)
        expect(await pruneInBatches(t.take, t.drop, batch)).toBe(n)
        expect(t.left()).toBe(0)
        expect(Math.max(0, ...t.drops)).toBeLessThanOrEqual(batch)
        const capped = table(n)
        expect(await pruneInBatches(capped.take, capped.drop, batch, 2)).toBe(Math.min(n, 2 * batch))
      }),
      { numRuns: 60 },
    )
  })
})
