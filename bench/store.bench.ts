/**
 * npm run bench:store — a cart mutation through Medusa's store API with the plugin, against the
 * same mutation on a Medusa app that does not load the plugin at all. Not part of `npm test` (no
 * test pattern matches it); run by `scripts/run-tests.mjs` (Postgres, Redis) as a jest file.
 *
 * Symmetric: each app is a child jest process of its own, booted the same way by
 * bench/store.app.ts (medusaIntegrationTestRunner, its own database cloned from the same template):
 *   plugin  the repository as the Medusa app (the plugin's provider, modules, middlewares, hooks,
 *           subscribers); the seeded US region's tax region on the plugin's provider; a Canada
 *           region whose tax region is Medusa's tp_system (13 %)
 *   plain   bench/plain-app/medusa-config.js: no plugin; the same products and addresses, its US
 *           tax region on tp_system at 9.025 % (the plugin side's Minneapolis rate), the same Canada
 * The sandbox of the service runs in a third child process (the service is remote in production:
 * its CPU lands on neither app); this process only drives, over HTTP, and prints.
 * Each side: a US cart (Minneapolis) and a Canadian cart (Toronto), three items each. The measured
 * mutation is a quantity change of a cart's first line (POST /store/carts/:id/line-items/:line), a
 * new quantity each time so that every plugin mutation is a new cart state (one POST carts to the
 * service, no cache hit). The four carts take turns in interleaved rounds (each goes first equally
 * often), so that the machine's load falls on all alike; the driver waits for each answer.
 *
 * Printed: per cart, p50/p90 of the mutation; plugin ÷ plain for the US cart (the bar: ≤ 1.15) and
 * the Canadian cart (what the plugin costs where it does not tax), each the median of the per-round
 * ratios of medians; SQL statements per mutation (knex's `query` event in each app); where the
 * plugin US mutation's time and statements go (the app's totals around each mutation: the plugin's
 * tracing channel STORE_CART_TRACE, its round trips to the sandbox), with what each phase's
 * statements are (verb and table, mean count per mutation); CPU per mutation of each app's
 * process and of the driver, each app's own view of the request (server-timing.ts), and the plugin
 * app's request cut at its refresh hook (before / the hook / after).
 *   BENCH_STORE_ROUNDS (default 4), BENCH_STORE_PER_ROUND (default 8),
 *   BENCH_STORE_SQL_LOG=<file>: every statement of the measured mutations, whole (<file>.plugin, .plain)
 *   BENCH_STORE_PROF=<file>: a CPU profile of each app over the rounds (<file>.plugin.cpuprofile, .plain.cpuprofile; read them with bench/store-profile.ts)
 */
import axios, { type AxiosInstance } from "axios"
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { ADDRESSES, CART_FIELDS } from "../integration-tests/helpers"
import { salesTaxEnv } from "../integration-tests/helpers/config"
import { sandboxCaller, TEST_API_KEY, TEST_CONNECTION_ID } from "../integration-tests/helpers/sandbox"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../src/constants"
import type { AppCounters, StoreApp } from "./store.app"
import { cpuMs, type ServerTiming } from "./server-timing"

jest.setTimeout(1_800_000)

const ROUNDS = Number(process.env.BENCH_STORE_ROUNDS ?? 4)
const PER_ROUND = Number(process.env.BENCH_STORE_PER_ROUND ?? 8)
const root = join(__dirname, "..")

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}
const ms = (x: number) => `${x.toFixed(1)} ms`

