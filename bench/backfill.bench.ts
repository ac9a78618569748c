/**
 * npm run bench:backfill — the backfill core (src/filing/backfill/core.ts: batches of historical order
 * snapshots filed through the FilingProcessor on the in-memory store → POST orders + POST
 * orders/refunds, bounded concurrency) against the sandbox
 * started in this process on an ephemeral port, through the real SalesTaxClient over loopback HTTP.
 *
 * Prints orders/s (the target is ≥ 500 on a 2-core machine) and the process RSS at the start,
 * along the way and at the end. Orders are generated batch by batch (nothing kept), the
 * processor's records are forgotten after each batch, so what grows is the sandbox's own store of filed orders (it is the
 * service): the bench reports that store's size beside the RSS. A rerun of the first orders then
 * shows that nothing is filed twice (every order answered "already existed", every refund replayed).
 *
 *   BENCH_ORDERS (20000)  BENCH_BATCH (500)  BENCH_CONCURRENCY (32)  BENCH_RERUN (1000)
 */
import { Worker, isMainThread, parentPort } from "node:worker_threads"
import { performance, type EventLoopUtilization } from "node:perf_hooks"
import os from "node:os"
import v8 from "node:v8"
import vm from "node:vm"
import { startSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../src/service/client"
import { roundCents } from "../packages/contract/src/money"
import type { FilingLine, FilingSnapshot } from "../src/modules/sales-tax-filing/types"
import { backfillRunner, type BackfillLedger, type BackfillOrder } from "../src/filing/backfill/core"
import { MemoryFilingStore, memoryLock } from "../src/filing/__tests__/memory-store"

const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000)
const BATCH = Number(process.env.BENCH_BATCH ?? 500)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const RERUN = Math.min(ORDERS, Number(process.env.BENCH_RERUN ?? 1000))
const API_KEY = "sk_bench_backfill_0123456789-SECRET"
const CONNECTION_ID = "44444444-5555-4666-8777-888888888888"

