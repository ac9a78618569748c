/**
 * npx tsx bench/provider-work.ts — the provider's own work per cache miss, without the network: the
 * client's POST carts answered in process (a fresh answer per call, as JSON.parse would give), so
 * the figure is getTaxLines' own (snapshot, service cart, key, quote, tax lines) and neither the
 * client's nor the sandbox's. p50 per call over the calls the provider bench times (its first few
 * hundred, code still warming) and at steady state; on a loaded machine p50s of in-process work
 * stay readable where bench:provider's wall ratio does not. Under valgrind's callgrind the whole
 * process's instructions (BENCH_ITERATIONS 0 for the baseline) give a load-free count per miss.
 *   BENCH_ITERATIONS (default 5000 after the first 650)
 */
import { performance } from "node:perf_hooks"
import { SalesTaxClient } from "../src/service/client"
import { SalesTaxProviderService } from "../src/checkout/quote/provider"
import type { CalculateCartsRequest, CalculateCartsResponse } from "../packages/contract/src/index"
import { benchSnapshot as snapshot, itemLines, shipLines, taxContext as ctx } from "./checkout-script"

const EARLY = 650
const N = Number(process.env.BENCH_ITERATIONS ?? 5000)
const CONN = "00000000-0000-4000-8000-00000000bench"
const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }

// the service's answer to the carts sent: every line taxed at one rate
SalesTaxClient.prototype.calculateCarts = async function (body: CalculateCartsRequest): Promise<CalculateCartsResponse> {
  return {
    connectionId: CONN,
    transactionDate: "2026-01-01T00:00:00Z",
    items: body.items.map((c) => ({
      cartId: c.cartId ?? "",
      customerId: c.customerId,
      currency: { currencyCode: "USD" },
      deliveredBySeller: false,
      origin: c.origin,
      destination: c.destination,
      exemption: { exemptionId: null, isExempt: null },
      lineItems: c.lineItems.map((l) => ({ ...l, tic: l.tic ?? null, tax: { amount: 1.23, rate: 0.08875 } })),
    })),
  }
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

async function main() {
  const silent = { info() {}, warn() {}, error() {}, debug() {} }
  const provider = new SalesTaxProviderService(
    { logger: silent as never },
    { connectionId: CONN, apiKey: "bench-key-0123456789", baseUrl: "http://127.0.0.1:9", origin },
  )
  const early: number[] = []
  const steady: number[] = []
  for (let i = 0; i < EARLY + N; i++) {
    // a new cart each time (every call a miss), built before the clock starts
    const s = snapshot(`miss_${i}`, 5)
    const args = [itemLines(s), shipLines(s), ctx(s)] as const
    // the work the previous call left for later (its immediates) runs first, as in bench:provider
    await new Promise<void>((resolve) => setImmediate(resolve))
    const t = performance.now()
    await provider.getTaxLines(...args)
    ;(i < EARLY ? early : steady).push(performance.now() - t)
  }
  if (provider.stats.serviceCalls !== EARLY + N) throw new Error(`expected a miss per call, got ${provider.stats.serviceCalls} calls`)
  const µs = (ms: number) => `${(ms * 1000).toFixed(1)} µs`
  console.log(`getTaxLines' own work per miss (p50): first ${EARLY} calls ${µs(p50(early))}; the ${N} after ${µs(p50(steady))}`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
