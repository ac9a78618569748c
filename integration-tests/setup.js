// The property tests' seed (`npm test` sets FC_SEED from the commit: scripts/run-tests.mjs). A test
// that passes its own seed keeps it; a failure prints the seed and path to replay it.
if (process.env.FC_SEED && /^-?\d+$/.test(process.env.FC_SEED)) {
  require("fast-check").configureGlobal({ seed: Number(process.env.FC_SEED) })
}

// Each spec's database is cloned from the migrated template that `npm test` builds
// (integration-tests/db-template.js) instead of being migrated from empty. @medusajs/test-utils
// creates the database through postgres-template.js's `createDatabase` (its index re-exports it
// through a getter, so replacing the export here is what the runner calls). Where the template is
// missing (a direct jest run), the original runs and the runner migrates as before.
const template = process.env.MEDUSA_SPEC_DB_TEMPLATE
/** the modules fingerprint the template was migrated with (its COMMENT), once this spec's database is a clone of it */
let clonedFrom = null
if (template && process.env.TEST_TYPE === "integration:http") {
  const pgTemplate = require("@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template")
  const { Client } = require("@medusajs/framework/pg")
  const original = pgTemplate.createDatabase
  const { quote } = require("./db-template.js")
  pgTemplate.createDatabase = async function createDatabaseFromTemplate(options, credentials = {}) {
    const client = new Client({ user: "postgres", database: "postgres", password: "", port: 5432, host: "localhost", ...credentials })
    await client.connect()
    try {
      await client.query(`CREATE DATABASE ${quote(options.databaseName)} TEMPLATE ${quote(template)};`)
      const { rows } = await client.query("SELECT shobj_description(oid, 'pg_database') AS c FROM pg_database WHERE datname = $1", [
        template,
      ])
      clonedFrom = rows[0]?.c ?? ""
    } catch (error) {
      if (error?.code === "42P04" && !options.errorIfExist) return // exists: as the original
      if (error?.code !== "3D000") throw error // 3D000: the template is gone; migrate from empty
      return original(options, credentials)
    } finally {
      await client.end()
    }
  }
}

