/**
 * Browser-test harness: a real Medusa app with the admin ON and this plugin installed
 * (integration-tests/browser/app), the sandbox in-process, Debian's chromium driven by
 * playwright-core.
 *
 *   1. the plugin compiled into app/node_modules/medusa-sales-tax with its admin extensions bundled,
 *      as the demo installs it (demo/lib/plugin-install.ts: TypeScript's transpileModule and
 *      Medusa's admin bundler; type errors are `npm run typecheck`'s business)
 *   2. `medusa build --admin-only` in app/ (the dashboard with the plugin's widgets → app/.medusa/admin),
 *      running while step 3 migrates and seeds
 *   3. a fresh PostgreSQL database; `medusa db:migrate`, `medusa user`, `medusa exec` (seed)
 *   4. `medusa start` in app/ on a free port against the sandbox
 * Every step is bounded in time; logs go to .tmp/browser/*.log. Set BROWSER_SKIP_BUILD=1 to reuse
 * the previous builds while working on the tests.
 *
 * The dashboard build (step 2, the costliest) is kept in $TMPDIR/medusa-sales-tax-admin-<key>, the
 * key a SHA-256 of everything it is made from (the plugin's src/, the app, this harness, the config
 * builder, the plugin installer, package.json, package-lock.json, the Node version): a run of the same sources
 * on the same machine (CI's fresh clone after the developer's run of that commit) copies it instead
 * of building it again, and any change of those files builds it anew. BROWSER_NO_BUILD_CACHE=1
 * always builds.
 */
import { spawn, type ChildProcess } from "node:child_process"
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  createWriteStream,
} from "node:fs"
import { createHash } from "node:crypto"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, relative, resolve } from "node:path"
import { Client } from "pg"
import { compileScript } from "../../demo/lib/compile-script"
import { installPlugin } from "../../demo/lib/plugin-install"
import { PROCESS_BOUND, watchProcess } from "../../scripts/stall"
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createDatabaseSql, putAway } = require("../db-template.js") as {
  createDatabaseSql(name: string): string
  putAway(admin: Client, db: string): Promise<unknown>
}
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import type { StarterStore } from "./app/src/scripts/seed-starter"

export const ROOT = resolve(__dirname, "../..")
export const APP_DIR = join(__dirname, "app")
const CLI = join(ROOT, "node_modules/@medusajs/cli/cli.js")
export const LOG_DIR = join(ROOT, ".tmp/browser")
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium"
/** where screenshots go: git-ignored unless UPDATE_SCREENSHOTS=1 refreshes the README's (docs/screenshots) */
export const SCREENSHOTS = join(ROOT, process.env.UPDATE_SCREENSHOTS === "1" ? "docs/screenshots" : ".tmp/screenshots")

export const ADMIN_EMAIL = "admin@sales-tax.test"
export const ADMIN_PASSWORD = "browser-test-password-1"
export const SANDBOX_KEY = "sk_browser_0123456789-SECRET"
export const SANDBOX_CONNECTION = "33333333-4444-4555-8666-777777777777"
/** A second connection (issue 16) for the sales channel the seed creates with this id. */
export const SECOND_CONNECTION = { connectionId: "44444444-5555-4666-8777-888888888888", apiKey: "sk_browser_second_0123456789-SECRET" }
export const SECOND_CHANNEL_ID = "sc_browser_wholesale"

export interface Seeded {
  productId: string
  productTypeId: string
  categoryId: string
  customerId: string
  orderId: string
  /** an order placed 40 days ago with an edit, two replace claims and a refund without a return (not filed) */
  lifecycle: { orderId: string; editId: string; likeClaimId: string; dearerClaimId: string; refundId: string }
  /** an order placed 40 days ago with no tax for its US address (filing needs attention); the lifecycle order's return key */
  attention: { orderId: string; returnKey: string }
  /** an order placed 40 days ago whose line has a tax-inclusive price ($112 with $4.85 of tax in it), filed */
  inclusive: { orderId: string }
  /** the store as Medusa's official starter seeds it (Europe only: app/src/scripts/seed-starter.ts) */
  starter: StarterStore
  /** the starter's "Medusa Sweatpants" (category Pants, $15), on the default TIC */
  sweatpants: { productId: string; variantId: string }
}

export interface BrowserApp {
  url: string
  adminUrl: string
  sandbox: RunningSandbox
  seeded: Seeded
  close(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.once("error", rej)
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port
      s.close(() => res(port))
    })
  })
}

