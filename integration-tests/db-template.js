// One migrated database that every Medusa spec's database is cloned from (CREATE DATABASE … TEMPLATE),
// instead of each spec running Medusa's ~600 migrations itself (about 12 s of a spec's boot).
//
// - `npm test` builds it once per content (scripts/run-tests.mjs → integration-tests/template/build.spec.ts,
//   beside the unit suite) under a name that hashes what the schema depends on: the lock file (the
//   Medusa set), the root medusa-config.ts and the plugin's models, migrations and links. A change to
//   any of them builds a new one; templates of other hashes are dropped when a new one is built.
// - integration-tests/setup.js makes @medusajs/test-utils create each spec's database from it when
//   MEDUSA_SPEC_DB_TEMPLATE names it; where it is missing the runner migrates as before.
const { createHash } = require("node:crypto")
const { existsSync, readFileSync, readdirSync, statSync } = require("node:fs")
const { join, relative } = require("node:path")

const ROOT = join(__dirname, "..")
const PREFIX = "mst_tpl_"

function files(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name)
      return statSync(p).isDirectory() ? files(p) : [p]
    })
}

/** The template's name: a hash of everything Medusa's migrations and link sync read. */
function templateName(root = ROOT) {
  const h = createHash("sha256")
  const inputs = [
    join(root, "package-lock.json"),
    join(root, "medusa-config.ts"),
    // how the template is made and read (a change there must not reuse an older template)
    join(root, "integration-tests", "db-template.js"),
    join(root, "integration-tests", "setup.js"),
    ...files(join(root, "src", "modules")).filter((p) => /[/\\](migrations|models)[/\\]|[/\\]index\.ts$/.test(p)),
    ...files(join(root, "src", "links")),
  ]
  for (const p of inputs) {
    if (!existsSync(p)) continue
    h.update(relative(root, p))
    h.update("\0")
    h.update(readFileSync(p))
    h.update("\0")
  }
  return PREFIX + h.digest("hex").slice(0, 16)
}

/**
 * What the schema of a booted app depends on beyond the template's name: the modules it runs (the Redis
 * workflow engine has migrations of its own, say). Every `resolve` in the config's modules, sorted; the
 * template carries the one it was built with (COMMENT ON DATABASE), and a spec whose modules match skips
 * Medusa's migrations and link sync, which on a clone would find nothing to do (~4 s of CPU each).
 */
function modulesFingerprint(modules) {
  const out = []
  const walk = (v, path) => {
    if (typeof v === "string" || typeof v === "boolean") out.push(`${path}=${v}`)
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x && typeof x === "object" ? (x.resolve ?? x) : x, `${path}[${i}]`))
    else if (v && typeof v === "object") {
      if (typeof v.resolve === "string") out.push(`${path}=${v.resolve}`)
      if (v.options && Array.isArray(v.options.providers))
        walk(
          v.options.providers.map((p) => p && p.resolve),
          `${path}.providers`,
        )
      if (v.disable) out.push(`${path}.disable`)
    }
  }
  for (const key of Object.keys(modules || {}).sort()) walk(modules[key], key)
  return createHash("sha256").update(out.join("\n")).digest("hex").slice(0, 16)
}

/**
 * The SQL that makes the database of a Medusa app a spec starts itself (the browser test's, the
 * cluster's): a clone of this run's migrated template when `npm test` built one
 * (MEDUSA_SPEC_DB_TEMPLATE), so that the app's `medusa db:migrate` finds ~600 migrations done
 * (about 6 s less of PostgreSQL work per app), else an empty database.
 */
function createDatabaseSql(name, template = process.env.MEDUSA_SPEC_DB_TEMPLATE) {
  const quote = (n) => `"${n.replace(/"/g, '""')}"`
  return template ? `CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}` : `CREATE DATABASE ${quote(name)}`
}

/** A client of `database` on the specs' server (DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD), connected. */
async function connect(database = "postgres") {
  const { Client } = require("@medusajs/framework/pg")
  const c = new Client({
    host: process.env.DB_HOST ?? "localhost",
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD || undefined,
    port: Number(process.env.DB_PORT ?? 5432),
    database,
  })
  await c.connect()
  return c
}

/** The name prefix of the spec databases put away (integration-tests/setup.js): renamed, to be dropped. */
const TRASH_PREFIX = "mst_trash_"

const quote = (name) => `"${name.replace(/"/g, '""')}"`
let putAwayCount = 0
/** `db` closed, its sessions ended and renamed into the trash (dropped by dropTrash); nothing when it does not exist */
async function putAway(admin, db) {
  const name = `${TRASH_PREFIX}${process.pid}_${Date.now().toString(36)}_${++putAwayCount}`
  try {
    await admin.query(`ALTER DATABASE ${quote(db)} WITH ALLOW_CONNECTIONS false`)
  } catch (e) {
    if (e.code === "3D000") return
    throw e
  }
  for (let attempt = 1; ; attempt++) {
    await admin.query("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [db])
    try {
      return await admin.query(`ALTER DATABASE ${quote(db)} RENAME TO ${quote(name)}`)
    } catch (e) {
      // 55006: a session that was ending still holds it
      if (e.code !== "55006" || attempt === 10) throw e
      await new Promise((r) => setTimeout(r, 50 * attempt))
    }
  }
}

/**
 * Drops every database put away (by any run on this server: all closed and unused), all at once: each
 * DROP DATABASE waits for a checkpoint of the whole server, and drops under way together share one.
 * Resolves to the failures' messages (a database another process dropped first is no failure).
 */
async function dropTrash() {
  const list = await connect()
  let names
  try {
    const { rows } = await list.query("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [TRASH_PREFIX])
    names = rows.map((r) => r.datname)
  } finally {
    await list.end()
  }
  const results = await Promise.allSettled(
    names.map(async (name) => {
      const c = await connect()
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}"`)
      } finally {
        await c.end()
      }
    }),
  )
  return results.filter((r) => r.status === "rejected").map((r) => r.reason.message)
}

module.exports = {
  templateName,
  modulesFingerprint,
  createDatabaseSql,
  connect,
  dropTrash,
  putAway,
  quote,
  TEMPLATE_PREFIX: PREFIX,
  TRASH_PREFIX,
}
