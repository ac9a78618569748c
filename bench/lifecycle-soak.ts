/**
 * The full Medusa-level lifecycle property (`npm run soak` runs it after bench/soak.ts): the
 * lifecycle spec with LIFECYCLE_ORDERS orders (default 100) through `npm test`'s provisioning
 * (PostgreSQL, Redis), every event delivered twice, ~10 % injected service faults, the sweep at the
 * end; it fails unless net filed = net charged per line and no write is duplicated.
 *   npx tsx bench/lifecycle-soak.ts [--orders N] [--seed S]
 */
import { spawnSync } from "node:child_process"

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt
}
const orders = arg("orders", process.env.LIFECYCLE_ORDERS ?? "100")
const seed = arg("seed", process.env.LIFECYCLE_SEED ?? "388")
const started = Date.now()
console.log(`[lifecycle-soak] ${orders} orders, seed ${seed}`)
const r = spawnSync(
  process.execPath,
  ["scripts/run-tests.mjs", "integration:http", "integration-tests/http/lifecycle.spec.ts", "-t", "property"],
  { stdio: "inherit", env: { ...process.env, LIFECYCLE_ORDERS: orders, LIFECYCLE_SEED: seed } },
)
console.log(`[lifecycle-soak] ${r.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`)
process.exit(r.status ?? 1)
