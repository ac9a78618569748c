/**
 * npm run bench:sandbox — throughput of 10-line cart calculations (POST .../carts) on the sandbox,
 * next to the same load generator's figure for a bare Fastify JSON route, and their ratio.
 *
 * The load generator is a small bounded one: N keep-alive connections on loopback, each sending
 * the next request as soon as the previous answer arrived, for a fixed duration after a warm-up.
 * Both servers run in this process, so the ratio (not the absolute figure) is the meaningful number.
 *   BENCH_SECONDS (default 5)  BENCH_CONNECTIONS (default 16)  BENCH_WARMUP_SECONDS (default 1)
 */
import http from "node:http"
import Fastify from "fastify"
import { startSandbox, DEFAULT_API_KEY, DEFAULT_CONNECTION_ID } from "../src/sandbox"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
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
      lineItems: Array.from({ length: 10 }, (_, i) => ({ index: i, itemId: `sku-${i}`, price: 9.99 + i, quantity: 1 + (i % 3), tic: i % 2 === 0 ? 0 : 20010 })),
    },
  ],
})

interface Result {
  requests: number
  errors: number
  seconds: number
}

async function load(port: number, path: string, headers: Record<string, string>, seconds: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const payload = Buffer.from(body)
  let requests = 0
  let errors = 0
  const end = Date.now() + seconds * 1000
  const one = () =>
    new Promise<void>((resolve) => {
      const req = http.request(
        { host: "127.0.0.1", port, method: "POST", path, agent, headers: { ...headers, "content-type": "application/json", "content-length": String(payload.length) } },
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
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) await one()
    }),
  )
  const elapsed = (Date.now() - started) / 1000
  agent.destroy()
  return { requests, errors, seconds: elapsed }
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0 })
  const bare = Fastify()
  bare.post("/json", async () => ({ ok: true }))
  await bare.listen({ port: 0, host: "127.0.0.1" })
  const barePort = (bare.server.address() as { port: number }).port
  const cartPath = `/tax/connections/${DEFAULT_CONNECTION_ID}/carts`
  const auth = { "x-api-key": DEFAULT_API_KEY }

  await load(sandbox.port, cartPath, auth, WARMUP)
  await load(barePort, "/json", {}, WARMUP)
  const s = await load(sandbox.port, cartPath, auth, SECONDS)
  const b = await load(barePort, "/json", {}, SECONDS)
  await sandbox.close()
  await bare.close()

  const sRate = s.requests / s.seconds
  const bRate = b.requests / b.seconds
  const fmt = (n: number) => n.toFixed(0).padStart(8)
  console.log(`load: ${CONNECTIONS} keep-alive connections, ${SECONDS}s each after ${WARMUP}s warm-up, loopback`)
  console.log(`sandbox 10-line cart calculations/s ${fmt(sRate)}   (${s.requests} ok, ${s.errors} errors)`)
  console.log(`bare Fastify JSON route requests/s  ${fmt(bRate)}   (${b.requests} ok, ${b.errors} errors)`)
  console.log(`ratio sandbox / bare                ${(sRate / bRate).toFixed(3).padStart(8)}`)
  if (s.errors || b.errors) process.exitCode = 1
}

void main()
