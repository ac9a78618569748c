/**
 * Filing soak: N orders through the filing processor against the sandbox with ~10 % of service
 * calls failing (500 / 503 / 429 before the operation, and 500 AFTER it: the lost-answer case),
 * every event delivered twice concurrently, then the retry job until nothing is due. Verifies
 * against the service: 0 lost, 0 duplicated, every filed amount equal to the charged amount,
 * every refund exactly the returned quantities, once.
 *
 * What it drives: FilingProcessor (src/filing/processor.ts: the code the Medusa
 * workflows run) with the in-memory store and lock, and the real SalesTaxClient on HTTP against
 * the sandbox in-process. Orders are synthetic FilingSnapshots (no Medusa checkout): the charged
 * tax per line is the sandbox's quote for the cart, as the provider charges it; 5 % of the orders
 * are charged a different amount (a "rate change") and take the direct path.
 *
 *   npm run soak                 1,000 orders (prints the figures as JSON)
 *   npm run soak -- --orders 200
 * bench/soak.test.ts runs 300 of the same orders inside `npm test` (SOAK_ORDERS overrides).
 */
import { startSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient, type AttemptInfo } from "../src/service/client"
import { dec, roundCents, sum } from "../packages/contract/src/money"
import type { FilingSnapshot } from "../src/modules/sales-tax-filing/types"
import { MemoryFilingStore, memoryLock } from "../src/filing/__tests__/memory-store"
import { FilingProcessor } from "../src/filing/processor"
import { newRecordFor, type RefundIntent } from "../src/filing/processor-types"
import { API_KEY, CONNECTION_ID, chargedSnapshot, controls } from "../integration-tests/filing-helpers/kit"

export interface SoakOptions {
  orders: number
  concurrency?: number
  seed?: number
  log?: (m: string) => void
}

export interface SoakFigures {
  orders: number
  eventsDelivered: number
  serviceAttempts: number
  /** attempts answered 429 / 5xx / nothing (the injected faults) */
  failedAttempts: number
  /** requests the sandbox received per operation during the run */
  serviceCounts: Record<string, number>
  observedFailureRate: number
  /** records whose failure reached the filing record at least once (then healed by a later delivery or the job) */
  recordsThatFailedOnce: number
  retryJobRounds: number
  lost: number
  duplicated: number
  amountMismatches: number
  refundMismatches: number
  filedTaxTotal: number
  chargedTaxTotal: number
  refundsExpected: number
  refundsAtService: number
  voidsExpected: number
  /** Canceled before any filing reached the service: nothing to void (not counted as voided). */
  canceledBeforeFiling: number
  voidedAtService: number
  leftFailed: number
  elapsedMs: number
}

/** Deterministic PRNG (mulberry32) for the scenario mix. */
function rng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Scenario {
  s: FilingSnapshot
  returns: RefundIntent[]
  cancel: boolean
}

