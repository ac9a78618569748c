/**
 * PostgreSQL for the demo store: the server of DATABASE_URL when it is set, else an embedded
 * PostgreSQL (scripts/embedded-postgres.cjs) on a free port, in a temporary directory. Either way
 * the store gets a fresh database named DEMO_DATABASE (dropped and recreated), so runs never see
 * each other's data; the database named in DATABASE_URL is only connected to, never changed.
 */
import { createClient } from "@medusajs/framework/utils"
import { onShutdown } from "./processes"
import { DemoError } from "./ui"

// dev tooling shared with the test command (scripts/ is not shipped)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmbeddedPostgres } = require("../../scripts/embedded-postgres.cjs") as {
  startEmbeddedPostgres(o: { onLog?: (m: string) => void }): Promise<EmbeddedPostgres>
}

interface EmbeddedPostgres {
  port: number
  user: string
  password: string
  stop(): Promise<void>
}

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
      err.code === "42501"
        ? "give the role CREATEDB (ALTER ROLE <user> CREATEDB), or unset DATABASE_URL to use an embedded PostgreSQL"
        : undefined,
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
    throw new DemoError(
      "DATABASE_URL is not a postgres:// URL",
      "use the form postgres://user:password@host:5432/postgres, or unset it to use an embedded PostgreSQL",
    )
  }
  const maintenance = new URL(u.toString())
  if (!maintenance.pathname || maintenance.pathname === "/" || maintenance.pathname === `/${DEMO_DATABASE}`)
    maintenance.pathname = "/postgres"
  await recreate(maintenance.toString(), DEMO_DATABASE)
  const demo = new URL(u.toString())
  demo.pathname = `/${DEMO_DATABASE}`
  return { url: demo.toString(), display: redactUrl(demo), embedded: false }
}

/** An embedded PostgreSQL (scripts/embedded-postgres.cjs) on a free port, from any checkout directory. */
async function embedded(logLine: (s: string) => void): Promise<DemoDatabase> {
  let pg: EmbeddedPostgres
  try {
    pg = await startEmbeddedPostgres({ onLog: (m: string) => logLine(m.trimEnd()) })
  } catch (e) {
    const err = e as Error
    // the launcher's message is one line: why, and what to do (set DATABASE_URL)
    throw new DemoError(
      err.message,
      err.name === "EmbeddedPostgresError"
        ? undefined
        : "set DATABASE_URL to a PostgreSQL server you run (postgres://user:password@host:5432/postgres)",
    )
  }
  onShutdown("embedded PostgreSQL", () => pg.stop())
  const url = `postgres://${pg.user}:${pg.password}@127.0.0.1:${pg.port}/${DEMO_DATABASE}`
  await recreate(`postgres://${pg.user}:${pg.password}@127.0.0.1:${pg.port}/postgres`, DEMO_DATABASE)
  return { url, display: `embedded PostgreSQL on 127.0.0.1:${pg.port}, database ${DEMO_DATABASE}`, embedded: true }
}

export async function startDatabase(logLine: (s: string) => void): Promise<DemoDatabase> {
  const raw = process.env.DATABASE_URL?.trim()
  return raw ? fromUrl(raw) : embedded(logLine)
}