/** A child process; `ready` resolves once `until` returns a value (null: not yet), rejects when it exits first. */
function child<T>(what: string, args: string[], env: NodeJS.ProcessEnv, until: (stdout: string) => T | null) {
  const p: ChildProcess = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  p.stdout!.on("data", (d: Buffer) => (stdout = (stdout + d.toString()).slice(-4000)))
  p.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)))
  let exited = false
  const gone = new Promise((r) => p.once("exit", () => r((exited = true))))
  const ready = (async () => {
    const deadline = Date.now() + 900_000
    for (;;) {
      const v = until(stdout)
      if (v !== null) return v
      if (exited) throw new Error(`${what} stopped while starting:\n${stderr}`)
      if (Date.now() > deadline) throw new Error(`${what} did not start within 900 s:\n${stderr}`)
      await new Promise((r) => setTimeout(r, 500))
    }
  })()
  return {
    ready,
    async stop(ask?: () => Promise<unknown>) {
      if (exited) return
      if (ask) await ask().catch(() => undefined)
      else p.kill("SIGTERM")
      await Promise.race([gone, new Promise((r) => setTimeout(r, 60_000))])
      if (!exited) p.kill("SIGKILL")
    },
  }
}

/** One app (bench/store.app.ts) in a child jest process, with or without the plugin. */
function startApp(app: "plugin" | "plain", env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${app}-`))
  const out = join(dir, "app.json")
  const jest = [
    "--experimental-vm-modules",
    require.resolve("jest/bin/jest"),
    "--runInBand",
    "--forceExit",
    "--testMatch",
    "**/bench/store.app.ts",
  ]
  const c = child(`the ${app} Medusa app`, jest, { ...process.env, ...env, BENCH_STORE_APP: app, BENCH_APP_OUT: out }, () =>
    existsSync(out) ? (JSON.parse(readFileSync(out, "utf8")) as StoreApp) : null,
  )
  const ready = c.ready.finally(() => rmSync(dir, { recursive: true, force: true }))
  return { ready, stop: async () => c.stop(async () => (await ready.then((s) => axios.get(`${s.control}/stop`))) as unknown) }
}

/** One cart of the bench: how to change it and what its app counted. */
interface Side {
  name: string
  app: "plugin" | "plain"
  us: boolean
  http: AxiosInstance
  control: string
  headers: Record<string, string>
  cartId: string
  lineId: string
  qty: number
  times: number[]
  sql: number[]
  /** CPU ms per mutation of the app's process, and of the driver (this process) */
  cpu: number[]
  driverCpu: number[]
  /** the app's own view of the mutation (server-timing.ts), and how long after its answer finished the driver had it */
  server: (ServerTiming & { deliverMs: number })[]
  /** plugin side: [before the refresh hook, the hook, after it] of the request, CPU and wall */
  split: { cpu: number[]; wall: number[] }[]
  /** statements in the mutation's window run while one of the plugin's phases was open (its own, or other work of the app meanwhile) */
  pluginPhaseSql: number[]
  lastCart?: { items: { tax_lines: { provider_id: string | null }[] }[] }
}

/** What the plugin's phases and the sandbox round trips took in one plugin mutation. */
interface Breakdown {
  phaseMs: Record<string, number>
  phaseSql: Record<string, number>
  /** the statements of the plugin's phases, by "<phase>\t<verb table>" */
  phaseStatements: Record<string, number>
  serviceMs: number
  serviceCalls: number
}

const diff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(b).map((k) => [k, b[k]! - (a[k] ?? 0)]))

describe("store bench", () => {
  const stops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop()
  })

  it("store cart mutation: plugin vs Medusa without the plugin (ratios printed)", async () => {
    const load = loadavg()
    const started = new Date().toISOString().slice(0, 16)
    const sandbox = child(
      "the sandbox",
      [
        require.resolve("tsx/cli"),
        "packages/sandbox/src/cli.ts",
        "--port",
        "0",
        "--api-key",
        TEST_API_KEY,
        "--connection-id",
        TEST_CONNECTION_ID,
      ],
      process.env,
      (stdout) => /listening on (\S+)/.exec(stdout)?.[1] ?? null,
    )
    stops.push(() => sandbox.stop())
    const sandboxUrl = await sandbox.ready
    const service = sandboxCaller(sandboxUrl, TEST_API_KEY)
    const pluginApp = startApp("plugin", salesTaxEnv({ url: sandboxUrl, apiKey: TEST_API_KEY, connectionId: TEST_CONNECTION_ID }))
    const plainApp = startApp("plain", {})
    stops.push(pluginApp.stop, plainApp.stop)
    const [pl, p] = await Promise.all([pluginApp.ready, plainApp.ready])

    const setUp = async (name: string, app: Side["app"], us: boolean, s: StoreApp): Promise<Side> => {
      const http = axios.create({ baseURL: s.url })
      const headers = { "x-publishable-api-key": s.publishableKey }
      const q = `?fields=${CART_FIELDS}`
      const cartId = (await http.post(`/store/carts${q}`, { region_id: us ? s.usRegionId : s.canadaRegionId }, { headers })).data.cart
        .id as string
      const address = us ? ADDRESSES.minneapolis : ADDRESSES.toronto
      await http.post(`/store/carts/${cartId}${q}`, { email: "bench@example.com", shipping_address: address }, { headers })
      let cart: { items: { id: string; variant_id: string }[] } | undefined
      for (const v of [s.variants.general, s.variants.shirt, s.variants.coffee])
        cart = (await http.post(`/store/carts/${cartId}/line-items${q}`, { variant_id: v, quantity: 1 }, { headers })).data.cart
      const lineId = cart!.items.find((i) => i.variant_id === s.variants.general)!.id
      return {
        name,
        app,
        us,
        http,
        control: s.control,
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
    const pluginUs = await setUp("plugin US", "plugin", true, pl)
    const pluginCa = await setUp("plugin CA", "plugin", false, pl)
    const plainUs = await setUp("plain US", "plain", true, p)
    const plainCa = await setUp("plain CA", "plain", false, p)
    const sides = [pluginUs, pluginCa, plainUs, plainCa]

    /** the app's running totals; `tag` names the statements that follow in BENCH_STORE_SQL_LOG */
    const counters = async (side: Side, tag = "") => (await axios.get<AppCounters>(`${side.control}/counters`, { params: { tag } })).data
    const breakdowns: Breakdown[] = []
    const mutate = async (side: Side, measure: boolean) => {
      side.qty++
      const c0 = await counters(side, measure ? `${side.name} ${side.qty}` : "")
      const d0 = cpuMs()
      const t = performance.now()
      const r = await side.http.post(
        `/store/carts/${side.cartId}/line-items/${side.lineId}?fields=${CART_FIELDS}`,
        { quantity: side.qty },
        { headers: side.headers },
      )
      const took = performance.now() - t
      const receivedAt = performance.timeOrigin + performance.now()
      const driverCpu = cpuMs() - d0
      side.lastCart = r.data.cart
      const c1 = await counters(side)
      if (!measure) return
      side.times.push(took)
      side.sql.push(c1.sql - c0.sql)
      side.cpu.push(c1.cpuMs - c0.cpuMs)
      side.driverCpu.push(driverCpu)
      if (c1.last) side.server.push({ ...c1.last, deliverMs: receivedAt - c1.last.finishedAt })
      const phaseSql = diff(c0.phaseSql, c1.phaseSql)
      side.pluginPhaseSql.push(Object.entries(phaseSql).reduce((a, [k, v]) => a + (k === "medusa" ? 0 : v), 0))
      const h = c1.hook
      if (
        side.app === "plugin" &&
        c1.last &&
        h?.cartId === side.cartId &&
        h.cpu1 !== undefined &&
        h.t1 !== undefined &&
        h.t0 >= c1.last.startedAt
      )
        side.split.push({
          cpu: [h.cpu0 - c1.last.startCpu, h.cpu1 - h.cpu0, c1.last.endCpu - h.cpu1],
          wall: [h.t0 - c1.last.startedAt, h.t1 - h.t0, c1.last.finishedAt - h.t1],
        })
      if (side === pluginUs)
        breakdowns.push({
          phaseMs: { ...diff(c0.phaseMs, c1.phaseMs), total: took },
          phaseSql,
          phaseStatements: diff(c0.phaseStatements, c1.phaseStatements),
          serviceMs: c1.serviceMs - c0.serviceMs,
          serviceCalls: c1.serviceCalls - c0.serviceCalls,
        })
    }
    // warm-up (JIT, connections, Medusa's own caches; the plugin's memory of the Canadian cart)
    for (let i = 0; i < 3; i++) for (const side of sides) await mutate(side, false)
    await service("DELETE", "/_sandbox/counts")
    const prof = process.env.BENCH_STORE_PROF
    if (prof) for (const s of [pluginUs, plainUs]) await axios.get(`${s.control}/prof/start`)

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
    if (prof)
      for (const s of [pluginUs, plainUs]) await axios.get(`${s.control}/prof/stop`, { params: { out: `${prof}.${s.app}.cpuprofile` } })
    const counts = ((await service("GET", "/_sandbox/counts")) as { counts: Record<string, number> }).counts
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
    /** a phase's statements, "verb table" with their mean count per mutation, most first */
    const bdStatements = (phase: string) =>
      [...new Set(breakdowns.flatMap((b) => Object.keys(b.phaseStatements)))]
        .filter((k) => k.startsWith(`${phase}\t`))
        .map((k) => [k.slice(phase.length + 1), mean(breakdowns.map((b) => b.phaseStatements[k] ?? 0))] as const)
        .filter(([, n]) => n > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([what, n]) => `${what} ${n.toFixed(2)}`)
        .join(", ")
    const lines = [
      `store bench, ${started} UTC (${ROUNDS} interleaved rounds × ${PER_ROUND} mutations per cart; load average at start ${load.map((l) => l.toFixed(2)).join(", ")} on ${cpus().length} cores)`,
      `  POST /store/carts/:id/line-items/:line (a line's quantity), p50 / p90 per cart:`,
      ...sides.map(
        (s) =>
          `    ${s.name.padEnd(10)} ${ms(pct(s.times, 50)).padStart(9)} / ${ms(pct(s.times, 90)).padStart(9)}   SQL statements per mutation p50 ${pct(s.sql, 50)}${s.app === "plugin" ? ` (in a plugin phase: ${pct(s.pluginPhaseSql, 50)}, mean ${mean(s.pluginPhaseSql).toFixed(1)})` : ""}`,
      ),
      `  CPU per mutation, p50 / mean (what the machine's load hardly moves): the app's process, and the driver's (this process) during the request:`,
      ...sides.map(
        (s) =>
          `    ${s.name.padEnd(10)} ${ms(pct(s.cpu, 50)).padStart(9)} / ${ms(mean(s.cpu)).padStart(9)}   driver ${ms(pct(s.driverCpu, 50))} / ${ms(mean(s.driverCpu))}`,
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
        .flatMap((k) => [
          `    plugin phase ${k.padEnd(13)} ${ms(bdMs(k)).padStart(9)}, ${bdSql(k).toFixed(1)} statements`,
          ...(bdSql(k) > 0 ? [`      ${bdStatements(k)}`] : []),
        ]),
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
    process.stdout.write(`\n${lines.join("\n")}\n\n`)

    // the sides are what they claim: the plugin taxed its US cart (one service call per mutation,
    // every one a new cart state), Medusa's system provider the three others
    expect(counts.calculateCarts).toBe(n)
    const providers = (s: Side) => (s.lastCart?.items ?? []).map((i) => i.tax_lines.map((l) => l.provider_id).join("+"))
    expect(providers(pluginUs)).toEqual([SALES_TAX_PROVIDER_IDENTIFIER, SALES_TAX_PROVIDER_IDENTIFIER, SALES_TAX_PROVIDER_IDENTIFIER])
    for (const s of [pluginCa, plainUs, plainCa]) expect([s.name, providers(s)]).toEqual([s.name, ["system", "system", "system"]])
  })
})