/**
 * Runs a command to completion, output to .tmp/browser/<name>.log. Bounded by progress, not wall
 * time (scripts/stall.ts): it is stopped when its process tree uses no CPU for 3 min, or at the cap.
 * `accept(log)` may accept a non-zero exit.
 */
function run(name: string, args: string[], cwd: string, env: Record<string, string>, accept?: (log: string) => boolean): Promise<void> {
  mkdirSync(LOG_DIR, { recursive: true })
  const logPath = join(LOG_DIR, `${name}.log`)
  const log = createWriteStream(logPath)
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    child.stdout.pipe(log, { end: false })
    child.stderr.pipe(log, { end: false })
    const unwatch = watchProcess(child.pid!, name, PROCESS_BOUND, (message) => {
      child.kill("SIGKILL")
      rej(new Error(`${message} (log: ${logPath})`))
    })
    child.once("exit", (code) => {
      unwatch()
      log.end()
      if (code === 0 || (accept && accept(readFileSync(logPath, "utf8")))) res()
      else rej(new Error(`${name} exited with ${code}: ${tail(logPath)}`))
    })
  })
}

function tail(path: string, n = 30): string {
  try {
    return readFileSync(path, "utf8").split("\n").slice(-n).join("\n")
  } catch {
    return ""
  }
}

function pgConfig(database: string) {
  return {
    host: process.env.DB_HOST || "127.0.0.1",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database,
  }
}

function databaseUrl(db: string): string {
  const c = pgConfig(db)
  const auth = c.password ? `${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}` : encodeURIComponent(c.user)
  return `postgres://${auth}@${c.host}:${c.port}/${db}`
}

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client(pgConfig("postgres"))
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

/** Polls /health while `medusa start` progresses (scripts/stall.ts: no CPU for 3 min = stalled). */
async function waitForHealth(url: string, child: ChildProcess, logPath: string): Promise<void> {
  let stopped: string | null = null
  const unwatch = watchProcess(child.pid!, "medusa start", PROCESS_BOUND, (message) => (stopped = message))
  try {
    return await pollHealth(url, child, logPath, () => stopped)
  } finally {
    unwatch()
  }
}

async function pollHealth(url: string, child: ChildProcess, logPath: string, stopped: () => string | null): Promise<void> {
  for (;;) {
    const why = stopped()
    if (why) throw new Error(`medusa start did not answer /health: ${why}: ${tail(logPath)}`)
    if (child.exitCode !== null) throw new Error(`medusa start exited with ${child.exitCode}: ${tail(logPath)}`)
    try {
      const r = await fetch(`${url}/health`)
      if (r.ok) return
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** The files the dashboard build is made from, under ROOT (directories walked; builds and deps left out). */
const BUILD_INPUTS = [
  "src",
  "integration-tests/browser/app",
  "integration-tests/browser/harness.ts",
  "dev-store/medusa-config.js",
  "demo/lib/plugin-install.ts",
  "package.json",
  "package-lock.json",
]
const BUILD_SKIP = new Set(["node_modules", ".medusa", "public", "dist"])

/** SHA-256 of the build's inputs (paths and contents, in sorted order) and the Node version. */
function adminBuildKey(): string {
  const h = createHash("sha256").update(process.version)
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) if (!BUILD_SKIP.has(name)) walk(join(path, name))
    } else h.update(`\0${relative(ROOT, path)}\0`).update(readFileSync(path))
  }
  for (const input of BUILD_INPUTS) if (existsSync(join(ROOT, input))) walk(join(ROOT, input))
  return h.digest("hex").slice(0, 24)
}
const CACHE_PREFIX = "medusa-sales-tax-admin-"

