const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

MetadataStorage.clear()

// Each spec's database is cloned from the migrated template that `npm test` builds
// (integration-tests/db-template.js) instead of being migrated from empty. @medusajs/test-utils
// creates the database through postgres-template.js's `createDatabase` (its index re-exports it
// through a getter, so replacing the export here is what the runner calls). Where the template is
// missing (a direct jest run), the original runs and the runner migrates as before.
const template = process.env.MEDUSA_SPEC_DB_TEMPLATE
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
    } catch (error) {
      if (error?.code === "42P04" && !options.errorIfExist) return // exists: as the original
      if (error?.code !== "3D000") throw error // 3D000: the template is gone; migrate from empty
      return original(options, credentials)
    } finally {
      await client.end()
    }
  }
}
