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
    sys.log(`[tests] ${what} is missing: apt-get install -y ${pkg}`)
    const env = { DEBIAN_FRONTEND: "noninteractive" }
    if (!aptUpdated) {
      const u = sys.run("apt-get", ["update", "-qq"], env)
      if (u !== 0) throw new ProvisionError(`apt-get update failed (exit ${u}); install ${pkg} by hand`)
      aptUpdated = true
    }
    const r = sys.run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", pkg], env)
    if (r !== 0) throw new ProvisionError(`apt-get install ${pkg} failed (exit ${r}); install it by hand`)
  }
  return {
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
