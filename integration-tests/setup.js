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
  const quote = (name) => `"${name.replace(/"/g, '""')}"`
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
