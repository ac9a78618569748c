/**
 * The demo store's Medusa side, driven through Medusa's own CLI as a merchant would:
 * `medusa db:migrate`, `medusa exec ./seed.ts`, `medusa build` (admin, only for --serve) and
 * `medusa start`, in demo/app (where plugin-install.ts put the plugin into node_modules).
 * The CLI runs under plain node (no TypeScript loader: one costs a third more time on every boot),
 * so the app's medusa-config is JavaScript and seed.ts (with the dev-store/seed.ts it imports) is
 * transpiled before `medusa exec` (compile-script.ts).
 */
import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs"
import { join, relative } from "node:path"
import { compileScript } from "./compile-script"
import { logTail, onShutdown, runLogged, spawnLogged } from "./processes"
import { DemoError } from "./ui"
import { PROCESS_BOUND, watchProcess } from "../../scripts/stall"

export const REPO_ROOT = join(__dirname, "..", "..")
export const APP_DIR = join(REPO_ROOT, "demo", "app")
export const DATA_DIR = join(REPO_ROOT, "demo", ".data")
export const LOG_DIR = join(DATA_DIR, "logs")

function resolveFrom(id: string): string {
  try {
    return require.resolve(id, { paths: [REPO_ROOT] })
  } catch {
    throw new DemoError(`cannot find ${id}`, "run `npm install` in the repository first (the demo uses its dev dependencies)")
  }
}

/** node node_modules/@medusajs/cli/cli.js ... (what `npx medusa ...` runs) */
function medusaCommand(args: string[]): [string, string[]] {
  const cli = join(resolveFrom("@medusajs/cli/package.json"), "..", "cli.js")
  return [process.execPath, [cli, ...args]]
}

export interface AppEnv {
  databaseUrl: string
  salesTaxBaseUrl: string
  salesTaxApiKey: string
  salesTaxConnectionId: string
  admin: boolean
  adminEmail: string
  adminPassword: string
  /** option `connections` as JSON (the demo's second channel on its own connection) */
  salesTaxConnectionsJson?: string
  /**
   * where this store's logs and compiled seed go (default LOG_DIR and DATA_DIR/seed): the cluster
   * test has its own, so that it may run beside `npm run demo` (CI runs them at once)
   */
  logDir?: string
  scriptDir?: string
}

function appEnv(e: AppEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: e.databaseUrl,
    SALES_TAX_BASE_URL: e.salesTaxBaseUrl,
    SALES_TAX_API_KEY: e.salesTaxApiKey,
    SALES_TAX_CONNECTION_ID: e.salesTaxConnectionId,
    ...(e.salesTaxConnectionsJson ? { SALES_TAX_CONNECTIONS_JSON: e.salesTaxConnectionsJson } : {}),
    DEMO_ADMIN: e.admin ? "1" : "0",
    DEMO_ADMIN_EMAIL: e.adminEmail,
    DEMO_ADMIN_PASSWORD: e.adminPassword,
    MEDUSA_DISABLE_TELEMETRY: "true",
    // `medusa start` defaults to "production" (session cookies for HTTPS only) and "development"
    // serves the admin through Vite instead of its build: "demo" is neither
    NODE_ENV: process.env.DEMO_NODE_ENV || "demo",
    ...extra,
  }
  // the demo store gets its own Redis-less setup: never a host's REDIS_URL or PORT
  delete env.REDIS_URL
  delete env.PORT
  return env
}

export async function migrate(e: AppEnv): Promise<void> {
  const [cmd, args] = medusaCommand(["db:migrate"])
  await runLogged(cmd, args, {
    cwd: APP_DIR,
    env: appEnv(e),
    logFile: join(e.logDir ?? LOG_DIR, "medusa-migrate.log"),
    label: "medusa db:migrate",
  })
}

