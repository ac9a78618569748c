// Makes sure a PostgreSQL answers for the Medusa integration tests. `npm test`
// (scripts/run-tests.mjs) provisions one before jest starts; a direct jest run lands here. Where
// one answers at DB_HOST:DB_PORT (default localhost:5432) it is used; otherwise an embedded
// PostgreSQL (scripts/embedded-postgres.cjs) is started for the run and stopped by
// global-teardown.js. Environment set here reaches the test workers, which jest starts after this.
const { startEmbeddedPostgres } = require("../scripts/embedded-postgres.cjs")
const { answers } = require("../scripts/net.cjs")

module.exports = async function globalSetup() {
  if (!process.env.TEST_TYPE?.startsWith("integration:") && process.env.NEED_PG !== "1") return
  process.env.DB_HOST = process.env.DB_HOST || "localhost"
  process.env.DB_PORT = process.env.DB_PORT || "5432"
  process.env.DB_USERNAME = process.env.DB_USERNAME || "postgres"
  process.env.DB_PASSWORD = process.env.DB_PASSWORD || ""
  // @medusajs/test-utils turns SSL on for any host but the literal "localhost": keep that name, but
  // probe IPv4 loopback (PostgreSQL here listens on 127.0.0.1).
  const probe = process.env.DB_HOST === "localhost" ? "127.0.0.1" : process.env.DB_HOST
  const tried = `${probe}:${process.env.DB_PORT}`
  if (await answers(probe, Number(process.env.DB_PORT))) return

  let pg
  try {
    pg = await startEmbeddedPostgres()
  } catch (e) {
    // one line that says why and what to do, not a spawn stack trace
    console.error(`\n[tests] ${e.message}`)
    process.exit(1)
  }
  globalThis.__EMBEDDED_PG__ = pg
  process.env.DB_HOST = "localhost"
  process.env.DB_PORT = String(pg.port)
  process.env.DB_USERNAME = pg.user
  process.env.DB_PASSWORD = pg.password
  console.log(`[tests] no PostgreSQL answered at ${tried}; started an embedded one on 127.0.0.1:${pg.port}`)
}
