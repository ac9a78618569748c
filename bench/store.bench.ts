/**
 * npm run bench:store — a cart mutation through Medusa's store API with the plugin, against the
 * same mutation on a Medusa app that does not load the plugin at all. Not part of `npm test` (no
 * test pattern matches it); run by `scripts/run-tests.mjs` (Postgres, Redis) as a jest file.
 *
 * Two Medusa apps, each booted by medusaIntegrationTestRunner under jest, each on its own database
 * cloned from the same template:
 *   plugin  this process: the repository as the Medusa app (the plugin's provider, modules,
 *           middlewares, hooks, subscribers), the sandbox of the service in process on an ephemeral
 *           port; the seeded US region's tax region on the plugin's provider; a Canada region whose
 *           tax region is Medusa's tp_system (13 %)
 *   plain   a child process (bench/plain-store.app.ts, bench/plain-app/medusa-config.js): no plugin;
 *           the same products and addresses, its US tax region on tp_system at 9.025 % (the
 *           plugin side's Minneapolis rate), the same Canada region
 * Each side: a US cart (Minneapolis) and a Canadian cart (Toronto), three items each. The measured
 * mutation is a quantity change of a cart's first line (POST /store/carts/:id/line-items/:line), a
 * new quantity each time so that every plugin mutation is a new cart state (one POST carts to the
 * service, no cache hit). The four carts take turns in interleaved rounds (each goes first equally
 * often), so that the machine's load falls on all alike; the driver (this process) waits for each
 * answer before the next request, so the plugin app sharing its process with the driver and the
 * sandbox competes with them for nothing but the machine.
 *
 * Printed: per cart, p50/p90 of the mutation; plugin ÷ plain for the US cart (the bar: ≤ 1.15) and
 * the Canadian cart (what the plugin costs where it does not tax), each the median of the per-round
 * ratios of medians; SQL statements per mutation (knex's `query` event on each app's connection);
 * and where the plugin US mutation's time and statements go, from the plugin's tracing channel
 * (STORE_CART_TRACE: its phases, remember and the tax run in Medusa's refresh) and Node's
 * `http.client.*` diagnostics channels (the round trips to the sandbox); the rest is Medusa's own.
 * CPU, which a loaded machine hardly moves: per mutation each app's process CPU (process.cpuUsage),
 * each app's own view of the request (server-timing.ts), and the plugin app's request cut at its
 * refresh hook (before / the hook / after): what the plugin adds outside its hook shows there as
 * a US-over-CA difference in the same process.
 *   BENCH_STORE_ROUNDS (default 4), BENCH_STORE_PER_ROUND (default 8),
 *   BENCH_STORE_SQL_LOG=<file>: every statement of the measured mutations, with its cart and phase
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createRegionsWorkflow, createTaxRegionsWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import axios, { type AxiosInstance } from "axios"
import { AsyncLocalStorage } from "node:async_hooks"
import { spawn, type ChildProcess } from "node:child_process"
import { subscribe, tracingChannel } from "node:diagnostics_channel"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { ADDRESSES, CART_FIELDS, resetCheckout, seedCheckoutStore, useSalesTaxSandbox } from "../integration-tests/helpers"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../src/constants"
import { STORE_CART_TRACE, type StoreCartSpan } from "../src/checkout/store/cart-refresh"
import type { PlainStore } from "./plain-store.app"
import { serverTimings, type ServerTiming } from "./server-timing"

jest.setTimeout(1_800_000)

const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 4)
const PER_ROUND = Number(process.env.BENCH_STORE_PER_ROUND ?? 8)
const st = useSalesTaxSandbox()
const timings = serverTimings()

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}
const ms = (x: number) => `${x.toFixed(1)} ms`

/** The plain app in a child jest process; resolves once it serves (its BENCH_PLAIN_OUT written). */
async function startPlain(): Promise<{ store: PlainStore; child: ChildProcess; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "bench-plain-"))
  const out = join(dir, "plain.json")
  const child = spawn(
    process.execPath,
    [
      "--experimental-vm-modules",
      require.resolve("jest/bin/jest"),
      "--runInBand",
      "--forceExit",
      "--testMatch",
      "**/bench/plain-store.app.ts",
    ],
    { cwd: join(__dirname, ".."), env: { ...process.env, BENCH_PLAIN_OUT: out }, stdio: ["ignore", "ignore", "pipe"] },
  )
  let stderr = ""
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)))
  let exited = false
  child.once("exit", () => (exited = true))
  const deadline = Date.now() + 600_000
  while (!existsSync(out)) {
    if (exited) throw new Error(`the plain Medusa app stopped while starting:\n${stderr}`)
    if (Date.now() > deadline) throw new Error(`the plain Medusa app did not start within 600 s:\n${stderr}`)
    await new Promise((r) => setTimeout(r, 500))
  }
  const store = JSON.parse(readFileSync(out, "utf8")) as PlainStore
  rmSync(dir, { recursive: true, force: true })
  return {
    store,
    child,
    async stop() {
      await axios.get(`${store.control}/stop`).catch(() => undefined)
      const done = new Promise((r) => child.once("exit", r))
      await Promise.race([done, new Promise((r) => setTimeout(r, 60_000))])
      if (!exited) child.kill("SIGKILL")
    },
  }
}