// Before every test but a spec's first, the runner puts the seeded database back (DROP DATABASE, then
// CREATE DATABASE … TEMPLATE of the seeded copy: 0.5–1 s of PostgreSQL's CPU each). After a test that
// changed nothing the database still is the seeded copy: that is skipped. What changed: the database's
// counters of inserted, updated and deleted rows (pg_stat_database, catalogs included; a session hands
// them in when it exits, so they are read once its sessions have ended, as the restore ends them) and
// its sequences' values, each against their value when the database was last the copy. Not on the
// compat copy of an older Medusa: its test-utils have no postgres-template (scripts/compat.mjs restores).
// The database is put away (renamed) instead of dropped, then cloned again: a DROP DATABASE waits for a
// checkpoint of the whole server (4–10 s of wall each on this machine under load, against 0.4 s for the
// rename and the clone). What is put away is dropped in the background, drops under way sharing one
// checkpoint, the run's last by global-teardown.js (db-template.js dropTrash); the runner's drops at a
// spec's end (its database and the seeded copy) are put away likewise.
const pgTemplate = (() => {
  if (process.env.TEST_TYPE !== "integration:http") return null
  try {
    return require("@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template")
  } catch (e) {
    if (e.code === "MODULE_NOT_FOUND") return null
    throw e
  }
})()
if (pgTemplate) {
  const { createPostgresDatabaseTemplate: snapshot } = pgTemplate
  const { connect, dropTrash, putAway, quote } = require("./db-template.js")
  /** database → the copy it is and its state then; copy → its sequences */
  const was = new Map()
  const sequencesOf = new Map()
  /** the restores done and skipped, and the wall time they took in all (ms) */
  globalThis.__mstRestores = { restored: 0, skipped: 0, ms: 0 }
  /** `db` closed to new sessions (`admin` reopens it), its sessions ended; its row counters and sequences */
  const closeAndRead = async (admin, db) => {
    const own = await connect(db)
    try {
      const { rows: seq } = await own.query(
        "SELECT string_agg(last_value::text, ',' ORDER BY schemaname, sequencename) AS v FROM pg_sequences",
      )
      await admin.query(`ALTER DATABASE ${quote(db)} WITH ALLOW_CONNECTIONS false`)
      await admin.query(
        "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND pid <> $2",
        [db, own.processID],
      )
      const { rows } = await admin.query(
        "SELECT (tup_inserted + tup_updated + tup_deleted)::text AS n FROM pg_stat_database WHERE datname = $1",
        [db],
      )
      return { rows: rows[0]?.n, sequences: seq[0]?.v }
    } finally {
      await own.end()
    }
  }
  const withAdmin = async (fn) => {
    const admin = await connect()
    try {
      return await fn(admin)
    } finally {
      await admin.end()
    }
  }
  /** the background drop under way (one at a time; a restore meanwhile asks for one more), and whether the spec has ended */
  let dropping = null
  let dropAgain = false
  let ended = false
  const dropInBackground = () => {
    if (ended) return
    if (dropping) return void (dropAgain = true)
    dropping = dropTrash()
      .catch(() => undefined) // trash the next drop or the run's teardown takes
      .finally(() => {
        dropping = null
        if (dropAgain) {
          dropAgain = false
          dropInBackground()
        }
      })
  }
  // spec-cpu.js's afterAll, after the runner's: no drop of this spec left running once its file ends
  globalThis.__mstSettleTrash = async () => {
    ended = true
    await dropping
  }
  pgTemplate.dropPostgresDatabaseTemplate = (templateName) => withAdmin((admin) => putAway(admin, templateName))
  pgTemplate.dropDatabase = ({ databaseName }) => withAdmin((admin) => putAway(admin, databaseName))
  pgTemplate.createPostgresDatabaseTemplate = async function snapshotRead(options) {
    const now = await withAdmin((admin) => closeAndRead(admin, options.databaseName))
    await snapshot(options) // opens the database again
    was.set(options.databaseName, { copy: options.templateName, ...now })
    sequencesOf.set(options.templateName, now.sequences)
  }
  pgTemplate.restorePostgresDatabaseFromTemplate = async function restoreIfChanged({ databaseName: db, templateName: copy }) {
    const started = Date.now()
    const before = was.get(db)
    was.delete(db)
    await withAdmin(async (admin) => {
      const now = await closeAndRead(admin, db)
      const skip = before?.copy === copy && now.rows !== undefined && now.rows === before.rows && now.sequences === before.sequences
      globalThis.__mstRestores[skip ? "skipped" : "restored"]++
      if (skip) {
        await admin.query(`ALTER DATABASE ${quote(db)} WITH ALLOW_CONNECTIONS true`)
        was.set(db, before)
        return
      }
      await putAway(admin, db)
      await admin.query(`CREATE DATABASE ${quote(db)} TEMPLATE ${quote(copy)}`)
      dropInBackground()
      // a new database: its counters start at zero, its sequences are the copy's
      if (sequencesOf.has(copy)) was.set(db, { copy, rows: "0", sequences: sequencesOf.get(copy) })
    })
    globalThis.__mstRestores.ms += Date.now() - started
  }
}

// On a clone of the template, Medusa's migrations and link sync find nothing to do, yet cost ~4 s of CPU
// and a few hundred queries per spec. They are skipped when the spec runs the same modules the template
// was migrated with (db-template.js modulesFingerprint; a spec that adds the Redis workflow engine, say,
// migrates as before). The plugin's custom links are still loaded, as syncLinks would.
if (process.env.TEST_TYPE === "integration:http" || process.env.TEST_TYPE === "integration:template") {
  const { modulesFingerprint } = require("./db-template.js")
  const useDb = require("@medusajs/test-utils/dist/medusa-test-runner-utils/use-db")
  const { migrateDatabase, syncLinks } = useDb
  let skipped = false
  useDb.migrateDatabase = async function migrateDatabaseUnlessCloned(appLoader) {
    const { container } = require("@medusajs/framework")
    const fingerprint = modulesFingerprint(container.resolve("configModule").modules)
    globalThis.__mstModulesFingerprint = fingerprint
    if (clonedFrom === `modules:${fingerprint}`) {
      skipped = true
      return
    }
    return migrateDatabase(appLoader)
  }
  useDb.syncLinks = async function syncLinksUnlessCloned(appLoader, directory, container, logger) {
    if (!skipped) return syncLinks(appLoader, directory, container, logger)
    const { getResolvedPlugins } = require("@medusajs/framework/utils")
    const { LinkLoader } = require("@medusajs/framework")
    const plugins = await getResolvedPlugins(directory, container.resolve("configModule"), true)
    await new LinkLoader(
      plugins.map((p) => require("node:path").join(p.resolve, "links")),
      logger,
    ).load()
  }
}
