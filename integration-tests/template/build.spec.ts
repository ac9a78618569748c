/**
 * Builds the migrated database that every integration spec's database is cloned from
 * (integration-tests/db-template.js). Run by `npm test` (scripts/run-tests.mjs) when the template
 * of the current schema inputs does not exist yet: Medusa's own test runner boots the app on a
 * fresh database (migrations, link sync, search indexes), then that database is copied under the
 * template's name with Medusa's own template helper, and templates of older inputs are dropped.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { createPostgresDatabaseTemplate } from "@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template"
import { Client } from "@medusajs/framework/pg"
import "../helpers/config"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { templateName, TEMPLATE_PREFIX } = require("../db-template") as { templateName: () => string; TEMPLATE_PREFIX: string }

jest.setTimeout(240_000)
const template = templateName()
const source = `${template}_src`

async function postgres<T>(fn: (client: InstanceType<typeof Client>) => Promise<T>): Promise<T> {
  const client = new Client({
    host: process.env.DB_HOST,
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database: "postgres",
  })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

medusaIntegrationTestRunner({
  dbName: source,
  testSuite: () => {
    it("copies the freshly migrated database as the template and drops older templates", async () => {
      await postgres(async (client) => {
        const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
          `${TEMPLATE_PREFIX}%`,
        ])
        for (const { datname } of rows) {
          // MST_KEEP_TEMPLATES: several checkouts share one server (worktrees): keep their templates
          if (datname === template || datname.includes("_src") || process.env.MST_KEEP_TEMPLATES) continue
          await client.query(`DROP DATABASE IF EXISTS "${datname}"`)
        }
      })
      await createPostgresDatabaseTemplate({ databaseName: source, templateName: template })
      // the modules it was migrated with (integration-tests/setup.js saw them): a spec that runs the
      // same ones skips Medusa's migrations and link sync, which find nothing to do on a clone
      const fingerprint = (globalThis as { __mstModulesFingerprint?: string }).__mstModulesFingerprint
      expect(fingerprint).toMatch(/^[0-9a-f]{16}$/)
      await postgres((client) => client.query(`COMMENT ON DATABASE "${template}" IS 'modules:${fingerprint}'`))
      const made = await postgres((client) => client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [template]))
      expect(made.rowCount).toBe(1)
    })
  },
})