/** One cart of the bench: how to change it and how its SQL statements are counted. */
interface Side {
  name: string
  app: "plugin" | "plain"
  us: boolean
  http: AxiosInstance
  headers: Record<string, string>
  cartId: string
  lineId: string
  qty: number
  times: number[]
  sql: number[]
  /** CPU ms per mutation of the app serving it (the plugin side's: this whole process, driver and sandbox included) */
  cpu: number[]
  /** plain side: this process's CPU ms during the mutation (the driver's share) */
  driverCpu: number[]
  /** the app's own view of the mutation (server-timing.ts), and how long after its answer finished the driver had it */
  server: (ServerTiming & { deliverMs: number })[]
  /** plugin side: [before the refresh hook, the hook, after it] of the request, CPU and wall */
  split: { cpu: number[]; wall: number[] }[]
  /** statements in the mutation's window that ran in one of the plugin's phases (of this request or an earlier one's work finishing late) */
  pluginPhaseSql: number[]
  lastCart?: { items: { tax_lines: { provider_id: string | null }[] }[] }
}

/** What the plugin's phases and the sandbox round trips took in one plugin mutation. */
interface Breakdown {
  phaseMs: Record<string, number>
  phaseSql: Record<string, number>
  serviceMs: number
  serviceCalls: number
}

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let plain: Awaited<ReturnType<typeof startPlain>> | undefined
    afterAll(async () => {
      await plain?.stop()
    })

    it("store cart mutation: plugin vs Medusa without the plugin (ratios printed)", async () => {
      const load = loadavg()
      const started = new Date().toISOString().slice(0, 16)
      // the plain app boots while this one seeds
      const plainStarting = startPlain()
      const container = getContainer()
      await resetCheckout(container, st.sandbox)
      const store = await seedCheckoutStore(container)
      const {
        result: [canada],
      } = await createRegionsWorkflow(container).run({
        input: {
          regions: [
            { name: "Canada", currency_code: "usd", countries: ["ca"], automatic_taxes: true, payment_providers: ["pp_system_default"] },
          ],
        },
      })
      await createTaxRegionsWorkflow(container).run({
        input: [{ country_code: "ca", provider_id: "tp_system", default_tax_rate: { rate: 13, code: "CA-DEFAULT", name: "Canada" } }],
      })
      plain = await plainStarting
      const p = plain.store

      // SQL statements: the plugin app's, counted here, attributed to the plugin's phase they run in
      let pluginSql = 0
      let pluginPhaseSql = 0
      const ownCpuMs = () => {
        const u = process.cpuUsage()
        return (u.user + u.system) / 1000
      }
      const phaseOf = new AsyncLocalStorage<string>()
      const trace = tracingChannel<unknown, StoreCartSpan>(STORE_CART_TRACE)
      trace.start.bindStore(phaseOf, (ctx) => ctx.phase)
      let breakdown: Breakdown | undefined
      const began = new WeakMap<object, number>()
      // the refresh hook of the mutation under way: CPU (this process) and wall at its start and end
      let hook: { cartId: string; cpu0: number; t0: number; cpu1?: number; t1?: number } | undefined
      trace.subscribe({
        start: (ctx) => {
          began.set(ctx, performance.now())
          if (ctx.phase === "refresh-hook") hook = { cartId: ctx.cartId, cpu0: ownCpuMs(), t0: performance.timeOrigin + performance.now() }
        },
        end: () => undefined,
        asyncStart: () => undefined,
        asyncEnd: (ctx) => {
          const t0 = began.get(ctx)
          if (breakdown && t0 !== undefined) breakdown.phaseMs[ctx.phase] = (breakdown.phaseMs[ctx.phase] ?? 0) + performance.now() - t0
          if (ctx.phase === "refresh-hook" && hook?.cartId === ctx.cartId)
            Object.assign(hook, { cpu1: ownCpuMs(), t1: performance.timeOrigin + performance.now() })
        },
        error: () => undefined,
      })
      const sqlLog: string[] = []
      let tag = ""
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { on(e: string, f: (q?: { sql?: string }) => void): void }
      pg.on("query", (q?: { sql?: string }) => {
        pluginSql++
        const phase = phaseOf.getStore() ?? "medusa"
        if (phase !== "medusa") pluginPhaseSql++
        if (breakdown) breakdown.phaseSql[phase] = (breakdown.phaseSql[phase] ?? 0) + 1
        if (process.env.BENCH_STORE_SQL_LOG && tag) sqlLog.push(`${tag}\t${phase}\t${String(q?.sql ?? "").slice(0, 160)}`)
      })
      // the round trips to the sandbox (the provider's client: axios over node:http)
      const sandboxHost = new URL(st.sandbox.url).host
      const sent = new WeakMap<object, number>()
      subscribe("http.client.request.start", (m) => {
        const r = (m as { request: { host?: string; getHeader(n: string): unknown } }).request
        if (String(r.getHeader("host")) === sandboxHost) sent.set(r, performance.now())
      })
      subscribe("http.client.response.finish", (m) => {
        const { request } = m as { request: object }
        const t0 = sent.get(request)
        if (t0 === undefined || !breakdown) return
        breakdown.serviceMs += performance.now() - t0
        breakdown.serviceCalls++
      })

      const pluginHttp = api as AxiosInstance
      const plainHttp = axios.create({ baseURL: p.url })
      const setUp = async (
        name: string,
        app: Side["app"],
        us: boolean,
        o: { http: AxiosInstance; key: string; regionId: string; variants: { general: string; shirt: string; coffee: string } },
      ): Promise<Side> => {
        const headers = { "x-publishable-api-key": o.key }
        const q = `?fields=${CART_FIELDS}`
        const cartId = (await o.http.post(`/store/carts${q}`, { region_id: o.regionId }, { headers })).data.cart.id as string
        const address = us ? ADDRESSES.minneapolis : ADDRESSES.toronto
        await o.http.post(`/store/carts/${cartId}${q}`, { email: "bench@example.com", shipping_address: address }, { headers })
        let cart: { items: { id: string; variant_id: string }[] } | undefined
        for (const v of [o.variants.general, o.variants.shirt, o.variants.coffee])
          cart = (await o.http.post(`/store/carts/${cartId}/line-items${q}`, { variant_id: v, quantity: 1 }, { headers })).data.cart
        const lineId = cart!.items.find((i) => i.variant_id === o.variants.general)!.id
        return {
          name,
          app,
          us,
          http: o.http,
          headers,
          cartId,
          lineId,
          qty: 1,
          times: [],
          sql: [],
          cpu: [],
          driverCpu: [],
          server: [],
          split: [],
          pluginPhaseSql: [],
        }
      }
      const pluginStore = {
        http: pluginHttp,
        key: store.publishableKey,
        variants: {
          general: store.products.general.variantId,
          shirt: store.products.shirt.variantId,
          coffee: store.products.coffee.variantId,
        },
      }
      const plainStore = { http: plainHttp, key: p.publishableKey, variants: p.variants }
      const pluginUs = await setUp("plugin US", "plugin", true, { ...pluginStore, regionId: store.regionId })
      const pluginCa = await setUp("plugin CA", "plugin", false, { ...pluginStore, regionId: canada.id })
      const plainUs = await setUp("plain US", "plain", true, { ...plainStore, regionId: p.usRegionId })
      const plainCa = await setUp("plain CA", "plain", false, { ...plainStore, regionId: p.canadaRegionId })
      const sides = [pluginUs, pluginCa, plainUs, plainCa]

      const plainCounts = async () => (await axios.get<{ sql: number; cpuMs: number; last?: ServerTiming }>(`${p.control}/sql`)).data
      const counters = async (side: Side) =>
        side.app === "plugin" ? { sql: pluginSql, cpuMs: ownCpuMs(), last: timings.last() } : await plainCounts()
      const breakdowns: Breakdown[] = []
      const mutate = async (side: Side, measure: boolean) => {
        side.qty++
        const c0 = await counters(side)
        const p0 = pluginPhaseSql
        if (measure && side === pluginUs) breakdown = { phaseMs: {}, phaseSql: {}, serviceMs: 0, serviceCalls: 0 }
        tag = measure ? `${side.name} ${side.qty}` : ""
        const d0 = ownCpuMs()
        const t = performance.now()
        const r = await side.http.post(
          `/store/carts/${side.cartId}/line-items/${side.lineId}?fields=${CART_FIELDS}`,
          { quantity: side.qty },
          { headers: side.headers },
        )
        const took = performance.now() - t
        const receivedAt = performance.timeOrigin + performance.now()
        const driverCpu = ownCpuMs() - d0
        side.lastCart = r.data.cart
        if (breakdown) breakdowns.push({ ...breakdown, phaseMs: { ...breakdown.phaseMs, total: took } })
        breakdown = undefined
        tag = ""
        if (!measure) return
        side.times.push(took)
        const c1 = await counters(side)
        side.sql.push(c1.sql - c0.sql)
        side.cpu.push(c1.cpuMs - c0.cpuMs)
        if (side.app === "plain") side.driverCpu.push(driverCpu)
        if (c1.last) side.server.push({ ...c1.last, deliverMs: receivedAt - c1.last.finishedAt })
        const h = hook
        if (side.app === "plugin" && c1.last && h?.cartId === side.cartId && h.cpu1 !== undefined && h.t1 !== undefined)
          side.split.push({
            cpu: [h.cpu0 - c1.last.startCpu, h.cpu1 - h.cpu0, c1.last.endCpu - h.cpu1],
            wall: [h.t0 - c1.last.startedAt, h.t1 - h.t0, c1.last.finishedAt - h.t1],
          })
        hook = undefined
        side.pluginPhaseSql.push(pluginPhaseSql - p0)
      }
      // warm-up (JIT, connections, Medusa's own caches; the plugin's memory of the Canadian cart)
      for (let i = 0; i < 3; i++) for (const side of sides) await mutate(side, false)
      await st.sandbox.resetCounts()

      const roundRatio = { us: [] as number[], ca: [] as number[] }
      for (let r = 0; r < ROUNDS; r++) {
        const from = new Map(sides.map((s) => [s, s.times.length]))
        for (let i = 0; i < PER_ROUND; i++) {
          const k = (r * PER_ROUND + i) % sides.length
          for (const side of [...sides.slice(k), ...sides.slice(0, k)]) await mutate(side, true)
        }
        const med = (s: Side) => pct(s.times.slice(from.get(s)), 50)
        roundRatio.us.push(med(pluginUs) / med(plainUs))
        roundRatio.ca.push(med(pluginCa) / med(plainCa))
      }
      const counts = await st.sandbox.counts()
      const n = ROUNDS * PER_ROUND

      const fmtRounds = (xs: number[]) =>
        [...xs]
          .sort((a, b) => a - b)
          .map((x) => x.toFixed(2))
          .join(" ")
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
      const phaseNames = ["remember", "refresh-hook", "after-route", "restore"]
      const bdMs = (k: string) =>
        pct(
          breakdowns.map((b) => b.phaseMs[k] ?? 0),
          50,
        )
      const bdSql = (k: string) => mean(breakdowns.map((b) => b.phaseSql[k] ?? 0))
      const lines = [
        `store bench, ${started} UTC (${ROUNDS} interleaved rounds × ${PER_ROUND} mutations per cart; load average at start ${load.map((l) => l.toFixed(2)).join(", ")} on ${cpus().length} cores)`,
        `  POST /store/carts/:id/line-items/:line (a line's quantity), p50 / p90 per cart:`,
        ...sides.map(
          (s) =>
            `    ${s.name.padEnd(10)} ${ms(pct(s.times, 50)).padStart(9)} / ${ms(pct(s.times, 90)).padStart(9)}   SQL statements per mutation p50 ${pct(s.sql, 50)}${s.app === "plugin" ? ` (in a plugin phase: ${pct(s.pluginPhaseSql, 50)}, mean ${mean(s.pluginPhaseSql).toFixed(1)})` : ""}`,
        ),
        `  CPU per mutation, p50 / mean (what the machine's load hardly moves): the app's process (the plugin side's also runs the driver and the sandbox; the driver's share: its CPU during a plain mutation):`,
        ...sides.map(
          (s) =>
            `    ${s.name.padEnd(10)} ${ms(pct(s.cpu, 50)).padStart(9)} / ${ms(mean(s.cpu)).padStart(9)}${s.app === "plain" ? `   driver ${ms(pct(s.driverCpu, 50))} / ${ms(mean(s.driverCpu))}` : ""}`,
        ),
        `  the apps' own view (request arrived → answer finished), p50 wall / CPU, and finished → the driver had it:`,
        ...sides.map(
          (s) =>
            `    ${s.name.padEnd(10)} ${ms(
              pct(
                s.server.map((x) => x.serverMs),
                50,
              ),
            ).padStart(9)} / ${ms(
              pct(
                s.server.map((x) => x.serverCpuMs),
                50,
              ),
            ).padStart(9)}   delivered ${ms(
              pct(
                s.server.map((x) => x.deliverMs),
                50,
              ),
            )} (p90 ${ms(
              pct(
                s.server.map((x) => x.deliverMs),
                90,
              ),
            )})`,
        ),
        `  the plugin app's request: before the refresh hook / the hook / after it to the answer's end (p50; the CA cart's hook finds it untaxed):`,
        ...[pluginUs, pluginCa].flatMap((s) =>
          (["cpu", "wall"] as const).map(
            (k) =>
              `    ${s.name.padEnd(10)} ${k.padEnd(4)} ${[0, 1, 2]
                .map((i) =>
                  ms(
                    pct(
                      s.split.map((x) => x[k][i]!),
                      50,
                    ),
                  ).padStart(9),
                )
                .join(" /")}`,
          ),
        ),
        `  US cart,  plugin ÷ plain Medusa (median of rounds): ${pct(roundRatio.us, 50).toFixed(2)}  (bar ≤ 1.15; rounds ${fmtRounds(roundRatio.us)})`,
        `  CA cart (tp_system), plugin ÷ plain Medusa:          ${pct(roundRatio.ca, 50).toFixed(2)}  (rounds ${fmtRounds(roundRatio.ca)}); SQL ${pct(pluginCa.sql, 50)} vs ${pct(plainCa.sql, 50)}`,
        `  plugin US ÷ plugin CA (the bar before, one app):     ${(pct(pluginUs.times, 50) / pct(pluginCa.times, 50)).toFixed(2)}`,
        `  where the plugin US mutation goes (p50 ms; SQL statements, mean, ${breakdowns.length} mutations; ${counts.calculateCarts ?? 0} POST carts for ${n}):`,
        `    whole request ${ms(bdMs("total"))}, ${mean(pluginUs.sql).toFixed(1)} statements (plain US: ${ms(pct(plainUs.times, 50))}, ${mean(plainUs.sql).toFixed(1)})`,
        ...phaseNames
          .filter((k) => breakdowns.some((b) => b.phaseMs[k] !== undefined || b.phaseSql[k] !== undefined))
          .map((k) => `    plugin phase ${k.padEnd(13)} ${ms(bdMs(k)).padStart(9)}, ${bdSql(k).toFixed(1)} statements`),
        `    of which the sandbox round trips ${ms(
          pct(
            breakdowns.map((b) => b.serviceMs),
            50,
          ),
        )} (${mean(breakdowns.map((b) => b.serviceCalls)).toFixed(1)} per mutation)`,
        `    Medusa's own (outside the plugin's phases) ${ms(
          pct(
            breakdowns.map((b) => (b.phaseMs.total ?? 0) - phaseNames.reduce((a, k) => a + (b.phaseMs[k] ?? 0), 0)),
            50,
          ),
        )}, ${bdSql("medusa").toFixed(1)} statements`,
      ]
      if (process.env.BENCH_STORE_SQL_LOG) writeFileSync(process.env.BENCH_STORE_SQL_LOG, sqlLog.join("\n"))
      process.stdout.write(`\n${lines.join("\n")}\n\n`)

      // the sides are what they claim: the plugin taxed its US cart (one service call per mutation,
      // every one a new cart state), Medusa's system provider the three others
      expect(counts.calculateCarts).toBe(n)
      const providers = (s: Side) => (s.lastCart?.items ?? []).map((i) => i.tax_lines.map((l) => l.provider_id).join("+"))
      expect(providers(pluginUs)).toEqual([SALES_TAX_PROVIDER_IDENTIFIER, SALES_TAX_PROVIDER_IDENTIFIER, SALES_TAX_PROVIDER_IDENTIFIER])
      for (const s of [pluginCa, plainUs, plainCa]) expect([s.name, providers(s)]).toEqual([s.name, ["system", "system", "system"]])
    })
  },
})
