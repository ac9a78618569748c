#!/usr/bin/env node
// `npm test`: provisions what the suites need, runs every suite one after the other, then prints one
// closing line "N passed, N failed, N skipped". A skipped test is a failure: a test that cannot run
// must say so.
//   unit              src/**/*.test.ts, bench/*.test.ts, scripts/*.test.ts: pure functions, the
//                     sandbox, the client (black box), the embedded PostgreSQL launcher
//   integration:http  integration-tests/http/**/*.spec.ts: Medusa booted by medusaIntegrationTestRunner,
//                     the browser test, the two-instance cluster test
// Pass suite names to run only some: `npm test -- unit`; other arguments go to jest
// (`npm test -- integration:http integration-tests/http/checkout.spec.ts`).
//
// Provisioned for integration:http when missing (as root through apt-get; otherwise one line naming
// the command to run, and exit 1):
//   PostgreSQL  the server at DB_HOST:DB_PORT (default localhost:5432), else an embedded one
//   Redis       a redis-server of our own on a free port for the run (TEST_REDIS_URL overrides)
//   Chromium    Debian's chromium (CHROMIUM_PATH overrides)
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const require = createRequire(import.meta.url)
const { answers, freePort } = require("./net.cjs")
const SUITES = {
  unit: { env: { TEST_TYPE: "unit" }, args: ["--maxWorkers=2"] },
  // Medusa's logger at "warn" (unless LOG_LEVEL says otherwise): the specs' info lines (every
  // migration, every event) cost time to capture and bury the warnings and errors that matter
  "integration:http": {
    env: { TEST_TYPE: "integration:http", LOG_LEVEL: process.env.LOG_LEVEL || "warn" },
    args: ["--maxWorkers=2"],
    provision: true,
  },
}
const args = process.argv.slice(2)
const wanted = args.filter((a) => Object.hasOwn(SUITES, a))
const extra = args.filter((a) => !Object.hasOwn(SUITES, a))
// paths without a suite name pick their suite: integration-tests/… → integration:http, else unit
const paths = extra.filter((a) => !a.startsWith("-"))
const names = wanted.length
  ? wanted
  : paths.length
    ? [...new Set(paths.map((p) => (p.includes("integration-tests") ? "integration:http" : "unit")))]
    : Object.keys(SUITES)
const outDir = join(process.cwd(), ".tmp")
mkdirSync(outDir, { recursive: true })
const cleanups = []
/** the jest run under way, stopped with us on a signal */
let running = null

function fail(line) {
  console.error(`\n[tests] ${line}`)
  process.exitCode = 1
  throw Object.assign(new Error(line), { reported: true })
}

const { provisioner, ProvisionError } = require("./provision.cjs")
const provision = provisioner()
/** a provisioning step; its ProvisionError is the run's one-line failure */
function step(fn) {
  try {
    return fn()
  } catch (e) {
    if (e instanceof ProvisionError) fail(e.message)
    throw e
  }
}

/** A seed for fast-check from the checked-out commit (its first 8 hex digits), else the clock. */
function propertySeed() {
  try {
    const head = readFileSync(join(process.cwd(), ".git", "HEAD"), "utf8").trim()
    const ref = head.startsWith("ref: ") ? readFileSync(join(process.cwd(), ".git", head.slice(5)), "utf8").trim() : head
    if (/^[0-9a-f]{40}$/.test(ref)) return String(parseInt(ref.slice(0, 8), 16) | 0)
  } catch {
    // not a git checkout (an unpacked tarball), or a packed ref: the clock
  }
  return String(Date.now() | 0)
}

async function provisionPostgres(env) {
  const host = process.env.DB_HOST || "localhost"
  const port = Number(process.env.DB_PORT || 5432)
  if (await answers(host === "localhost" ? "127.0.0.1" : host, port)) return `PostgreSQL at ${host}:${port}`
  const { startEmbeddedPostgres } = require("./embedded-postgres.cjs")
  let pg
  try {
    pg = await startEmbeddedPostgres()
  } catch (e) {
    fail(e.message)
  }
  cleanups.push(() => pg.stop())
  Object.assign(env, { DB_HOST: "localhost", DB_PORT: String(pg.port), DB_USERNAME: pg.user, DB_PASSWORD: pg.password })
  return `embedded PostgreSQL on 127.0.0.1:${pg.port} (nothing answered at ${host}:${port})`
}