export async function seed(e: AppEnv, outFile: string): Promise<void> {
  rmSync(outFile, { force: true })
  // demo/app/seed.ts and the shared dev-store/seed.ts it imports -> demo/.data/seed/ (CommonJS)
  const [cmd, args] = medusaCommand(["exec", compileScript(join(APP_DIR, "seed.ts"), e.scriptDir ?? join(DATA_DIR, "seed"))])
  const logFile = join(e.logDir ?? LOG_DIR, "medusa-seed.log")
  await runLogged(cmd, args, {
    cwd: APP_DIR,
    env: appEnv(e, { DEMO_SEED_OUT: outFile }),
    logFile,
    label: "medusa exec seed.ts",
  })
  if (!existsSync(outFile)) throw new DemoError("the seed script ended without writing its result", undefined, logFile)
}

/**
 * `medusa build --admin-only` of the demo app: the dashboard with the plugin's widgets and
 * settings page, into demo/app/.medusa/admin; `medusa start` serves demo/app/public/admin, a
 * link to it (the backend needs no build: the app has no sources of its own).
 */
export async function buildAdmin(e: AppEnv): Promise<void> {
  const [cmd, args] = medusaCommand(["build", "--admin-only"])
  const logFile = join(e.logDir ?? LOG_DIR, "medusa-build.log")
  rmSync(logFile, { force: true })
  const built = join(APP_DIR, ".medusa", "admin")
  rmSync(built, { recursive: true, force: true })
  try {
    await runLogged(cmd, args, { cwd: APP_DIR, env: appEnv(e), logFile, label: "medusa build --admin-only" })
  } catch (err) {
    if (!existsSync(join(built, "index.html"))) throw err
  }
  if (!existsSync(join(built, "index.html")))
    throw new DemoError("the admin build wrote no index.html", undefined, logFile, logTail(logFile))
  const pub = join(APP_DIR, "public")
  rmSync(pub, { recursive: true, force: true })
  mkdirSync(pub, { recursive: true })
  symlinkSync(relative(pub, built), join(pub, "admin"), "dir")
}

export interface RunningStore {
  url: string
  port: number
  logFile: string
}

export interface StartOptions {
  /** names the log file (medusa-<name>.log) and the shutdown step; default "server" */
  name?: string
  /** more environment for this instance (e.g. DEMO_REDIS_URL, MEDUSA_WORKER_MODE) */
  env?: Record<string, string>
}

/** `medusa start` on `port`; resolves once GET /health answers 200. */
export async function startStore(
  e: AppEnv,
  port: number,
  o: StartOptions = {},
): Promise<RunningStore & { kill(): void; exited: Promise<number | null> }> {
  const name = o.name ?? "server"
  const [cmd, args] = medusaCommand(["start", "--port", String(port)])
  const logFile = join(e.logDir ?? LOG_DIR, `medusa-${name}.log`)
  rmSync(logFile, { force: true })
  const p = spawnLogged(cmd, args, { cwd: APP_DIR, env: appEnv(e, o.env), logFile, label: `medusa start --port ${port}` })
  onShutdown(`Medusa ${name}`, p.stop)
  const url = `http://127.0.0.1:${port}`
  let exited: number | null | undefined
  void p.exited.then((c) => (exited = c))
  // bounded by progress (scripts/stall.ts): waits while the server's process tree uses CPU
  const watch: { stopped: string | null } = { stopped: null }
  const unwatch = watchProcess(p.child.pid!, "medusa start", PROCESS_BOUND, (m) => (watch.stopped = m))
  try {
    while (watch.stopped === null) {
      if (exited !== undefined) {
        const tail = logTail(logFile, 20)
        const optionsProblem = /invalid options/.test(tail)
        const inUse = /EADDRINUSE/.test(tail)
        throw new DemoError(
          `the Medusa server stopped while starting (exit code ${exited})`,
          optionsProblem
            ? "the plugin options in demo/app/medusa-config.js are invalid: each problem is named above"
            : inUse
              ? `port ${port} was taken meanwhile: pass --port <another port>`
              : "read the log: a module or plugin failed to load",
          logFile,
          tail,
        )
      }
      try {
        const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })
        if (r.status === 200) return { url, port, logFile, kill: p.kill, exited: p.exited }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 500))
    }
    throw new DemoError(`the Medusa server did not answer /health: ${watch.stopped}`, "read the log", logFile, logTail(logFile))
  } finally {
    unwatch()
  }
}
