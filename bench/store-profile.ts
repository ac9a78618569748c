/**
 * npx tsx bench/store-profile.ts <file>.cpuprofile [top] — reads a profile `BENCH_STORE_PROF=<file>
 * npm run bench:store` wrote and prints, per cart and part of its measured requests (before the
 * refresh hook, the hook, after it), the app's main-thread CPU per mutation (samples × interval:
 * what another process's load hardly moves), by package and by function (self time). The cart
 * whose hook runs longest on average is the taxed one ("US").
 */
import { readFileSync } from "node:fs"

interface Frame {
  functionName: string
  url: string
  lineNumber: number
}
interface Profile {
  nodes: { id: number; callFrame: Frame }[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  marks: { at: number; what: string; id: string }[]
}
const SAMPLE_MS = 0.1 // the interval store.app.ts sets

const [file, top = "15"] = process.argv.slice(2)
const p = JSON.parse(readFileSync(file!, "utf8")) as Profile
const frame = new Map(p.nodes.map((n) => [n.id, n.callFrame]))
const pkg = (url: string) =>
  !url
    ? "(native)"
    : url.includes("/src/") && !url.includes("node_modules")
      ? "plugin"
      : (/node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? url.split("/").pop()!)
const fn = (f: Frame) =>
  `${f.functionName || "(anonymous)"} ${pkg(f.url) === "plugin" ? f.url.replace(/.*\/src\//, "src/") : pkg(f.url)}:${f.lineNumber + 1}`

// the measured requests: arrival, the refresh hook's start and end (of the same cart), the answer's end
type Window = { cart: string; t0: number; t1?: number; t2?: number; t3?: number }
const windows: Window[] = []
let open: Window | undefined
for (const m of p.marks) {
  if (m.what === "request") open = { cart: m.id, t0: m.at }
  else if (open && m.what === "refresh-hook:start" && m.id === open.cart) open.t1 = m.at
  else if (open && m.what === "refresh-hook:end" && m.id === open.cart) open.t2 = m.at
  else if (open && m.what === "answered") windows.push({ ...open, t3: m.at })
}
const hookMs = new Map<string, number[]>()
for (const w of windows) if (w.t1 !== undefined && w.t2 !== undefined) hookMs.set(w.cart, [...(hookMs.get(w.cart) ?? []), w.t2 - w.t1])
const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
const taxed = [...hookMs].sort((a, b) => meanOf(b[1]) - meanOf(a[1]))[0]?.[0]
const cartName = (c: string) => (hookMs.size ? (c === taxed ? "US" : "CA") : c.slice(-6))
const mutations = new Map<string, number>()
for (const w of windows) mutations.set(cartName(w.cart), (mutations.get(cartName(w.cart)) ?? 0) + 1)

const parts = new Map<string, { total: number; byPkg: Map<string, number>; byFn: Map<string, number> }>()
const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
let t = p.startTime
let k = 0
p.samples.forEach((id, i) => {
  t += p.timeDeltas[i]!
  while (k < windows.length && windows[k]!.t3! < t) k++
  const w = windows[k]
  const f = frame.get(id)!
  if (!w || t < w.t0 || f.functionName === "(idle)") return
  const part = w.t1 === undefined || t < w.t1 ? "before" : w.t2 === undefined || t < w.t2 ? "hook" : "after"
  const key = `${cartName(w.cart)} ${part}`
  const a = parts.get(key) ?? { total: 0, byPkg: new Map(), byFn: new Map() }
  parts.set(key, a)
  a.total++
  add(a.byPkg, pkg(f.url))
  add(a.byFn, fn(f))
})

const per = (n: number, cart: string) => ((n * SAMPLE_MS) / mutations.get(cart)!).toFixed(2).padStart(7)
const best = (m: Map<string, number>, cart: string) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top))
    .map(([name, n]) => `      ${per(n, cart)} ms  ${name}`)
for (const [key, a] of [...parts].sort()) {
  const cart = key.split(" ")[0]!
  console.log(`${key}: ${per(a.total, cart)} ms CPU per mutation (${mutations.get(cart)} mutations)`)
  console.log(["    by package:", ...best(a.byPkg, cart).slice(0, 8), "    by function (self):", ...best(a.byFn, cart)].join("\n"))
}
for (const cart of mutations.keys()) {
  const n = [...parts].filter(([key]) => key.startsWith(`${cart} `)).reduce((s, [, a]) => s + a.total, 0)
  console.log(`${cart} whole request: ${per(n, cart)} ms CPU per mutation`)
}
