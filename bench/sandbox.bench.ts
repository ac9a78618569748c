/**
 * npm run bench:sandbox — throughput of 10-line cart calculations (POST .../carts) on the sandbox,
 * next to the same load generator's figure for a bare Fastify JSON route, and their ratio.
 *
 * The load generator is a small bounded one: N keep-alive connections on loopback, each sending
 * the next request as soon as the previous answer arrived, for a fixed duration after a warm-up.
 * Both servers run in this process, so the ratio (not the absolute figure) is the meaningful number.
 * On a shared machine the load of other processes moves during a run: the two servers are measured
 * in alternating rounds (sandbox, bare, bare, sandbox, ...) and the ratio of each round pair is
 * printed with their median, so a burst of outside load hits both sides instead of one.
 *   BENCH_SECONDS (default 3 per round and server)  BENCH_ROUNDS (default 4)
 *   BENCH_CONNECTIONS (default 16)  BENCH_WARMUP_SECONDS (default 1)
 * BENCH_CALLGRIND=sandbox|bare: instead, that server alone in a child process under valgrind's
 * callgrind, which counts the instructions of its main thread per request (1,000 requests after
 * 3,000; BENCH_CALLGRIND_REQUESTS, BENCH_CALLGRIND_WARMUP), GC apart: a measure that the machine's
 * load does not move. V8's memory reducer is off (slowed down, the child looks idle to it).
 */
import { execFileSync, spawn } from "node:child_process"
import http from "node:http"
import Fastify from "fastify"
import { startSandbox, DEFAULT_API_KEY, DEFAULT_CONNECTION_ID } from "@medusa-sales-tax/sandbox"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 1)

const address = (line1: string, city: string, state: string, zip: string) => ({ line1, city, state, zip })
const body = JSON.stringify({
  items: [
    {
      cartId: "bench-cart",
      customerId: "bench-customer",
      currency: { currencyCode: "USD" },
      origin: address("1 Main St", "Seattle", "WA", "98101"),
      destination: address("350 5th Ave", "New York", "NY", "10118"),
      lineItems: Array.from({ length: 10 }, (_, i) => ({
        index: i,
        itemId: `sku-${i}`,
        price: 9.99 + i,
        quantity: 1 + (i % 3),
        tic: i % 2 === 0 ? 0 : 20010,
      })),
    },
  ],
})

interface Result {
  requests: number
  errors: number
  seconds: number
  /** CPU time of this process (servers + load generator) during the round, µs */
  cpuMicros: number
}

async function load(port: number, path: string, headers: Record<string, string>, seconds: number, count?: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const payload = Buffer.from(body)
  let requests = 0
  let errors = 0
  const end = Date.now() + seconds * 1000
  const one = () =>
    new Promise<void>((resolve) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path,
          agent,
          headers: { ...headers, "content-type": "application/json", "content-length": String(payload.length) },
        },
        (res) => {
          res.resume()
          res.on("end", () => {
            if (res.statusCode === 200) requests++
            else errors++
            resolve()
          })
        },
      )
      req.on("error", () => {
        errors++
        resolve()
      })
      req.end(payload)
    })
  const started = Date.now()
  const cpu0 = process.cpuUsage()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (count === undefined ? Date.now() < end : count-- > 0) await one()
    }),
  )
  const elapsed = (Date.now() - started) / 1000
  const cpu = process.cpuUsage(cpu0)
  agent.destroy()
  return { requests, errors, seconds: elapsed, cpuMicros: cpu.user + cpu.system }
}

const cartPath = `/tax/connections/${DEFAULT_CONNECTION_ID}/carts`
const auth = { "x-api-key": DEFAULT_API_KEY }

async function startBare() {
  const bare = Fastify()
  bare.post("/json", async () => ({ ok: true }))
  await bare.listen({ port: 0, host: "127.0.0.1" })
  return { bare, port: (bare.server.address() as { port: number }).port }
}

