/**
 * A seed run once per content, not once per spec: the database a spec's seed leaves is kept as a
 * template (`<spec template>_s<hash>`, the seed's result in its COMMENT), and a later spec with the
 * same seed swaps its empty database for a clone of it (what the runner's restore does between tests)
 * instead of running the seed's dozen workflows again. The hash covers the spec template (the schema),
 * the modules the app runs and the seed's sources. Only before a spec's first test, and only where
 * `npm test` built the spec template; elsewhere (a test, the bench's app, a direct jest run) it seeds.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@medusajs/framework/pg"
import type { MedusaContainer } from "@medusajs/framework/types"

const ROOT = join(__dirname, "..", "..")
/** what a seed's database depends on besides the schema */
const SOURCES = ["dev-store/seed.ts", "integration-tests/helpers/seed.ts", "integration-tests/helpers/seed-template.ts"]

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

async function admin<T>(fn: (c: InstanceType<typeof Client>) => Promise<T>): Promise<T> {
  const c = new Client({
    host: process.env.DB_HOST ?? "localhost",
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD || undefined,
    port: Number(process.env.DB_PORT ?? 5432),
    database: "postgres",
  })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

/** `sql` on `db` closed to new sessions, once its sessions ended (55006: one still ending, tried again). */
async function closed(c: InstanceType<typeof Client>, db: string, sql: string): Promise<void> {
  await c.query(`ALTER DATABASE ${quote(db)} WITH ALLOW_CONNECTIONS false`)
  for (let attempt = 1; ; attempt++) {
    await c.query("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [db])
    try {
      return void (await c.query(sql))
    } catch (e) {
      if ((e as { code?: string }).code !== "55006" || attempt === 10) throw e
      await new Promise((r) => setTimeout(r, 100 * attempt))
    }
  }
}
const reopen = (c: InstanceType<typeof Client>, db: string) => c.query(`ALTER DATABASE ${quote(db)} WITH ALLOW_CONNECTIONS true`)

/** The name of the app's database, when this is a spec's seed before its first test on a clone of the spec template. */
function specDatabase(container: MedusaContainer): string | null {
  const state = (globalThis as { expect?: { getState(): { currentTestName?: string } } }).expect?.getState()
  if (!process.env.MEDUSA_SPEC_DB_TEMPLATE || !state || state.currentTestName) return null
  const url = container.resolve<{ projectConfig: { databaseUrl?: string } }>("configModule").projectConfig.databaseUrl
  return url ? decodeURIComponent(new URL(url).pathname.slice(1)) : null
}

/** `seed`'s result, from the template of an earlier run of the same seed when there is one (else seeded, and kept as one). */
export async function seedOnce<T>(container: MedusaContainer, kind: string, seed: () => Promise<T>): Promise<T> {
  const db = specDatabase(container)
  if (!db) return seed()
  const t0 = process.cpuUsage() // TEMP-MEASURE
  const say = (how: string) =>
    process.stderr.write(`TEMP-MEASURE seed ${kind} ${how} ${(((u) => u.user + u.system)(process.cpuUsage(t0)) / 1e6).toFixed(2)} s\n`) // TEMP-MEASURE
  const h = createHash("sha256").update(`${process.env.MEDUSA_SPEC_DB_TEMPLATE}\0${kind}\0`)
  h.update(String((globalThis as { __mstModulesFingerprint?: string }).__mstModulesFingerprint))
  for (const f of SOURCES) h.update("\0").update(readFileSync(join(ROOT, f)))
  const template = `${process.env.MEDUSA_SPEC_DB_TEMPLATE}_s${h.digest("hex").slice(0, 12)}`
  const kept = await admin(async (c) => {
    const { rows } = await c.query("SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1", [template])
    const comment: string | null = rows[0]?.c ?? null // set once the copy is whole
    if (!comment?.startsWith("seed:")) return null
    await closed(c, db, `DROP DATABASE ${quote(db)}`)
    await c.query(`CREATE DATABASE ${quote(db)} TEMPLATE ${quote(template)}`)
    return JSON.parse(comment.slice("seed:".length)) as T
  })
  if (kept) say("kept") // TEMP-MEASURE
  if (kept) return kept
  const result = await seed()
  say("seeded") // TEMP-MEASURE
  await admin(async (c) => {
    try {
      await closed(c, db, `CREATE DATABASE ${quote(template)} TEMPLATE ${quote(db)}`)
      await c.query(`COMMENT ON DATABASE ${quote(template)} IS ${c.escapeLiteral(`seed:${JSON.stringify(result)}`)}`)
    } catch (e) {
      // another worker made it meanwhile (42P04; 23505 when both created it at once)
      if (!["42P04", "23505"].includes((e as { code?: string }).code ?? "")) throw e
    } finally {
      await reopen(c, db)
    }
  })
  say("seeded+copied") // TEMP-MEASURE
  return result
}
