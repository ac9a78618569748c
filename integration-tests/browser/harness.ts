/**
 * Browser-test harness: a real Medusa app with the admin ON and this plugin installed
 * (integration-tests/browser/app), the sandbox in-process, Debian's chromium driven by
 * playwright-core.
 *
 *   1. `medusa plugin:build` at the repository root (→ .medusa/server, incl. the admin extensions)
 *   2. app/node_modules/medusa-sales-tax → symlink to the repository root; `medusa build` in app/
 *      (backend + admin dashboard with the plugin's widgets, → app/.medusa/server)
 *   3. a fresh PostgreSQL database; `medusa db:migrate`, `medusa user`, `medusa exec` (seed)
 *   4. `medusa start` on a free port against the sandbox
 * Every step is bounded in time; logs go to .tmp/browser/*.log. Set BROWSER_SKIP_BUILD=1 to reuse
 * the previous builds while working on the tests.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, lstatSync, createWriteStream } from "node:fs"
import { createServer } from "node:net"
import { join, resolve } from "node:path"
import { Client } from "pg"
import { startSandbox, type RunningSandbox } from "../../src/sandbox"

export const ROOT = resolve(__dirname, "../..")
export const APP_DIR = join(__dirname, "app")
const SERVER_DIR = join(APP_DIR, ".medusa/server")
const CLI = join(ROOT, "node_modules/@medusajs/cli/cli.js")
export const LOG_DIR = join(ROOT, ".tmp/browser")
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium"
/** where screenshots go: git-ignored unless UPDATE_SCREENSHOTS=1 refreshes the README's (docs/screenshots) */
export const SCREENSHOTS = join(ROOT, process.env.UPDATE_SCREENSHOTS === "1" ? "docs/screenshots" : ".tmp/screenshots")

export const ADMIN_EMAIL = "admin@sales-tax.test"
export const ADMIN_PASSWORD = "browser-test-password-1"
export const SANDBOX_KEY = "sk_browser_0123456789-SECRET"
export const SANDBOX_CONNECTION = "33333333-4444-4555-8666-777777777777"

export interface Seeded {
  productId: string
  productTypeId: string
  categoryId: string
  customerId: string
  orderId: string
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
 * Runs a command to completion within `timeoutMs`, output to .tmp/browser/<name>.log.
 * `accept(log)` may accept a non-zero exit.
 */
function run(name: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs: number, accept?: (log: string) => boolean): Promise<void> {
  mkdirSync(LOG_DIR, { recursive: true })
  const logPath = join(LOG_DIR, `${name}.log`)
  const log = createWriteStream(logPath)
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    child.stdout.pipe(log, { end: false })
    child.stderr.pipe(log, { end: false })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      rej(new Error(`${name} timed out after ${timeoutMs} ms (log: ${logPath})`))
    }, timeoutMs)
    child.once("exit", (code) => {
      clearTimeout(timer)
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

async function waitForHealth(url: string, child: ChildProcess, logPath: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`medusa start exited with ${child.exitCode}: ${tail(logPath)}`)
    try {
      const r = await fetch(`${url}/health`)
      if (r.ok) return
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`medusa start did not answer /health within ${timeoutMs} ms: ${tail(logPath)}`)
}

export async function startBrowserApp(): Promise<BrowserApp> {
  if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
  mkdirSync(LOG_DIR, { recursive: true })
  const baseEnv = { NODE_ENV: "test", MEDUSA_DISABLE_TELEMETRY: "true", DO_NOT_TRACK: "1" }

  // 1 + 2: builds
  const link = join(APP_DIR, "node_modules/medusa-sales-tax")
  mkdirSync(join(APP_DIR, "node_modules"), { recursive: true })
  let linked = false
  try {
    linked = lstatSync(link).isSymbolicLink()
  } catch {
    linked = false
  }
  if (!linked) {
    rmSync(link, { recursive: true, force: true })
    symlinkSync("../../../..", link, "dir")
  }
  if (process.env.BROWSER_SKIP_BUILD !== "1" || !existsSync(join(SERVER_DIR, "public/admin/index.html"))) {
    // TypeScript errors anywhere in the package make plugin:build exit 1 although it emits every file
    // (tsc without noEmitOnError); type errors are the typecheck's business, not this test's: accept
    // that case when the admin extensions built.
    await run("plugin-build", [CLI, "plugin:build"], ROOT, baseEnv, 180_000, (log) =>
      /Plugin build completed with errors/.test(log) && /admin extensions build completed successfully/.test(log))
    if (!existsSync(join(ROOT, ".medusa/server/src/admin/index.mjs"))) throw new Error("plugin:build produced no admin extensions")
    await run("app-build", [CLI, "build"], APP_DIR, baseEnv, 300_000)
  }
  // the build compiles TypeScript only: the (JavaScript) config goes next to the built server
  copyFileSync(join(APP_DIR, "medusa-config.js"), join(SERVER_DIR, "medusa-config.js"))

  // 3: database, migrations, admin user, seed
  const db = `medusa_sales_tax_browser_${process.pid}_${Date.now().toString(36)}`
  await admin((c) => c.query(`CREATE DATABASE "${db}"`))
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", apiKey: SANDBOX_KEY, connectionId: SANDBOX_CONNECTION })
  const appEnv = {
    ...baseEnv,
    DATABASE_URL: databaseUrl(db),
    SALES_TAX_BASE_URL: sandbox.url,
    SALES_TAX_API_KEY: SANDBOX_KEY,
    SALES_TAX_CONNECTION_ID: SANDBOX_CONNECTION,
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
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`)).catch(() => undefined)
  }
  try {
    await run("db-migrate", [CLI, "db:migrate"], SERVER_DIR, appEnv, 240_000)
    await run("user", [CLI, "user", "-e", ADMIN_EMAIL, "-p", ADMIN_PASSWORD], SERVER_DIR, appEnv, 60_000)
    const seedOut = join(LOG_DIR, "seed.json")
    rmSync(seedOut, { force: true })
    await run("seed", [CLI, "exec", "./src/scripts/seed-browser.js"], SERVER_DIR, { ...appEnv, BROWSER_SEED_OUT: seedOut }, 120_000)
    const seeded = JSON.parse(readFileSync(seedOut, "utf8")) as Seeded

    // 4: start
    const port = await freePort()
    const logPath = join(LOG_DIR, "medusa-start.log")
    const log = createWriteStream(logPath)
    child = spawn(process.execPath, [CLI, "start"], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...appEnv, PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    child.stdout!.pipe(log)
    child.stderr!.pipe(log)
    const url = `http://127.0.0.1:${port}`
    await waitForHealth(url, child, logPath, 120_000)
    return { url, adminUrl: `${url}/app`, sandbox, seeded, close }
  } catch (e) {
    await close()
    throw e
  }
}