async function callgrind(which: "sandbox" | "bare"): Promise<void> {
  const n = Number(process.env.BENCH_CALLGRIND_REQUESTS ?? 1000)
  const out = `/tmp/sandbox-bench-callgrind.${which}.${process.pid}`
  const args = ["--tool=callgrind", "--separate-threads=yes", "--instr-atstart=no", `--callgrind-out-file=${out}`]
  const child = spawn("valgrind", [...args, process.execPath, "--no-memory-reducer", ...process.execArgv, process.argv[1]!], {
    env: { ...process.env, BENCH_CALLGRIND: "", BENCH_SERVE: which },
    stdio: ["ignore", "pipe", "ignore"],
  })
  const port = await new Promise<number>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(Number(String(d).trim()))))
  const [path, headers] = which === "bare" ? ["/json", {}] : [cartPath, auth]
  await load(port, path, headers, 0, Number(process.env.BENCH_CALLGRIND_WARMUP ?? 3000))
  for (const c of [["-i", "on"], ["-z"]]) execFileSync("callgrind_control", [...c, String(child.pid)])
  await load(port, path, headers, 0, n)
  execFileSync("callgrind_control", ["-d", String(child.pid)])
  child.kill()
  const file = `${out}.1-01` // the dump of the main thread
  const total = Number(/^summary: (\d+)/m.exec(execFileSync("cat", [file], { encoding: "utf8" }))![1])
  const inclusive = execFileSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", file], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  })
  let gc = 0
  for (const m of inclusive.matchAll(/^\s*([\d,]+) .*Heap::CollectGarbage\(/gm)) gc += Number(m[1]!.replaceAll(",", ""))
  const k = (x: number) => `${(x / n / 1000).toFixed(1)}k`
  console.log(`${which}: instructions per request (main thread) ${k(total)}, GC ${k(gc)}, without GC ${k(total - gc)}   (${file})`)
}

async function main(): Promise<void> {
  if (process.env.BENCH_SERVE) {
    const port = process.env.BENCH_SERVE === "bare" ? (await startBare()).port : (await startSandbox({ port: 0 })).port
    return void console.log(port)
  }
  if (process.env.BENCH_CALLGRIND) return callgrind(process.env.BENCH_CALLGRIND === "bare" ? "bare" : "sandbox")
  const sandbox = await startSandbox({ port: 0 })
  const { bare, port: barePort } = await startBare()

  await load(sandbox.port, cartPath, auth, WARMUP)
  await load(barePort, "/json", {}, WARMUP)
  const rounds: { s: Result; b: Result }[] = []
  for (let r = 0; r < ROUNDS; r++) {
    // alternate which server goes first, so a drift in outside load does not favour one side
    if (r % 2 === 0) {
      const s = await load(sandbox.port, cartPath, auth, SECONDS)
      rounds.push({ s, b: await load(barePort, "/json", {}, SECONDS) })
    } else {
      const b = await load(barePort, "/json", {}, SECONDS)
      rounds.push({ s: await load(sandbox.port, cartPath, auth, SECONDS), b })
    }
  }
  await sandbox.close()
  await bare.close()

  const rate = (x: Result) => x.requests / x.seconds
  const fmt = (n: number) => n.toFixed(0).padStart(8)
  const median = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b)
    return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2
  }
  console.log(`load: ${CONNECTIONS} keep-alive connections, ${ROUNDS} rounds of ${SECONDS}s per server after ${WARMUP}s warm-up, loopback`)
  rounds.forEach((r, i) => {
    console.log(
      `round ${i + 1}: sandbox ${fmt(rate(r.s))} carts/s   bare ${fmt(rate(r.b))} req/s   ratio ${(rate(r.s) / rate(r.b)).toFixed(3)}`,
    )
  })
  const sAll = rounds.reduce((n, r) => n + r.s.requests, 0) / rounds.reduce((n, r) => n + r.s.seconds, 0)
  const bAll = rounds.reduce((n, r) => n + r.b.requests, 0) / rounds.reduce((n, r) => n + r.b.seconds, 0)
  const errors = rounds.reduce((n, r) => n + r.s.errors + r.b.errors, 0)
  console.log(
    `sandbox 10-line cart calculations/s ${fmt(sAll)}   (${rounds.reduce((n, r) => n + r.s.requests, 0)} ok, ${rounds.reduce((n, r) => n + r.s.errors, 0)} errors)`,
  )
  console.log(
    `bare Fastify JSON route requests/s  ${fmt(bAll)}   (${rounds.reduce((n, r) => n + r.b.requests, 0)} ok, ${rounds.reduce((n, r) => n + r.b.errors, 0)} errors)`,
  )
  console.log(`ratio sandbox / bare (all rounds)   ${(sAll / bAll).toFixed(3).padStart(8)}`)
  console.log(
    `ratio sandbox / bare (median round) ${median(rounds.map((r) => rate(r.s) / rate(r.b)))
      .toFixed(3)
      .padStart(8)}`,
  )
  // CPU time per request (this process: server + load generator) is far less sensitive to other
  // processes' load than requests per second; its inverse ratio is the throughput ratio on an idle core.
  const cpuPer = (xs: Result[]) => xs.reduce((n, x) => n + x.cpuMicros, 0) / xs.reduce((n, x) => n + x.requests, 0)
  const cs = cpuPer(rounds.map((r) => r.s))
  const cb = cpuPer(rounds.map((r) => r.b))
  console.log(`CPU per request: sandbox ${cs.toFixed(0)} µs, bare ${cb.toFixed(0)} µs → ratio ${(cb / cs).toFixed(3)}`)
  if (errors) process.exitCode = 1
}

void main()
