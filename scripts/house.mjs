// The house measured from the code's own imports (TypeScript's parser): src's non-test lines, the
// checkout and filing paths' import closures, the folders' import graph against the README's layers
// (discovery folders on top, then the wings, the service, the boundary and the shared leaves), its
// circles, and the house rules' breaks. `npm run house` prints it; `-- --mermaid` writes docs/house.md.
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import ts from "typescript"

const ROOT = join(dirname(new URL(import.meta.url).pathname), "..")
// README "Where things are": the discovery folders register; src/modules (the data models) sits with the wings
const DISCOVERY = ["api", "subscribers", "jobs", "workflows", "providers", "admin", "scripts"]
const LEAVES = ["medusa", "core", "money", "runtime.ts", "options.ts", "constants.ts", "query.ts"]
const TIERS = ["discovery folders", "wings", "service", "boundary and shared leaves"]
const tierOf = (f) => (DISCOVERY.includes(f) ? 0 : f === "service" ? 2 : LEAVES.includes(f) ? 3 : 1)
const PATHS = {
  checkout: (f) => f.startsWith("src/providers/") || f === "src/checkout/quote/provider.ts",
  filing: (f) => f.startsWith("src/subscribers/") || f.startsWith("src/filing/events/"),
}

const isTest = (f) => /\.test\.tsx?$/.test(f) || f.includes("/__tests__/") || /\.(md|json)$/.test(f)
const files = execFileSync("git", ["ls-files", "src"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((f) => f && !isTest(f) && existsSync(join(ROOT, f)))
const text = new Map(files.map((f) => [f, readFileSync(join(ROOT, f), "utf8")]))
const code = files.filter((f) => /\.(ts|tsx|js|mjs|cjs)$/.test(f))
const lines = (f) => (text.get(f).match(/\n/g) ?? []).length
/** `src/checkout/quote/x.ts` → `checkout`; a file at src's root is its own folder. */
const top = (f) => f.split("/")[1]

/** The src file a relative specifier names, if any. */
function resolve(from, spec) {
  if (!spec.startsWith(".")) return undefined
  const base = join(dirname(from), spec)
  const tries = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx", "/index.js"].map((x) => base + x)
  return tries.find((t) => text.has(t) && code.includes(t))
}
const imports = new Map()
for (const f of code) {
  const specs = ts.preProcessFile(text.get(f), true, true).importedFiles
  imports.set(f, [...new Set(specs.map((i) => resolve(f, i.fileName)).filter(Boolean))])
}

/** Every file `starts` reach through imports. */
function closure(starts) {
  const seen = new Set(starts)
  for (const f of seen) for (const g of imports.get(f) ?? []) seen.add(g)
  return [...seen]
}

// the folders' graph: an arrow per pair of top folders, weighted by its file imports
const edges = new Map()
for (const [f, gs] of imports)
  for (const g of gs)
    if (top(f) !== top(g)) {
      const k = `${top(f)}>${top(g)}`
      edges.set(k, [...(edges.get(k) ?? []), `${f} → ${g}`])
    }
const folders = [...new Set(files.map(top))]
const weight = (a, b) => edges.get(`${a}>${b}`)?.length ?? 0

/** Within a tier, the order from the graph (Eades–Lin–Smyth): sinks to the bottom, sources to the top, else the most-importing first. */
function order(nodes) {
  const left = new Set(nodes)
  const head = []
  const tail = []
  const w = (n, dir) => [...left].reduce((s, m) => s + (m === n ? 0 : dir === "out" ? weight(n, m) : weight(m, n)), 0)
  while (left.size) {
    const sink = [...left].find((n) => !w(n, "out"))
    const next =
      sink ?? [...left].find((n) => !w(n, "in")) ?? [...left].sort((a, b) => w(b, "out") - w(b, "in") - (w(a, "out") - w(a, "in")))[0]
    if (sink) tail.unshift(sink)
    else head.push(next)
    left.delete(next)
  }
  return [...head, ...tail]
}
const layered = TIERS.flatMap((_, t) => order(folders.filter((f) => tierOf(f) === t).sort()))
const rank = new Map(layered.map((f, i) => [f, i]))
const against = [...edges.keys()].filter((k) => {
  const [a, b] = k.split(">")
  return rank.get(a) > rank.get(b)
})

// import circles between folders: the folders that reach each other
const reach = new Map(
  folders.map((a) => {
    const seen = new Set([a])
    for (const x of seen) for (const y of folders) if (weight(x, y)) seen.add(y)
    return [a, seen]
  }),
)
const cs = [
  ...new Set(
    folders.map((a) =>
      folders
        .filter((b) => reach.get(a).has(b) && reach.get(b).has(a))
        .sort()
        .join(", "),
    ),
  ),
].filter((c) => c.includes(","))

function statements(f) {
  return ts.createSourceFile(f, text.get(f), ts.ScriptTarget.Latest, false, f.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
    .statements
}
const reExportOnly = code.filter((f) => {
  const s = statements(f)
  return s.some(ts.isExportDeclaration) && s.every((x) => ts.isExportDeclaration(x) || ts.isImportDeclaration(x))
})
// a top-level `let`, or an empty Map or Set made at load (one made from a list is a lookup table)
const isLet = (v) => Boolean(v.declarationList.flags & ts.NodeFlags.Let)
const emptyNew = (e) => e && ts.isNewExpression(e) && !e.arguments?.length && /^(Weak)?(Map|Set)$/.test(e.expression.text ?? "")
const mutable = code
  .filter((f) => f !== "src/runtime.ts")
  .flatMap((f) =>
    statements(f)
      .filter(ts.isVariableStatement)
      .flatMap((v) =>
        v.declarationList.declarations.filter((d) => isLet(v) || emptyNew(d.initializer)).map((d) => `${f}: ${d.name.text ?? "{…}"}`),
      ),
  )
const longHeaders = code
  .map((f) => {
    const c = ts.getLeadingCommentRanges(text.get(f), 0) ?? []
    return [f, c.length ? (text.get(f).slice(c[0].pos, c.at(-1).end).match(/\n/g) ?? []).length + 1 : 0]
  })
  .filter(([, n]) => n > 10)
const from = (a, b) => [...edges].filter(([k]) => a(k.split(">")[0]) && b(k.split(">")[1])).flatMap(([, v]) => v)

// the sheet
const out = []
const perTop = Object.fromEntries(folders.map((t) => [t, files.filter((f) => top(f) === t).reduce((s, f) => s + lines(f), 0)]))
const total = Object.values(perTop).reduce((a, b) => a + b, 0)
out.push(`src non-test lines: ${total} in ${files.length} files`)
const byLines = Object.entries(perTop).sort((a, b) => b[1] - a[1])
out.push(`  ${byLines.map(([t, n]) => `${t} ${n}`).join(", ")}`)
for (const [name, starts] of Object.entries(PATHS)) {
  const c = closure(code.filter(starts))
  const tops = [...new Set(c.map(top))].sort()
  out.push(`${name} path: ${c.length} files, ${new Set(c.map(dirname)).size} folders (${tops.join(", ")})`)
}
out.push(`layers, top to bottom: ${TIERS.map((t, i) => `${t}: ${layered.filter((f) => tierOf(f) === i).join(" ")}`).join(" | ")}`)
out.push(`folder imports: ${edges.size} arrows (${[...edges.values()].flat().length} file imports); against the layers: ${against.length}`)
for (const k of against) out.push(`  ${k.replace(">", " → ")} (${edges.get(k).length}): ${edges.get(k).join("; ")}`)
out.push(`import circles between folders: ${cs.length}${cs.map((c) => `\n  ${c.split(", ").length} folders: ${c}`).join("")}`)
const list = (title, xs) => out.push(`${title}: ${xs.length}${xs.map((x) => `\n  ${x}`).join("")}`)
const wing = (f) => tierOf(f) === 1
list(
  "wing → discovery-folder imports",
  from(wing, (f) => tierOf(f) === 0),
)
list(
  "src/medusa → wing imports",
  from((f) => f === "medusa", wing),
)
list("re-export-only files", reExportOnly)
list("module-level mutable state (outside src/runtime.ts)", mutable)
list(
  "file headers over 10 lines",
  longHeaders.map(([f, n]) => `${f} (${n})`),
)
const sheet = out.join("\n")
console.log(sheet)

if (process.argv.includes("--mermaid")) {
  const id = (f) => f.replace(/[^A-Za-z0-9]/g, "_")
  const g = ["flowchart TB"]
  TIERS.forEach((t, i) => {
    g.push(`  subgraph T${i}["${t}"]`)
    for (const f of layered.filter((x) => tierOf(x) === i)) g.push(`    ${id(f)}["${f} · ${perTop[f]}"]`)
    g.push("  end")
  })
  const arrows = [...edges.keys()]
  arrows.forEach((k) => g.push(`  ${id(k.split(">")[0])} -->|${edges.get(k).length}| ${id(k.split(">")[1])}`))
  const red = arrows.map((k, i) => (against.includes(k) ? i : -1)).filter((i) => i >= 0)
  if (red.length) g.push(`  linkStyle ${red.join(",")} stroke:#d33,stroke-width:2px`)
  const md = [
    "# The house",
    "",
    "src's folders (non-test lines) in the README's layers; an arrow is a folder's imports of another",
    "(file imports on it), red where it runs against the layers. Made by `npm run house -- --mermaid`",
    "(scripts/house.mjs) from the code's own imports: run it again after a change.",
    "",
    "```mermaid",
    ...g,
    "```",
    "",
    "```text",
    sheet,
    "```",
    "",
  ].join("\n")
  writeFileSync(join(ROOT, "docs/house.md"), md)
  console.log(`\nwrote ${relative(process.cwd(), join(ROOT, "docs/house.md"))}`)
}
