/**
 * npm run bench:provider — the tax provider against the sandbox, both in this process:
 *  1. getTaxLines on a cache miss divided by a raw POST carts of the same cart (the provider's own
 *     overhead: snapshot parsing, hashing, certificate lookup from cache, back-solving),
 *  2. getTaxLines on a cache hit, p50 and p99,
 *  3. service calls per scripted checkout: the getTaxLines calls Medusa 2.21 makes during a
 *     storefront checkout (items and shipping asked separately at each step, plus the plugin's own
 *     refresh after each cart mutation and before completion), replayed against the provider, with
 *     the sandbox's request counts.
 *   BENCH_ITERATIONS (default 300)
 */
import { performance } from "node:perf_hooks"
import { startSandbox } from "../src/sandbox"
import { SalesTaxClient } from "../src/client"
import { SalesTaxProviderService } from "../src/providers/sales-tax/service"
import { CONTEXT_KEY } from "../src/providers/sales-tax/constants"
import { buildServiceCart } from "../src/providers/sales-tax/build-service-cart"
import { CartSnapshot, type CartSnapshotInput } from "../src/providers/sales-tax/context"

const N = Number(process.env.BENCH_ITERATIONS ?? 300)
const KEY = "bench-key-0123456789"
const CONN = "00000000-0000-4000-8000-00000000bench"
const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const address = { country_code: "us", province_code: "NY", postal_code: "10118", city: "New York", address_1: "350 5th Ave" }
const destination = { line1: "350 5th Ave", city: "New York", state: "NY", zip: "10118", countryCode: "US" as const }

function snapshot(cartId: string, nItems: number, withShipping = true, qtyBump = 0): CartSnapshotInput {
  return {
    v: 1,
    cart_id: cartId,
    customer_id: null,
    currency_code: "usd",
    items: Array.from({ length: nItems }, (_, i) => ({ id: `item_${i}`, product_id: `prod_${i}`, quantity: String(1 + (i % 3) + qtyBump), unit_price: (9.99 + i).toFixed(2), discount: i === 1 ? "1.5" : "0", tic: i % 2 ? 20010 : 0 })),
    shipping_methods: withShipping ? [{ id: "sm_1", amount: "8", discount: "0" }] : [],
  }
}
const itemLines = (s: CartSnapshotInput) => s.items.map((i) => ({ line_item: { id: i.id, product_id: i.product_id, quantity: Number(i.quantity), unit_price: Number(i.unit_price), currency_code: "usd" }, rates: [] }))
const shipLines = (s: CartSnapshotInput) => (s.shipping_methods ?? []).map((m) => ({ shipping_line: { id: m.id, shipping_option_id: "so_1", unit_price: Number(m.amount), currency_code: "usd" }, rates: [] }))
const ctx = (s: CartSnapshotInput) => ({ address, additional_context: { [CONTEXT_KEY]: s } }) as never

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}
const fmt = (ms: number) => `${ms.toFixed(3)} ms`

