#!/usr/bin/env node
// The npm registry reachable from these machines does not serve every platform build of packages
// that ship native binaries as optional dependencies (e.g. @swc/core-darwin-arm64 answers 404).
// npm then leaves those entries out of package-lock.json, and `npm ci` refuses the lock
// ("Missing: @swc/core-darwin-arm64@ from lock file"). This script adds, for every optional
// dependency missing from the lock, an entry that names its version and platform (os/cpu/libc,
// read from the package name), so `npm ci` accepts the lock and skips those entries on this
// platform as it would skip any foreign-platform build. Run it after any `npm install`:
//   node scripts/lockfile-platform-stubs.mjs        (prints what it added; --check exits 1 if any)
import { readFileSync, writeFileSync } from "node:fs"

const file = new URL("../package-lock.json", import.meta.url)
const lock = JSON.parse(readFileSync(file, "utf8"))
const pkgs = lock.packages
const OS = ["darwin", "linux", "win32", "freebsd", "android", "openbsd", "netbsd", "sunos", "aix", "openharmony"]
const CPU = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "mips64el", "ppc"]

function platformOf(name) {
  const parts = name.toLowerCase().split(/[-/]/)
  const os = parts.find((p) => OS.includes(p)) ?? (parts.includes("win32") ? "win32" : undefined)
  let cpu = parts.find((p) => CPU.includes(p))
  if (!cpu && parts.includes("gnueabihf")) cpu = "arm"
  if (!cpu && parts.includes("musleabihf")) cpu = "arm"
  const libc = parts.some((p) => p.startsWith("musl")) ? "musl" : parts.some((p) => p.startsWith("gnu")) ? "glibc" : undefined
  return { os, cpu, libc }
}

function resolveFrom(parentPath, dep) {
  // node resolution inside the lock: parent/node_modules/dep, then up the tree
  let base = parentPath
  for (;;) {
    const candidate = (base ? `${base}/` : "") + `node_modules/${dep}`
    if (pkgs[candidate]) return candidate
    if (!base) return null
    const i = base.lastIndexOf("/node_modules/")
    base = i === -1 ? "" : base.slice(0, i)
  }
}

const added = []
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    if (resolveFrom(path, dep)) continue
    const { os, cpu, libc } = platformOf(dep)
    if (!os && !cpu) continue // not a platform build: leave it to npm
    const entry = { version: String(range).replace(/^[~^=]/, ""), optional: true }
    if (meta.dev) entry.dev = true
    if (os) entry.os = [os]
    if (cpu) entry.cpu = [cpu]
    if (libc) entry.libc = [libc]
    pkgs[`node_modules/${dep}`] = entry
    added.push(`${dep}@${entry.version}`)
  }
}
if (process.argv.includes("--check")) {
  if (added.length) {
    console.error(`package-lock.json lacks ${added.length} platform entries; run node scripts/lockfile-platform-stubs.mjs`)
    process.exit(1)
  }
  process.exit(0)
}
if (added.length) {
  lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))))
  writeFileSync(file, JSON.stringify(lock, null, 2) + "\n")
}
console.log(added.length ? `added ${added.length} platform entries:\n  ${added.join("\n  ")}` : "lock complete")
