// Per-spec cost, for the README's table of what each suite takes: each spec file appends one line
// { spec, wallMs, cpuMs, restores } to .tmp/spec-cpu.jsonl, where cpuMs is the jest worker's CPU while the spec
// ran plus that of the processes it started and waited for (the Medusa instances of the cluster and
// browser specs: /proc/self/stat's cutime and cstime). PostgreSQL's own CPU is not in it; restores: the
// database restores before its tests, done and skipped (setup.js).
// scripts/run-tests.mjs prints the table at the end of the integration suite.
/* global afterAll, expect */
const { appendFileSync, mkdirSync, readFileSync } = require("node:fs")
const { join, relative } = require("node:path")

const ROOT = join(__dirname, "..")
const TICK_MS = 10 // USER_HZ is 100 on Linux

function cpuMs() {
  try {
    // the fields after the command's closing parenthesis: utime stime cutime cstime are 12..15 there
    const stat = readFileSync("/proc/self/stat", "utf8")
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS
  } catch {
    const u = process.cpuUsage()
    return Math.round((u.user + u.system) / 1000)
  }
}

// taken when the spec file is set up, before its imports load Medusa (part of what a spec costs)
const started = { wall: Date.now(), cpu: cpuMs() }
// the background drops of the databases the spec put away (integration-tests/setup.js) settled first
afterAll(() => globalThis.__mstSettleTrash?.())
afterAll(() => {
  const spec = relative(ROOT, expect.getState().testPath || "unknown")
  const line = { spec, wallMs: Date.now() - started.wall, cpuMs: cpuMs() - started.cpu, restores: globalThis.__mstRestores }
  mkdirSync(join(ROOT, ".tmp"), { recursive: true })
  appendFileSync(process.env.MST_SPEC_CPU_FILE || join(ROOT, ".tmp", "spec-cpu.jsonl"), JSON.stringify(line) + "\n")
})
