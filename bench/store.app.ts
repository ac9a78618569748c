/**
 * One Medusa app of `npm run bench:store` (bench/store.bench.ts starts this jest file twice, each in
 * its own child process; no test pattern matches it otherwise). BENCH_STORE_APP picks the app:
 *   plugin  the repository as the Medusa app, its US tax region on the plugin's provider, which
 *           calls the sandbox the bench runs in a process of its own (SALES_TAX_* in the env)
 *   plain   bench/plain-app (no plugin at all, nothing of the plugin imported), its US tax region on
 *           Medusa's system provider at 9.025 % (the plugin side's Minneapolis rate)
 * Both: the same products, a Canadian region on tp_system at 13 %. It writes where it serves to
 * BENCH_APP_OUT, then serves until the bench says stop; its control server answers running totals
 * (SQL statements per phase, phase times, round trips to the service, CPU, its view of the last
 * mutation and of the plugin's refresh hook) for the bench to difference around each mutation.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import { subscribe, tracingChannel } from "node:diagnostics_channel"
import { appendFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { Session } from "node:inspector"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { PRODUCTS, seedCanadaRegion, seedStore } from "../dev-store/seed"
import { cpuMs, serverTimings, wallMs, type ServerTiming } from "./server-timing"

const PLUGIN = process.env.BENCH_STORE_APP === "plugin"

/** Pure: what a statement does, as its verb and first table ("select tax_region", "BEGIN"). */
function sqlShape(sql: string): string {
  const s = sql.trim()
  const verb =
    /^(select|insert into|update|delete from|begin|commit|rollback|savepoint|release savepoint)\b/i.exec(s)?.[1] ?? s.slice(0, 20)
  const table = (verb.toLowerCase() === "select" ? /\bfrom\s+"?(\w+)"?/i.exec(s) : /^\S+(?:\s+(?:into|from))?\s+"?(\w+)"?/i.exec(s))?.[1]
  return /^(begin|commit|rollback)$/i.test(verb) ? verb.toUpperCase() : `${verb.toLowerCase()} ${table ?? "?"}`
}
const timings = serverTimings()

jest.setTimeout(3_600_000)

/** What the app tells the bench (BENCH_APP_OUT, JSON). */
export interface StoreApp {
  url: string
  control: string
  publishableKey: string
  usRegionId: string
  canadaRegionId: string
  variants: { general: string; shirt: string; coffee: string }
}

/** The app's running totals (GET <control>/counters). */
export interface AppCounters {
  sql: number
  /** statements by the plugin phase they ran in ("medusa": none) */
  phaseSql: Record<string, number>
  /** statements run in a plugin phase by "<phase>\t<what>" (sqlShape: the verb and the table) */
  phaseStatements: Record<string, number>
  phaseMs: Record<string, number>
  serviceMs: number
  serviceCalls: number
  cpuMs: number
  last?: ServerTiming
  /** the last refresh hook: its cart, CPU and wall at its start and end */
  hook?: { cartId: string; cpu0: number; t0: number; cpu1?: number; t1?: number }
}