const ORIGIN = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const DESTS = [
  { line1: "200 N Spring St", city: "Los Angeles", state: "CA", zip: "90012" },
  { line1: "350 5th Ave", city: "New York", state: "NY", zip: "10118" },
  { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" },
]
const RATES = [0.095, 0.08875, 0.1035]

/** The i-th synthetic historical order (deterministic): 1–3 items + shipping, every 5th with a return. */
function order(i: number): BackfillOrder {
  const id = `order_bench_${String(i).padStart(7, "0")}`
  const d = i % DESTS.length
  const placed = new Date(Date.UTC(2026, 0, 1) + i * 60_000)
  const lines: FilingLine[] = []
  const n = 1 + (i % 3)
  for (let k = 0; k < n; k++) {
    const price = 5 + ((i * 7 + k * 13) % 200) + 0.99
    const quantity = 1 + ((i + k) % 3)
    lines.push({
      index: k,
      itemId: `ordli_${id}_${k}`,
      kind: "item",
      price,
      quantity,
      tic: 0,
      chargedTax: roundCents(price * quantity * RATES[d]!),
      chargedRate: RATES[d]!,
      fallback: false,
    })
  }
  lines.push({
    index: n,
    itemId: `shipping:sm_${id}`,
    kind: "shipping",
    price: 9.95,
    quantity: 1,
    tic: 11010,
    chargedTax: roundCents(9.95 * RATES[d]!),
    chargedRate: RATES[d]!,
    fallback: false,
  })
  const snapshot: FilingSnapshot = {
    orderId: id,
    kind: "order",
    cartId: `cart_${id}`,
    customerId: `cus_bench_${i % 997}`,
    currencyCode: "USD",
    placedAt: placed.toISOString(),
    origin: ORIGIN,
    destination: DESTS[d]!,
    lines,
  }
  const refunds =
    i % 5 === 0
      ? [
          {
            key: `ret_${id}`,
            items: [{ itemId: lines[0]!.itemId, quantity: 1 }],
            returnedAt: new Date(placed.getTime() + 86_400_000 * 3).toISOString(),
          },
        ]
      : []
  return { snapshot, completedAt: placed.toISOString(), refunds }
}

function* batches(from: number, to: number): Generator<BackfillOrder[]> {
  for (let i = from; i < to; i += BATCH) {
    const b: BackfillOrder[] = []
    for (let k = i; k < Math.min(to, i + BATCH); k++) b.push(order(k))
    yield b
  }
}

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`
// a full GC before each reading, so that the figures are what is live, not what awaits collection
v8.setFlagsFromString("--expose-gc")
const gc = vm.runInNewContext("gc") as () => void
function memory() {
  gc()
  const m = process.memoryUsage()
  return { rss: m.rss, heapUsed: m.heapUsed }
}

/**
 * The sandbox runs in a worker thread of this process (its own event loop on the second core;
 * the same process, so its memory is in the RSS printed): the client side and the service side
 * do not share one JavaScript thread.
 */
async function sandboxThread(): Promise<{
  url: string
  stored: () => Promise<number>
  elu: () => Promise<EventLoopUtilization>
  heap: () => Promise<number>
  close: () => Promise<void>
}> {
  const w = new Worker(__filename, { execArgv: ["--require", require.resolve("tsx/cjs")] })
  const pending = new Map<string, (v: unknown) => void>()
  w.on("message", (m: { type: string; value: unknown }) => pending.get(m.type)?.(m.value))
  const ask = <T>(type: string, answer: string) =>
    new Promise<T>((resolve, reject) => {
      // the worker answers each question with the type it was asked for (T)
      pending.set(answer, (v) => resolve(v as T))
      w.once("error", reject)
      if (type) w.postMessage(type)
    })
  const url = await ask<string>("", "url")
  return {
    url,
    stored: () => ask<number>("stored", "stored"),
    elu: () => ask<EventLoopUtilization>("elu", "elu"),
    heap: () => ask<number>("heap", "heap"),
    close: async () => {
      await ask("close", "closed")
      await w.terminate()
    },
  }
}

if (!isMainThread) {
  void startSandbox({ port: 0, host: "127.0.0.1", apiKey: API_KEY, connectionId: CONNECTION_ID, logger: false } as never).then((sb) => {
    parentPort!.postMessage({ type: "url", value: sb.url })
    parentPort!.on("message", async (m: string) => {
      if (m === "stored") parentPort!.postMessage({ type: "stored", value: sb.sandbox.store.list("orders").length })
      if (m === "elu") parentPort!.postMessage({ type: "elu", value: performance.eventLoopUtilization() })
      if (m === "heap") {
        gc()
        parentPort!.postMessage({ type: "heap", value: process.memoryUsage().heapUsed })
      }
      if (m === "close") {
        await sb.close()
        parentPort!.postMessage({ type: "closed", value: true })
      }
    })
  })
}

async function main() {
  const sb = await sandboxThread()
  const client = new SalesTaxClient({ baseUrl: sb.url, apiKey: API_KEY, connectionId: CONNECTION_ID })
  const stored = sb.stored
  // the FilingProcessor's records in memory, forgotten after each batch (the service keeps what was filed)
  const store = new MemoryFilingStore()
  const ledger: BackfillLedger = {
    filed: async () => new Set<string>(), // the service's duplicate answers make a rerun safe
  }
  const backfill = backfillRunner({
    processor: { store, client, lock: memoryLock(), maxAttempts: 1, secrets: [API_KEY] },
    mode: "captured",
    ledger,
    concurrency: CONCURRENCY,
  })
  const runner = {
    async runBatch(b: BackfillOrder[]) {
      const out = await backfill.runBatch(b)
      store.records.clear()
      store.refunds.clear()
      return out
    },
  }
  try {
    // warm-up (JIT, sockets), not counted
    await runner.runBatch([...batches(ORDERS, ORDERS + 200)].flat())
    const start = memory()
    const sandboxHeap0 = await sb.heap()
    console.log(`backfill bench: ${ORDERS} orders, batches of ${BATCH}, ${CONCURRENCY} in flight, sandbox ${sb.url}`)
    console.log(`RSS at start: ${mb(start.rss)} (heap used: backfill thread ${mb(start.heapUsed)}, sandbox thread ${mb(sandboxHeap0)})`)
    const t0 = process.hrtime.bigint()
    const cpu0 = process.cpuUsage()
    const eluMain0 = performance.eventLoopUtilization()
    const eluSandbox0 = await sb.elu()
    let done = 0,
      refunds = 0,
      failed = 0
    const samples: string[] = []
    for (const b of batches(0, ORDERS)) {
      const out = await runner.runBatch(b)
      done += out.filed
      refunds += out.refunds
      failed += out.failed.length
      if (out.failed.length)
        console.log(
          `  failed: ${out.failed
            .slice(0, 3)
            .map((f) => `${f.orderId}: ${f.error}`)
            .join("; ")}`,
        )
      if (done % 5000 < BATCH) {
        const m = memory()
        samples.push(`${done}: RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)}`)
        process.stdout.write(`  ${done} orders, RSS ${mb(m.rss)}, heap used ${mb(m.heapUsed)}\n`)
      }
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9
    const cpu = process.cpuUsage(cpu0)
    const cpuSeconds = (cpu.user + cpu.system) / 1e6
    const eluMain = performance.eventLoopUtilization(eluMain0).utilization
    const eluSandbox = performance.eventLoopUtilization(await sb.elu(), eluSandbox0).utilization
    const end = memory()
    const sandboxHeap1 = await sb.heap()
    const rate = done / seconds
    console.log(
      `filed ${done} orders and ${refunds} refunds in ${seconds.toFixed(2)} s → ${rate.toFixed(0)} orders/s (${((done + refunds) / seconds).toFixed(0)} service writes/s); failed ${failed}`,
    )
    console.log(
      `CPU: ${cpuSeconds.toFixed(1)} s for both threads (${(done / cpuSeconds).toFixed(0)} orders per CPU-second); event loop busy: backfill ${(eluMain * 100).toFixed(0)} %, sandbox ${(eluSandbox * 100).toFixed(0)} %; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    )
    console.log(
      `RSS at end: ${mb(end.rss)} (heap used: backfill thread ${mb(end.heapUsed)}, sandbox thread ${mb(sandboxHeap1)}); RSS change ${mb(end.rss - start.rss)} over ${done} orders, of which the sandbox's stored orders ${mb(sandboxHeap1 - sandboxHeap0)}`,
    )
    console.log(`orders held by the in-process sandbox (the service's own data, in this process): ${await stored()}`)

    // rerun of the first orders: nothing new at the service
    const t1 = process.hrtime.bigint()
    let again = 0,
      already = 0,
      rerunRefunds = 0
    for (const b of batches(0, RERUN)) {
      const out = await runner.runBatch(b)
      again += out.filed
      already += out.alreadyAtService
      rerunRefunds += out.refunds
      failed += out.failed.length
    }
    const s1 = Number(process.hrtime.bigint() - t1) / 1e9
    console.log(
      `rerun of ${RERUN} orders: ${already} of ${again} already at the service, ${rerunRefunds} refunds replayed by key, ${(again / s1).toFixed(0)} orders/s`,
    )
    const ok = rate >= 500 && failed === 0 && already === RERUN
    console.log(
      JSON.stringify({
        orders: done,
        refunds,
        seconds: Number(seconds.toFixed(2)),
        ordersPerSecond: Math.round(rate),
        ordersPerCpuSecond: Math.round(done / cpuSeconds),
        loadAverage: Number(os.loadavg()[0]!.toFixed(1)),
        rssStartMB: Number((start.rss / 1048576).toFixed(1)),
        rssEndMB: Number((end.rss / 1048576).toFixed(1)),
        backfillHeapStartMB: Number((start.heapUsed / 1048576).toFixed(1)),
        backfillHeapEndMB: Number((end.heapUsed / 1048576).toFixed(1)),
        sandboxHeapGrowthMB: Number(((sandboxHeap1 - sandboxHeap0) / 1048576).toFixed(1)),
        failed,
        rerunAlreadyAtService: already,
        target: ">= 500 orders/s",
        met: ok,
      }),
    )
    process.exitCode = ok ? 0 : 1
  } finally {
    await sb.close()
  }
}

if (isMainThread) void main()