export async function startBrowserApp(): Promise<BrowserApp> {
  if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
  mkdirSync(LOG_DIR, { recursive: true })
  const baseEnv = { NODE_ENV: "test", MEDUSA_DISABLE_TELEMETRY: "true", DO_NOT_TRACK: "1" }

  // 1 + 2: the plugin installed into app/node_modules as npm would install the published package
  // (its src/ compiled, its admin extensions bundled: demo/lib/plugin-install.ts), and the admin
  // dashboard built with them. The backend needs no build: the app has no sources of its own.
  const adminDir = join(APP_DIR, ".medusa/admin")
  const adminBuilt = join(adminDir, "index.html")
  const needBuild = process.env.BROWSER_SKIP_BUILD !== "1" || !existsSync(adminBuilt)
  // the same sources built before on this machine: that build, copied (see the file's comment)
  const cached = needBuild && process.env.BROWSER_NO_BUILD_CACHE !== "1" ? join(tmpdir(), CACHE_PREFIX + adminBuildKey()) : null
  const fromCache = !!cached && existsSync(join(cached, "index.html"))
  // the backend always; the admin extensions only for a dashboard built here
  if (needBuild) await installPlugin({ admin: !fromCache, appDir: APP_DIR })
  // the dashboard builds while the database is migrated and seeded (step 3): settled before step 4
  const adminBuild: Promise<Error | null> = (async () => {
    if (!needBuild) return
    rmSync(adminDir, { recursive: true, force: true })
    if (fromCache) {
      cpSync(cached, adminDir, { recursive: true })
    } else {
      // `medusa build --admin-only` may exit 1 after writing the whole build (a type-check step of
      // its own): the built index.html decides
      await run("admin-build", [CLI, "build", "--admin-only"], APP_DIR, baseEnv, () => existsSync(adminBuilt))
      if (!existsSync(adminBuilt)) throw new Error("medusa build --admin-only wrote no index.html")
      if (cached) {
        // kept for the next run of these sources (the previous builds' copies removed)
        for (const name of readdirSync(tmpdir()))
          if (name.startsWith(CACHE_PREFIX)) rmSync(join(tmpdir(), name), { recursive: true, force: true })
        const partial = `${cached}.${process.pid}`
        cpSync(adminDir, partial, { recursive: true })
        renameSync(partial, cached)
      }
    }
    const pub = join(APP_DIR, "public")
    rmSync(pub, { recursive: true, force: true })
    mkdirSync(pub, { recursive: true })
    symlinkSync("../.medusa/admin", join(pub, "admin"), "dir")
  })().then(
    () => null,
    (e: Error) => e,
  )
  // the seed script (and the dev-store/seed.ts it imports), compiled as the demo compiles its own
  // (CommonJS, run by `medusa exec`)
  const seedJs = compileScript(join(APP_DIR, "src/scripts/seed-browser.ts"), join(LOG_DIR, "seed"))

  // 3: database, migrations, admin user, seed
  const db = `medusa_sales_tax_browser_${process.pid}_${Date.now().toString(36)}`
  await admin((c) => c.query(createDatabaseSql(db)))
  const sandbox = await startSandbox({
    port: 0,
    host: "127.0.0.1",
    apiKey: SANDBOX_KEY,
    connectionId: SANDBOX_CONNECTION,
    connections: [SECOND_CONNECTION],
  })
  const appEnv = {
    ...baseEnv,
    DATABASE_URL: databaseUrl(db),
    SALES_TAX_BASE_URL: sandbox.url,
    SALES_TAX_API_KEY: SANDBOX_KEY,
    SALES_TAX_CONNECTION_ID: SANDBOX_CONNECTION,
    SALES_TAX_CONNECTIONS_JSON: JSON.stringify([{ salesChannelIds: [SECOND_CHANNEL_ID], ...SECOND_CONNECTION }]),
  }
  let child: ChildProcess | undefined
  const close = async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r))
      child.kill("SIGTERM")
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill("SIGKILL")
    }
    await sandbox.close().catch(() => undefined)
    await admin((c) => putAway(c, db)).catch((e) => console.warn(`[browser] database ${db} not put away: ${(e as Error).message}`))
  }
  try {
    await run("db-migrate", [CLI, "db:migrate"], APP_DIR, appEnv)
    await run("user", [CLI, "user", "-e", ADMIN_EMAIL, "-p", ADMIN_PASSWORD], APP_DIR, appEnv)
    const seedOut = join(LOG_DIR, "seed.json")
    rmSync(seedOut, { force: true })
    await run("seed", [CLI, "exec", seedJs], APP_DIR, { ...appEnv, BROWSER_SEED_OUT: seedOut })
    const seeded = JSON.parse(readFileSync(seedOut, "utf8")) as Seeded
    const buildError = await adminBuild
    if (buildError) throw buildError

    // 4: start
    const port = await freePort()
    const logPath = join(LOG_DIR, "medusa-start.log")
    const log = createWriteStream(logPath)
    child = spawn(process.execPath, [CLI, "start"], {
      cwd: APP_DIR,
      env: { ...process.env, ...appEnv, PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    child.stdout!.pipe(log)
    child.stderr!.pipe(log)
    const url = `http://127.0.0.1:${port}`
    await waitForHealth(url, child, logPath)
    return { url, adminUrl: `${url}/app`, sandbox, seeded, close }
  } catch (e) {
    await adminBuild
    await close()
    throw e
  }
}