medusaIntegrationTestRunner({
  cwd: PLUGIN ? join(__dirname, "..") : join(__dirname, "plain-app"),
  testSuite: ({ api, getContainer }) => {
    it("serves the store until the bench is done", async () => {
      const container = getContainer()
      const c: AppCounters = { sql: 0, phaseSql: {}, phaseStatements: {}, phaseMs: {}, serviceMs: 0, serviceCalls: 0, cpuMs: 0 }
      let store
      if (PLUGIN) {
        // only in the plugin app: the plugin's code registers hooks on Medusa's workflows when loaded
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { seedCheckoutStore } = require("../integration-tests/helpers") as typeof import("../integration-tests/helpers")
        store = await seedCheckoutStore(container)
      } else {
        // the dev store's seed assigns TICs through the plugin's module: a no-op here
        container.register("salesTax", asValue({ setTic: async () => undefined }))
        store = await seedStore(container, {
          providerId: "tp_system",
          channelName: "Webshop",
          createdBy: "bench",
          products: { general: PRODUCTS.lamp, shirt: PRODUCTS.tshirt, coffee: PRODUCTS.coffee },
          shippingRegionPrice: true,
          regionDefaultRate: 9.025,
        })
      }
      const canadaId = await seedCanadaRegion(container)

      // while profiling: when each measured request and refresh hook began and ended (the profile's clock, µs)
      let marks: { at: number; what: string; id: string }[] | undefined
      const mark = (what: string, id: string) => marks?.push({ at: Number(process.hrtime.bigint() / 1000n), what, id })
      const measured = new WeakSet<object>()
      subscribe("http.server.request.start", (m) => {
        const { request, response } = m as { request: { url?: string }; response: object }
        const cart = /\/carts\/([^/]+)\/line-items\//.exec(request.url ?? "")?.[1]
        if (cart === undefined || !marks) return
        measured.add(response)
        mark("request", cart)
      })
      subscribe("http.server.response.finish", (m) => {
        if (measured.has((m as { response: object }).response)) mark("answered", "")
      })
      // the plugin's phases (its tracing channel), the statements run while one is open (no store bound
      // to the channel: an AsyncLocalStorage would cost every promise of the app), the refresh hook
      let openPhase: string | undefined
      if (PLUGIN) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { STORE_CART_TRACE } = require("../src/checkout/store/cart-refresh") as typeof import("../src/checkout/store/cart-refresh")
        const trace = tracingChannel<unknown, import("../src/checkout/store/cart-refresh").StoreCartSpan>(STORE_CART_TRACE)
        const began = new WeakMap<object, number>()
        trace.subscribe({
          start: (ctx) => {
            began.set(ctx, performance.now())
            openPhase = ctx.phase
            if (ctx.phase === "refresh-hook") c.hook = { cartId: ctx.cartId, cpu0: cpuMs(), t0: wallMs() }
            mark(`${ctx.phase}:start`, ctx.cartId)
          },
          end: () => undefined,
          asyncStart: () => undefined,
          asyncEnd: (ctx) => {
            const t0 = began.get(ctx)
            if (t0 !== undefined) c.phaseMs[ctx.phase] = (c.phaseMs[ctx.phase] ?? 0) + performance.now() - t0
            if (openPhase === ctx.phase) openPhase = undefined
            mark(`${ctx.phase}:end`, ctx.cartId)
            if (ctx.phase === "refresh-hook" && c.hook?.cartId === ctx.cartId) Object.assign(c.hook, { cpu1: cpuMs(), t1: wallMs() })
          },
          error: (ctx) => {
            if (openPhase === ctx.phase) openPhase = undefined
          },
        })
        // the round trips to the service (the provider's client: axios over node:http)
        const serviceHost = new URL(process.env.SALES_TAX_BASE_URL!).host
        const sent = new WeakMap<object, number>()
        subscribe("http.client.request.start", (m) => {
          const r = (m as { request: { getHeader(n: string): unknown } }).request
          if (String(r.getHeader("host")) === serviceHost) sent.set(r, performance.now())
        })
        subscribe("http.client.response.finish", (m) => {
          const t0 = sent.get((m as { request: object }).request)
          if (t0 === undefined) return
          c.serviceMs += performance.now() - t0
          c.serviceCalls++
        })
      }
      // BENCH_STORE_SQL_LOG: every statement while the bench has a tag set (its cart and quantity)
      const sqlLog = process.env.BENCH_STORE_SQL_LOG ? `${process.env.BENCH_STORE_SQL_LOG}.${PLUGIN ? "plugin" : "plain"}` : undefined
      let tag = ""
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { on(e: string, f: (q?: { sql?: string }) => void): void }
      pg.on("query", (q) => {
        c.sql++
        const phase = openPhase ?? "medusa"
        c.phaseSql[phase] = (c.phaseSql[phase] ?? 0) + 1
        if (openPhase) {
          const k = `${phase}\t${sqlShape(String(q?.sql ?? ""))}`
          c.phaseStatements[k] = (c.phaseStatements[k] ?? 0) + 1
        }
        if (sqlLog && tag) appendFileSync(sqlLog, `${tag}\t${phase}\t${String(q?.sql ?? "").replace(/\s+/g, " ")}\n`)
      })

      let stop!: () => void
      const stopped = new Promise<void>((r) => (stop = r))
      // /prof/start, /prof/stop?out=<file>: a CPU profile of this process (BENCH_STORE_PROF)
      const prof = new Session()
      const post = (m: string, p?: object) => new Promise<unknown>((r, j) => prof.post(m, p ?? {}, (e, v) => (e ? j(e) : r(v))))
      const control = createServer(async (req, res) => {
        const u = new URL(req.url ?? "/", "http://control")
        if (u.pathname === "/stop") stop()
        if (u.pathname === "/prof/start") {
          prof.connect()
          await post("Profiler.enable")
          await post("Profiler.setSamplingInterval", { interval: 100 })
          await post("Profiler.start")
          marks = []
        }
        if (u.pathname === "/prof/stop") {
          const { profile } = (await post("Profiler.stop")) as { profile: unknown }
          writeFileSync(u.searchParams.get("out")!, JSON.stringify({ ...(profile as object), marks }))
          marks = undefined
          prof.disconnect()
        }
        tag = u.searchParams.get("tag") ?? ""
        res.setHeader("content-type", "application/json")
        res.end(JSON.stringify({ ...c, cpuMs: cpuMs(), last: timings.last() } satisfies AppCounters))
      })
      await new Promise<void>((r) => control.listen(0, "127.0.0.1", r))
      const out: StoreApp = {
        url: String(api.defaults.baseURL),
        control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
        publishableKey: store.publishableKey,
        usRegionId: store.regionId,
        canadaRegionId: canadaId,
        variants: {
          general: store.products.general.variantId,
          shirt: store.products.shirt.variantId,
          coffee: store.products.coffee.variantId,
        },
      }
      writeFileSync(process.env.BENCH_APP_OUT!, JSON.stringify(out))
      await stopped
      control.close()
    })
  },
})
