/**
 * The full Medusa-level lifecycle property (`npm run soak` runs it after bench/soak.ts): the
 * lifecycle spec with LIFECYCLE_ORDERS orders (default 100) through `npm test`'s provisioning
 * (PostgreSQL, Redis), every event delivered twice, ~10 % injected service faults, the sweep at the
 * end; it fails unless net filed = net charged per line and no write is duplicated.
 *   npx tsx bench/lifecycle-soak.ts [--orders N] [--seed S]
 */
import { spawn } from "node:child_process"

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt
}
const orders = arg("orders", process.env.LIFECYCLE_ORDERS ?? "100")
const seed = arg("seed", process.env.LIFECYCLE_SEED ?? "388")
const started = Date.now()
console.log(`[lifecycle-soak] ${orders} orders, seed ${seed}`)
// only the property runs (-t property): `npm test` counts the spec's other tests as skipped and exits 1
// for that, so the verdict is the property's own line in jest's report ("✓ property: …"), with no failure
const child = spawn(
  process.execPath,
  ["scripts/run-tests.mjs", "integration:http", "integration-tests/http/filing.spec.ts", "-t", "lifecycle property"],
  { stdio: ["inherit", "pipe", "pipe"], env: { ...process.env, LIFECYCLE_ORDERS: orders, LIFECYCLE_SEED: seed } },
)
let passedLine = false
let failedLine = false
const tails = new Map<NodeJS.WriteStream, string>()
const scan = (chunk: Buffer, out: NodeJS.WriteStream) => {
  out.write(chunk)
  const text = (tails.get(out) ?? "") + chunk.toString() // a line split across two chunks still matches
  tails.set(out, text.slice(-400))
  if (/✓ property: \d+ random lifecycles/.test(text)) passedLine = true
  if (/✕ property:|Tests:.*\d+ failed/.test(text)) failedLine = true
}
child.stdout!.on("data", (c: Buffer) => scan(c, process.stdout))
child.stderr!.on("data", (c: Buffer) => scan(c, process.stderr))
child.on("exit", () => {
  const ok = passedLine && !failedLine
  console.log(`[lifecycle-soak] ${ok ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`)
  process.exit(ok ? 0 : 1)
})