async function main() {
  const sb = await startSandbox({ port: 0, apiKey: KEY, connectionId: CONN })
  const counts = async () => ((await (await fetch(`${sb.url}/_sandbox/counts`, { headers: { "x-api-key": KEY } })).json()) as { counts: Record<string, number> }).counts
  const resetCounts = () => fetch(`${sb.url}/_sandbox/counts`, { method: "DELETE", headers: { "x-api-key": KEY } })
  try {
    const silent = { info() {}, warn() {}, error() {}, debug() {} }
    const provider = new SalesTaxProviderService({ logger: silent as never }, { connectionId: CONN, apiKey: KEY, baseUrl: sb.url, origin })
    const raw = new SalesTaxClient({ baseUrl: sb.url, apiKey: KEY, connectionId: CONN, retry: false })

    // warm-up (JIT, keep-alive sockets)
    for (let i = 0; i < 30; i++) {
      const s = snapshot(`warm_${i}`, 5)
      await provider.getTaxLines(itemLines(s) as never, [], ctx(s))
      await raw.calculateCarts({ items: [buildServiceCart({ snapshot: CartSnapshot.parse(s), origin, destination, shippingTic: 11010, defaultTic: 0 })] })
    }

    // 1. miss vs raw, interleaved so both see the same machine load
    const miss: number[] = []
    const rawT: number[] = []
    for (let i = 0; i < N; i++) {
      const s = snapshot(`miss_${i}`, 5)
      const cart = buildServiceCart({ snapshot: CartSnapshot.parse(snapshot(`raw_${i}`, 5)), origin, destination, shippingTic: 11010, defaultTic: 0 })
      let t = performance.now()
      await raw.calculateCarts({ items: [cart] })
      rawT.push(performance.now() - t)
      t = performance.now()
      await provider.getTaxLines(itemLines(s) as never, shipLines(s) as never, ctx(s))
      miss.push(performance.now() - t)
    }
    // 2. hits
    const hitSnap = snapshot("hit_cart", 5)
    await provider.getTaxLines(itemLines(hitSnap) as never, [], ctx(hitSnap))
    const hit: number[] = []
    for (let i = 0; i < N * 10; i++) {
      const t = performance.now()
      await provider.getTaxLines(itemLines(hitSnap) as never, [], ctx(hitSnap))
      hit.push(performance.now() - t)
    }

    // 3. a scripted checkout, as Medusa 2.21 calls the provider (see docs/provider.md)
    await resetCounts()
    let getTaxLinesCalls = 0
    const both = async (s: CartSnapshotInput) => {
      getTaxLinesCalls += 2
      await provider.getTaxLines(itemLines(s) as never, [], ctx(s))
      if (s.shipping_methods?.length) await provider.getTaxLines([], shipLines(s) as never, ctx(s))
    }
    const id = "checkout_cart"
    const steps: Array<[string, CartSnapshotInput, number]> = [
      // [step, cart state, how many tax recalculations Medusa + the plugin's refresh make]
      ["set shipping address (1 item)", snapshot(id, 1, false), 2],
      ["add 2nd item", snapshot(id, 2, false), 2],
      ["add 3rd item", snapshot(id, 3, false), 2],
      ["add shipping method", snapshot(id, 3, true), 2],
      ["change a quantity", snapshot(id, 3, true, 1), 1],
      ["POST /taxes (storefront recalc)", snapshot(id, 3, true, 1), 1],
      ["update email (same taxable state)", snapshot(id, 3, true, 1), 2],
      ["complete (refresh before placing)", snapshot(id, 3, true, 1), 1],
    ]
    for (const [, s, times] of steps) for (let k = 0; k < times; k++) await both(s)
    const c = await counts()
    const distinct = new Set(steps.map(([, s]) => JSON.stringify(s))).size

    const missP50 = pct(miss, 50)
    const rawP50 = pct(rawT, 50)
    console.log(`provider bench (${N} iterations, sandbox in-process on ${sb.url})`)
    console.log(`  raw POST carts (5 items + shipping)       p50 ${fmt(rawP50)}  p99 ${fmt(pct(rawT, 99))}`)
    console.log(`  getTaxLines, cache miss (items+shipping)  p50 ${fmt(missP50)}  p99 ${fmt(pct(miss, 99))}`)
    console.log(`  miss / raw (p50)                          ${(missP50 / rawP50).toFixed(2)}`)
    console.log(`  getTaxLines, cache hit                    p50 ${fmt(pct(hit, 50))}  p99 ${fmt(pct(hit, 99))}`)
    console.log(`  scripted checkout: ${steps.length} steps, ${getTaxLinesCalls} getTaxLines calls, ${distinct} distinct cart states`)
    console.log(`    service calls: POST carts ${c.calculateCarts ?? 0}, certificate lists ${c.listCertificates ?? 0}  => ${(c.calculateCarts ?? 0) + (c.listCertificates ?? 0)} per checkout`)
  } finally {
    await sb.close()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