export async function runSoak(opts: SoakOptions): Promise<SoakFigures> {
  const log = opts.log ?? (() => undefined)
  const t0 = Date.now()
  const sb = await startSandbox({ apiKey: API_KEY, connectionId: CONNECTION_ID })
  const ctl = controls(sb.url)
  try {
    const random = rng(opts.seed ?? 20261121)
    const attempts: AttemptInfo[] = []
    const client = new SalesTaxClient({
      baseUrl: sb.url,
      apiKey: API_KEY,
      connectionId: CONNECTION_ID,
      timeoutMs: 5000,
      // no client-side retries: every injected failure reaches the filing record and the retry job
      retry: false,
      onAttempt: (a) => attempts.push(a),
    })
    const quoteClient = new SalesTaxClient({ baseUrl: sb.url, apiKey: API_KEY, connectionId: CONNECTION_ID })
    let now = new Date()
    const store = new MemoryFilingStore()
    // every record the processor ever marked failed (a failure that reached the record)
    const everFailed = new Set<string>()
    const patch = store.patchRecord.bind(store)
    store.patchRecord = async (id, data) => {
      if (data.state === "failed") {
        const r = store.records.get(id)
        if (r) everFailed.add(r.order_id)
      }
      return patch(id, data)
    }
    const p = new FilingProcessor({
      store,
      client,
      lock: memoryLock(),
      maxAttempts: 8,
      now: () => now,
      secrets: [API_KEY],
      backoff: { baseMs: 30_000, maxMs: 3_600_000 },
    })

    // 1. the orders, as charged at checkout (no faults yet)
    const scenarios: Scenario[] = []
    const prices = [4.99, 10.75, 19.99, 24.5, 49.99, 120, 3.33]
    const run = `${Date.now().toString(36)}`
    for (let i = 0; i < opts.orders; i++) {
      const orderId = `order_soak_${run}_${i}`
      const lines = [
        { price: prices[i % prices.length]!, quantity: 1 + (i % 3) },
        { price: prices[(i + 3) % prices.length]!, quantity: 1 + (i % 2), tic: i % 4 === 0 ? 20010 : 0 },
        { price: 7.5, quantity: 1, shipping: true },
      ]
      const s = await chargedSnapshot(quoteClient, { orderId, cartId: i % 20 === 7 ? null : `cart_soak_${run}_${i}` }, lines)
      if (i % 20 === 3) s.lines[0]!.chargedTax = roundCents(dec(s.lines[0]!.chargedTax).plus(0.05)) // charged under an older rate
      const r = random()
      const cancel = r < 0.1
      const returns: RefundIntent[] = []
      if (!cancel && r < 0.5)
        returns.push({
          source: "return",
          sourceId: `return_${orderId}_a`,
          items: [{ itemId: s.lines[0]!.itemId, quantity: 1 }],
          returnedAt: new Date(),
        })
      if (!cancel && r < 0.2)
        returns.push({
          source: "return",
          sourceId: `return_${orderId}_b`,
          items: [{ itemId: s.lines[1]!.itemId, quantity: 1 }],
          returnedAt: new Date(),
        })
      scenarios.push({ s, returns, cancel })
    }
    log(`quoted ${scenarios.length} orders in ${Date.now() - t0} ms`)

    // 2. ~10 % of service calls fail
    await ctl.resetCounts()
    await ctl.fault({ operation: "*", status: 500, probability: 0.04 })
    await ctl.fault({ operation: "*", status: 503, retryAfter: "0", probability: 0.03 })
    await ctl.fault({ operation: "*", status: 429, retryAfter: "0", probability: 0.01 })
    await ctl.fault({ operation: "*", status: 500, probability: 0.02, phase: "after" })

    // 3. every event twice, concurrently; orders in parallel batches
    let events = 0
    const twice = async (f: () => Promise<unknown>) => {
      events += 2
      await Promise.all([f().catch(() => undefined), f().catch(() => undefined)])
    }
    const conc = opts.concurrency ?? 16
    for (let b = 0; b < scenarios.length; b += conc) {
      await Promise.all(
        scenarios.slice(b, b + conc).map(async ({ s, returns, cancel }) => {
          const rec = newRecordFor(s.orderId, s, "placed", now)
          await twice(() => p.fileOrder(rec))
          for (const ret of returns) await twice(() => p.refund(rec, ret))
          if (cancel) await twice(() => p.cancelOrder(rec, now))
        }),
      )
      if ((b / conc) % 10 === 0) log(`delivered ${Math.min(b + conc, scenarios.length)} / ${scenarios.length}`)
    }

    // 4. the retry job, with the clock moved to each next attempt, until nothing is due
    let rounds = 0
    for (; rounds < 60; rounds++) {
      const due = [...store.records.values()].filter((r) => r.next_attempt_at).map((r) => r.next_attempt_at!.getTime())
      if (!due.length) break
      now = new Date(Math.max(now.getTime(), Math.min(...due)) + 1)
      await p.processDue(1000)
    }
    const injected = (a: AttemptInfo) => a.status === null || a.status === 429 || a.status >= 500
    const observed = attempts.length ? attempts.filter(injected).length / attempts.length : 0
    const serviceCounts = await ctl.counts()

    // 5. verify against the service (faults off)
    await ctl.clearFaults()
    const verify = new SalesTaxClient({ baseUrl: sb.url, apiKey: API_KEY, connectionId: CONNECTION_ID, retry: false })
    const voidedAt = (orderId: string) => !!sb.sandbox.store.get("voided", CONNECTION_ID, orderId)
    let canceledBeforeFiling = 0
    let voidsExpected = 0
    for (const x of scenarios) if (x.cancel && (await store.findRecord(x.s.orderId))?.filed_at) voidsExpected++
    let lost = 0,
      duplicated = 0,
      amountMismatches = 0,
      refundMismatches = 0,
      refundsAtService = 0,
      voidedAtService = 0
    let filedTotal = dec(0),
      chargedTotal = dec(0)
    const refundsExpected = scenarios.reduce((n, x) => n + x.returns.length, 0)
    for (const { s, returns, cancel } of scenarios) {
      const charged = roundCents(sum(s.lines.map((l) => l.chargedTax)))
      let order
      try {
        order = await verify.getOrder(s.orderId, { expandRefunds: true })
      } catch (e) {
        if ((e as { status?: number }).status === 404 && cancel) {
          // voided = the service filed it and then voided it (its void marker), not merely "not there";
          // canceled before it ever reached the service = nothing to void (the record says so)
          if (voidedAt(s.orderId)) {
            voidedAtService++
            continue
          }
          const rec = await store.findRecord(s.orderId)
          if (rec && !rec.filed_at && rec.voided_at) {
            canceledBeforeFiling++
            continue
          }
        }
        lost++
        continue
      }
      if (cancel) {
        lost++
        continue
      } // should have been voided
      const filed = roundCents(sum(order.lineItems.map((l) => l.tax.amount)))
      filedTotal = filedTotal.plus(filed)
      chargedTotal = chargedTotal.plus(charged)
      if (filed !== charged || s.lines.some((l) => order.lineItems.find((x) => x.itemId === l.itemId)?.tax.amount !== l.chargedTax))
        amountMismatches++
      const refunds = order.refunds ?? []
      refundsAtService += refunds.length
      const keys = refunds.map((r) => r.idempotencyKey)
      if (new Set(keys).size !== keys.length || refunds.length > returns.length) duplicated++
      for (const ret of returns) {
        const got = refunds.filter((r) => r.idempotencyKey === ret.sourceId)
        if (got.length === 0) {
          lost++
          continue
        }
        const q = (id: string) => Math.abs(got[0]!.items.find((i) => i.itemId === id)?.quantity ?? 0)
        if (!ret.items.every((i) => q(i.itemId) === i.quantity) || got[0]!.items.length !== ret.items.length) refundMismatches++
      }
    }
    const leftFailed = [...store.records.values()].filter((r) => r.state === "failed").length
    return {
      orders: scenarios.length,
      eventsDelivered: events,
      serviceAttempts: attempts.length,
      failedAttempts: attempts.filter(injected).length,
      serviceCounts,
      observedFailureRate: Math.round(observed * 1000) / 1000,
      recordsThatFailedOnce: everFailed.size,
      retryJobRounds: rounds,
      lost,
      duplicated,
      amountMismatches,
      refundMismatches,
      filedTaxTotal: roundCents(filedTotal),
      chargedTaxTotal: roundCents(chargedTotal),
      refundsExpected,
      refundsAtService,
      // voids expected: the canceled orders that reached the service (their record was filed)
      voidsExpected: voidsExpected,
      voidedAtService,
      canceledBeforeFiling,
      leftFailed,
      elapsedMs: Date.now() - t0,
    }
  } finally {
    await sb.close()
  }
}

if (require.main === module) {
  const i = process.argv.indexOf("--orders")
  const orders = i > 0 ? Number(process.argv[i + 1]) : 1000
  runSoak({ orders, log: (m) => console.error(m) }).then(
    (f) => {
      console.log(JSON.stringify(f, null, 2))
      const ok = f.lost === 0 && f.duplicated === 0 && f.amountMismatches === 0 && f.refundMismatches === 0 && f.leftFailed === 0
      process.exit(ok ? 0 : 1)
    },
    (e) => {
      console.error(e)
      process.exit(2)
    },
  )
}
