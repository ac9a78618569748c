#!/usr/bin/env node
// `npm test`: every suite, one after the other, then one closing line "N passed, N failed".
//   unit              src/**/*.test.ts: pure functions, the sandbox and the client (black box)
//   integration:http  integration-tests/http/**/*.spec.ts: Medusa booted by medusaIntegrationTestRunner
// Pass suite names to run only some: `npm test -- unit`.
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, existsSync, rmSync } from "node:fs"
import { join } from "node:path"

const SUITES = {
  unit: { env: { TEST_TYPE: "unit" }, args: ["--maxWorkers=2"] },
  "integration:http": { env: { TEST_TYPE: "integration:http" }, args: ["--runInBand"] },
}
const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"))
const extra = process.argv.slice(2).filter((a) => a.startsWith("-"))
const names = wanted.length ? wanted : Object.keys(SUITES)
const outDir = join(process.cwd(), ".tmp")
mkdirSync(outDir, { recursive: true })

let passed = 0, failed = 0, skipped = 0, broken = false
for (const name of names) {
  const suite = SUITES[name]
  if (!suite) { console.error(`unknown suite ${name}`); process.exit(2) }
  const out = join(outDir, `jest-${name.replace(/\W/g, "_")}.json`)
  rmSync(out, { force: true })
  console.log(`\n=== ${name} ===`)
  const r = spawnSync(
    process.execPath,
    ["--experimental-vm-modules", "node_modules/jest/bin/jest.js", "--forceExit", "--passWithNoTests", "--json", `--outputFile=${out}`, ...suite.args, ...extra],
    { stdio: "inherit", env: { ...process.env, ...suite.env } },
  )
  if (!existsSync(out)) { broken = true; console.error(`suite ${name} produced no results (exit ${r.status})`); continue }
  const res = JSON.parse(readFileSync(out, "utf8"))
  passed += res.numPassedTests; failed += res.numFailedTests; skipped += res.numPendingTests + res.numTodoTests
  // suites that failed to run (syntax errors, failing hooks) count as failures
  const suiteErrors = res.testResults.filter((t) => t.status === "failed" && t.assertionResults.every((a) => a.status !== "failed")).length
  failed += suiteErrors
  if (r.status !== 0 && res.numFailedTests === 0 && suiteErrors === 0) broken = true
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || broken ? 1 : 0)
