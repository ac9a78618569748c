/**
 * npm run bench:store — a cart mutation through Medusa's store API with the plugin's provider,
 * against the same mutation on Medusa's system tax provider, in one Medusa app, one process, in
 * interleaved rounds (machine load affects both sides alike). Not part of `npm test` (no test
 * pattern matches it); run by `scripts/run-tests.mjs` (Postgres, Redis) as a jest file.
 *
 * The store: the seeded US region (tax region on the plugin's provider, the sandbox in process on
 * an ephemeral port) and a Canada region in the same currency whose tax region uses `tp_system`.
 * Each side: a cart with three items and an address; the measured mutation is a quantity change of
 * its first line (POST /store/carts/:id/line-items/:line), a new quantity each time so that every
 * plugin mutation is a new cart state (one POST carts to the service, no cache hit). Both carts go
 * through the same Medusa workflows and the plugin's hooks; only the tax provider differs.
 * The plugin computes that tax inside Medusa's cart refresh (src/workflows/hooks/cart-refresh-tax.ts);
 * BENCH_STORE_COMPARE=1 adds a third cart, on the plugin's provider too, whose requests take the
 * after-route refresh instead (one more workflow run and a refetch of the answer: the path before
 * the hook, and still the path of the promotions routes), in the same interleaved rounds.
 *   BENCH_STORE_ROUNDS (default 4), BENCH_STORE_PER_ROUND (default 6), BENCH_STORE_COMPARE
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createRegionsWorkflow, createTaxRegionsWorkflow } from "@medusajs/core-flows"
import { loadavg, cpus } from "node:os"
import { performance } from "node:perf_hooks"
import { writeFileSync } from "node:fs"
import {
  ADDRESSES,
  CART_FIELDS,
  Checkout,
  resetCheckout,
  seedCheckoutStore,
  storeHeaders,
  useSalesTaxSandbox,
} from "../integration-tests/helpers"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../src/constants"
import { benchPhaseNow, benchPhaseRows, type PhaseRow } from "../src/checkout/store/tax-resync"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

// the plugin's store middlewares time their phases (remember, route, US check, refresh, refetch)
process.env.SALES_TAX_BENCH_PHASES = "1"

jest.setTimeout(900_000)

const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 4)
const PER_ROUND = Number(process.env.BENCH_STORE_PER_ROUND ?? 6)
const st = useSalesTaxSandbox()

/** The part of a store cart answer the bench reads. */
type BenchCart = { items: { id: string; variant_id: string | null; tax_lines: { provider_id: string | null }[] }[] }

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    it("store cart mutation: plugin provider vs system provider (ratio printed)", async () => {
      const load = loadavg()
      const container = getContainer()
      await resetCheckout(container, st.sandbox)
      const store = await seedCheckoutStore(container)
      const {
        result: [canada],
      } = await createRegionsWorkflow(container).run({
        input: {
          regions: [
            {
              name: "Canada (system tax)",
              currency_code: "usd",
              countries: ["ca"],
              automatic_taxes: true,
              payment_providers: ["pp_system_default"],
            },
          ],
        },
      })
      await createTaxRegionsWorkflow(container).run({
        input: [
          { country_code: "ca", provider_id: "tp_system", default_tax_rate: { rate: 13, code: "CA-DEFAULT", name: "Canada default" } },
        ],
      })

      const p = store.products
      const setUp = async (regionId: string, address: (typeof ADDRESSES)[keyof typeof ADDRESSES], afterRoute = false) => {
        const co = new Checkout(api, { ...store, regionId })
        await co.create()
        await co.setAddress(address)
        await co.addItem(p.general.variantId, 1)
        await co.addItem(p.shirt.variantId, 1)
        const cart: BenchCart = await co.addItem(p.coffee.variantId, 1)
        return { co, afterRoute, lineId: cart.items.find((i) => i.variant_id === p.general.variantId)!.id }
      }
      const plugin = await setUp(store.regionId, ADDRESSES.minneapolis)
      const system = await setUp(canada.id, ADDRESSES.toronto)
      const compare = process.env.BENCH_STORE_COMPARE === "1" ? await setUp(store.regionId, ADDRESSES.minneapolis, true) : undefined
      const sides = compare ? [plugin, system, compare] : [plugin, system]
      const sideName = (side: typeof plugin) => (side === plugin ? "plugin" : side === system ? "system" : "after-route")

      // SQL statements per mutation (knex's query event on Medusa's shared connection)
      let sql = 0
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { on(e: string, f: (q?: { sql?: string }) => void): void }
      // BENCH_STORE_SQL_LOG=<file>: the statements of each measured mutation, tagged with the plugin's phase
      const sqlLog: string[] = []
      let tag = ""
      pg.on("query", (q?: { sql?: string }) => {
        sql++
        if (process.env.BENCH_STORE_SQL_LOG && tag)
          sqlLog.push(`${tag}\t${benchPhaseNow()}\t${performance.now().toFixed(1)}\t${String(q?.sql ?? "").slice(0, 160)}`)
      })
      const sqlPer = new Map<typeof plugin, number[]>()
      let qty = 1
      const mutate = async (side: typeof plugin, out?: number[]) => {
        qty++
        const s0 = sql
        tag = out ? `${sideName(side)} mutation ${qty}` : ""
        const t = performance.now()
        if (process.env.BENCH_STORE_SQL_LOG && tag) sqlLog.push(`${tag}\t\t${t.toFixed(1)}\t(request sent)`)
        const cart = side.afterRoute
          ? (
              await api.post(
                `/store/carts/${side.co.cartId}/line-items/${side.lineId}?fields=${CART_FIELDS}`,
                { quantity: qty },
                { headers: { ...storeHeaders(store).headers, "x-sales-tax-bench-refresh": "after-route" } },
              )
            ).data.cart
          : await side.co.setQuantity(side.lineId, qty)
        out?.push(performance.now() - t)
        if (process.env.BENCH_STORE_SQL_LOG && tag) sqlLog.push(`${tag}\t\t${performance.now().toFixed(1)}\t(answer received)`)
        if (out) sqlPer.set(side, [...(sqlPer.get(side) ?? []), sql - s0])
        return cart
      }
      // warm-up (JIT, connections, caches of Medusa's own)
      for (let i = 0; i < 3; i++) for (const side of sides) await mutate(side)
      await st.sandbox.resetCounts()
      benchPhaseRows().length = 0

      const pluginT: number[] = []
      const systemT: number[] = []
      const compareT: number[] = []
      const roundRatios: number[] = []
      const compareRatios: number[] = []
      let lastPlugin: BenchCart | undefined
      let lastSystem: BenchCart | undefined
      for (let r = 0; r < ROUNDS; r++) {
        const times = new Map(sides.map((s) => [s, [] as number[]]))
        for (let i = 0; i < PER_ROUND; i++) {
          // each side goes first, second (and third) equally often
          const k = (r * PER_ROUND + i) % sides.length
          for (const side of [...sides.slice(k), ...sides.slice(0, k)]) {
            const cart = await mutate(side, times.get(side))
            if (side === plugin) lastPlugin = cart
            if (side === system) lastSystem = cart
          }
        }
        const [pr, sr, cr] = [times.get(plugin)!, times.get(system)!, compare ? times.get(compare)! : []]
        pluginT.push(...pr)
        systemT.push(...sr)
        compareT.push(...cr)
        roundRatios.push(pct(pr, 50) / pct(sr, 50))
        if (compare) compareRatios.push(pct(cr, 50) / pct(sr, 50))
      }
      const counts = await st.sandbox.counts()
      const n = ROUNDS * PER_ROUND * (compare ? 2 : 1)

      const sortedRounds = [...roundRatios].sort((a, b) => a - b)
      const lines = [
        `store bench (${ROUNDS} interleaved rounds × ${PER_ROUND} mutations per side; load average at start ${load.map((l) => l.toFixed(2)).join(", ")} on ${cpus().length} cores)`,
        `  POST /store/carts/:id/line-items/:line, system provider (Canada)   p50 ${pct(systemT, 50).toFixed(2)} ms  p90 ${pct(systemT, 90).toFixed(2)} ms`,
        `  same mutation, plugin provider (US, sandbox in process)         p50 ${pct(pluginT, 50).toFixed(2)} ms  p90 ${pct(pluginT, 90).toFixed(2)} ms  (${counts.calculateCarts} POST carts for ${n} mutations)`,
        `  plugin / system (p50)                                          ${(pct(pluginT, 50) / pct(systemT, 50)).toFixed(2)}  (goal ≤ 1.15; per round ${sortedRounds.map((x) => x.toFixed(2)).join(" ")})`,
      ]
      if (compare)
        lines.push(
          `  after-route refresh (plugin, the path without the refresh hook) p50 ${pct(compareT, 50).toFixed(2)} ms  p90 ${pct(compareT, 90).toFixed(2)} ms`,
          `  after-route / system (p50)                                     ${(pct(compareT, 50) / pct(systemT, 50)).toFixed(2)}  (per round ${[
            ...compareRatios,
          ]
            .sort((a, b) => a - b)
            .map((x) => x.toFixed(2))
            .join(" ")})`,
        )
      const phaseLine = (name: string, side: typeof plugin, cartId: string) => {
        const rows = benchPhaseRows().filter((r) => r.cartId === cartId)
        const keys = ["remember", "route", "usCheck", "refresh", "refetch"] as const
        const med = (k: (typeof keys)[number]) =>
          pct(
            rows.map((r: PhaseRow) => r[k]),
            50,
          ).toFixed(1)
        return `  ${name} phases p50 (ms, ${rows.length} rows): ${keys.map((k) => `${k} ${med(k)}`).join("  ")}  | SQL statements per mutation p50 ${pct(sqlPer.get(side) ?? [0], 50)}`
      }
      lines.push(phaseLine("system", system, system.co.cartId), phaseLine("plugin", plugin, plugin.co.cartId))
      if (compare) lines.push(phaseLine("after-route", compare, compare.co.cartId))
      if (process.env.BENCH_STORE_SQL_LOG) writeFileSync(process.env.BENCH_STORE_SQL_LOG, sqlLog.join("\n"))
      process.stdout.write(`\n${lines.join("\n")}\n\n`)
      // the two sides are what they claim: the plugin taxed the US cart (one service call per
      // mutation, every one a new cart state), Medusa's system provider the Canadian one
      expect(counts.calculateCarts).toBe(n)
      const providers = (cart: BenchCart | undefined) => (cart?.items ?? []).map((i) => i.tax_lines.map((l) => l.provider_id).join("+"))
      expect(providers(lastPlugin)).toEqual([SALES_TAX_PROVIDER_IDENTIFIER, SALES_TAX_PROVIDER_IDENTIFIER, SALES_TAX_PROVIDER_IDENTIFIER])
      expect(providers(lastSystem)).toEqual(["system", "system", "system"])
    })
  },
})