async function provisionRedis(env) {
  if (process.env.TEST_REDIS_URL) return `Redis at ${process.env.TEST_REDIS_URL}`
  const bin = step(() => provision.redisServer())
  const port = await freePort()
  const child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"], {
    stdio: "ignore",
  })
  cleanups.push(
    () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", resolve)
        child.kill("SIGTERM")
      }),
  )
  process.once("exit", () => child.kill("SIGKILL"))
  const deadline = Date.now() + 15_000
  while (!(await answers("127.0.0.1", port, 500))) {
    if (child.exitCode !== null || Date.now() > deadline) fail(`redis-server did not start on 127.0.0.1:${port}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  env.TEST_REDIS_URL = `redis://127.0.0.1:${port}`
  return `redis-server of this run on 127.0.0.1:${port}`
}

function provisionChromium(env) {
  env.CHROMIUM_PATH = step(() => provision.chromium(process.env.CHROMIUM_PATH))
  return `chromium at ${env.CHROMIUM_PATH}`
}

/**
 * `apt-get install` of the missing packages (as root; `provision.plan` refused other users) in a
 * child process; resolves to null when done, or to the one-line failure.
 */
function installInBackground(pkgs) {
  console.log(`[tests] installing ${pkgs.join(" and ")} with apt-get beside the unit suite`)
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, "provision.cjs"), "install", ...pkgs], {
      stdio: ["ignore", "inherit", "pipe"],
    })
    const err = []
    child.stderr.on("data", (c) => err.push(c))
    child.once("error", (e) => resolve(`apt-get install ${pkgs.join(" ")} could not start: ${e.message}`))
    child.once("exit", (code) => {
      const text = Buffer.concat(err).toString().trim()
      if (code === 0) return resolve(null)
      const log = join(outDir, "apt-install.log")
      writeFileSync(log, text)
      resolve(`${text.split("\n").pop() || `apt-get install ${pkgs.join(" ")} failed (exit ${code})`} (apt-get's output: ${log})`)
    })
  })
}

/**
 * The migrated database every Medusa spec's database is cloned from (integration-tests/db-template.js):
 * built when missing by a jest run of integration-tests/template/build.spec.ts, started beside the unit
 * suite so that its ~15 s of CPU hide there. Resolves to the template's name, or null when the build
 * failed (the specs then migrate their databases themselves, as without it; the log says why).
 */
async function prepareTemplate(env) {
  const { templateName } = require("../integration-tests/db-template.js")
  const name = templateName()
  const { Client } = require("@medusajs/framework/pg")
  const client = new Client({
    host: env.DB_HOST === "localhost" || !env.DB_HOST ? "127.0.0.1" : env.DB_HOST,
    port: Number(env.DB_PORT || 5432),
    user: env.DB_USERNAME || "postgres",
    password: env.DB_PASSWORD || undefined,
    database: "postgres",
  })
  await client.connect()
  let exists
  try {
    exists = (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1
  } finally {
    await client.end()
  }
  if (exists) return name
  const log = join(outDir, "template-build.log")
  const started = Date.now()
  const status = await new Promise((resolve) => {
    const child = spawn(process.execPath, ["--experimental-vm-modules", "node_modules/jest/bin/jest.js", "--forceExit", "--silent"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...env, TEST_TYPE: "integration:template" },
    })
    const chunks = []
    child.stdout.on("data", (c) => chunks.push(c))
    child.stderr.on("data", (c) => chunks.push(c))
    child.once("exit", (code) => {
      writeFileSync(log, Buffer.concat(chunks))
      resolve(code)
    })
  })
  if (status !== 0) {
    console.error(`[tests] building the database template failed (exit ${status}, see ${log}): the specs migrate their own databases`)
    return null
  }
  console.log(`[tests] database template ${name} built in ${Math.round((Date.now() - started) / 1000)} s`)
  return name
}

/** each spec's wall and CPU time (integration-tests/spec-cpu.js), costliest first: where the suite's time goes */
function printSpecTable(file) {
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .sort((a, b) => b.cpuMs - a.cpuMs)
  const total = rows.reduce((n, r) => n + r.cpuMs, 0)
  const restores = (k) => rows.reduce((n, r) => n + (r.restores?.[k] ?? 0), 0)
  console.log(`[tests] spec costs (wall s / CPU s of the worker and the processes it started; PostgreSQL not counted):`)
  for (const r of rows)
    console.log(`  ${String(Math.round(r.wallMs / 1000)).padStart(4)} / ${String(Math.round(r.cpuMs / 1000)).padStart(4)}  ${r.spec}`)
  console.log(
    `  CPU in all: ${Math.round(total / 1000)} s; database restores ${restores("restored")} (${Math.round(restores("ms") / 1000)} s of the workers' wall), skipped ${restores("skipped")}`,
  )
}

