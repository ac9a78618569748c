// What `npm test` (scripts/run-tests.mjs) installs when it is missing: Debian's packages through
// apt-get as root; otherwise one line naming the command to run. The machine is reached through
// `sys` so that the decisions are tested without apt (scripts/provision.test.ts).
"use strict"
const { spawnSync } = require("node:child_process")
const { existsSync } = require("node:fs")

class ProvisionError extends Error {}

/** The real machine. */
const machine = {
  isRoot: () => process.getuid?.() === 0,
  which: (cmd) => spawnSync("/bin/sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).stdout?.trim() || null,
  exists: (path) => existsSync(path),
  /** runs a command with the terminal's stderr; returns its exit status */
  run: (cmd, args, env) => spawnSync(cmd, args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, ...env } }).status,
  log: (line) => console.log(line),
}

function provisioner(sys = machine) {
  let aptUpdated = false
  /** Installs a Debian package as root; otherwise fails with the one command to run. */
  function aptInstall(pkg, what) {
    if (!sys.isRoot()) throw new ProvisionError(`${what} is missing: run "sudo apt-get install -y ${pkg}", then npm test again`)
    sys.log(`[tests] ${what} ${pkg.includes(" ") ? "are" : "is"} missing: apt-get install -y ${pkg}`)
    const env = { DEBIAN_FRONTEND: "noninteractive" }
    if (!aptUpdated) {
      const u = sys.run("apt-get", ["update", "-qq"], env)
      if (u !== 0) throw new ProvisionError(`apt-get update failed (exit ${u}); install ${pkg} by hand`)
      aptUpdated = true
    }
    const r = sys.run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...pkg.split(" ")], env)
    if (r !== 0) throw new ProvisionError(`apt-get install ${pkg} failed (exit ${r}); install it by hand`)
  }
  /** the Debian packages missing for chromium (at `override` or /usr/bin/chromium) and redis-server */
  function missingPackages(override) {
    const out = []
    if (!sys.exists(override || "/usr/bin/chromium")) {
      if (override) throw new ProvisionError(`CHROMIUM_PATH=${override} does not exist`)
      out.push({ pkg: "chromium", what: "Debian's chromium (admin browser test)" })
    }
    if (!sys.which("redis-server")) out.push({ pkg: "redis-server", what: "redis-server" })
    return out
  }
  return {
    /**
     * What must be installed before the integration suite, decided at once: [] when nothing is
     * missing; as another user a missing package fails here with the one command to run (before
     * any suite starts), so that the install itself can run beside the unit suite (`install`).
     */
    plan(override) {
      const missing = missingPackages(override)
      if (missing.length && !sys.isRoot())
        throw new ProvisionError(
          `${missing.map((m) => m.what).join(" and ")} ${missing.length > 1 ? "are" : "is"} missing: run "sudo apt-get install -y ${missing.map((m) => m.pkg).join(" ")}", then npm test again`,
        )
      return missing.map((m) => m.pkg)
    },
    /** Installs the packages `plan` named, in one apt-get run (root only). */
    install(pkgs) {
      if (!pkgs.length) return
      aptInstall(pkgs.join(" "), pkgs.join(" and "))
    },
    /** Debian's chromium, or CHROMIUM_PATH when set; returns its path. */
    chromium(override) {
      const path = override || "/usr/bin/chromium"
      if (sys.exists(path)) return path
      if (override) throw new ProvisionError(`CHROMIUM_PATH=${path} does not exist`)
      aptInstall("chromium", "Debian's chromium (admin browser test)")
      if (!sys.exists(path)) throw new ProvisionError(`${path} is still missing after apt-get install chromium`)
      return path
    },
    /** the redis-server binary; returns its path. */
    redisServer() {
      if (!sys.which("redis-server")) aptInstall("redis-server", "redis-server")
      const bin = sys.which("redis-server")
      if (!bin) throw new ProvisionError("redis-server is still missing after apt-get install redis-server")
      return bin
    },
  }
}

module.exports = { provisioner, ProvisionError, machine }

// `node scripts/provision.cjs install <pkg>…`: the install `npm test` runs beside the unit suite (a
// child process, so that apt-get does not hold up the test runner); exit 1 with the one line on failure
if (require.main === module && process.argv[2] === "install") {
  try {
    provisioner().install(process.argv.slice(3))
  } catch (e) {
    if (!(e instanceof ProvisionError)) throw e
    console.error(e.message)
    process.exit(1)
  }
}