async function main() {
  const env = { ...process.env }
  // one id per `npm test`: the browser and cluster tests build their Medusa app once per run
  env.SALES_TAX_TEST_RUN = env.SALES_TAX_TEST_RUN || `${process.pid}-${Date.now().toString(36)}`
  // the tests' databases are throwaway: their sessions do not wait for the WAL to reach the disk
  // (a per-connection setting read by node-postgres from PGOPTIONS; the server's config is untouched)
  env.PGOPTIONS = [env.PGOPTIONS, "-c synchronous_commit=off"].filter(Boolean).join(" ")
  // the property tests' seed: FC_SEED, else one from the commit (integration-tests/setup.js applies it),
  // so a run of the same commit (CI's fresh clone, a developer's checkout) draws the same cases
  env.FC_SEED = env.FC_SEED || propertySeed()
  console.log(`[tests] property tests seeded with FC_SEED=${env.FC_SEED}`)
  // What the integration suite needs: decided now (another user missing a package fails at once),
  // PostgreSQL started now (the template needs it), Debian's packages installed by a child process
  // beside the unit suite (apt-get of chromium takes about a minute on a bare machine)
  const provisioning = names.some((n) => SUITES[n].provision)
  let installed = Promise.resolve()
  let pgUsed = null
  if (provisioning) {
    const pkgs = step(() => provision.plan(process.env.CHROMIUM_PATH))
    if (pkgs.length) installed = installInBackground(pkgs)
    pgUsed = await provisionPostgres(env)
  }
  // the template builds beside the unit suite; the integration suite waits for it
  const template = names.includes("integration:http")
    ? prepareTemplate(env).catch((e) => (console.error(`[tests] database template: ${e.message}`), null))
    : null
  /** Chromium and Redis ready (installed beside the unit suite when missing), before the first suite that needs them */
  let ready = false
  const provisionRest = async () => {
    if (ready) return
    ready = true
    const failure = await installed
    if (failure) fail(failure)
    const what = [provisionChromium(env), await provisionRedis(env), pgUsed]
    console.log(`[tests] using ${what.join("; ")}`)
  }
  let passed = 0
  let failed = 0
  let skipped = 0
  let broken = false
  for (const name of names) {
    const suite = SUITES[name]
    const out = join(outDir, `jest-${name.replace(/\W/g, "_")}.json`)
    rmSync(out, { force: true })
    const specCpu = process.env.MST_SPEC_CPU_FILE || join(outDir, "spec-cpu.jsonl")
    if (suite.provision) await provisionRest()
    if (name === "integration:http") {
      rmSync(specCpu, { force: true })
      const t = await template
      if (t) env.MEDUSA_SPEC_DB_TEMPLATE = t
    }
    console.log(`\n=== ${name} ===`)
    const started = Date.now()
    const r = await new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          "--experimental-vm-modules",
          "node_modules/jest/bin/jest.js",
          "--forceExit",
          "--json",
          `--outputFile=${out}`,
          ...suite.args,
          ...extra,
        ],
        { stdio: "inherit", env: { ...env, ...suite.env } },
      )
      running = child
      child.once("exit", (status) => {
        running = null
        resolve({ status })
      })
    })
    if (!existsSync(out)) {
      broken = true
      console.error(`suite ${name} produced no results (exit ${r.status})`)
      continue
    }
    const res = JSON.parse(readFileSync(out, "utf8"))
    passed += res.numPassedTests
    failed += res.numFailedTests
    skipped += res.numPendingTests + res.numTodoTests
    // suites that failed to run (syntax errors, failing hooks) count as failures
    const suiteErrors = res.testResults.filter(
      (t) => t.status === "failed" && t.assertionResults.every((a) => a.status !== "failed"),
    ).length
    failed += suiteErrors
    if (res.numTotalTests === 0) {
      broken = true
      console.error(`suite ${name} ran no test`)
    }
    if (r.status !== 0 && res.numFailedTests === 0 && suiteErrors === 0) broken = true
    console.log(`[tests] ${name}: ${Math.round((Date.now() - started) / 1000)} s`)
    if (name === "integration:http" && existsSync(specCpu)) printSpecTable(specCpu)
  }
  if (skipped > 0) console.error(`\n[tests] ${skipped} test(s) skipped: a test that cannot run must fail, not skip`)
  console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
  process.exitCode = failed > 0 || skipped > 0 || broken ? 1 : 0
}

// Ctrl-C or a kill: stop what was provisioned (Redis, the embedded PostgreSQL) before leaving
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, async () => {
    if (running) {
      const ended = new Promise((r) => running.once("exit", r))
      running.kill("SIGTERM")
      await Promise.race([ended, new Promise((r) => setTimeout(r, 5000))])
      running?.kill("SIGKILL")
    }
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined)
    process.exit(130)
  })
}

try {
  await main()
} catch (e) {
  if (!e.reported) {
    console.error(e)
    process.exitCode = 1
  }
} finally {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined)
}
