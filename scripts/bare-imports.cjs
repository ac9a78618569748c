// The packages a built JavaScript file imports or requires (bare specifiers, Node builtins left
// out): what must be declared by the package shipping it (scripts/pack.test.ts, scripts/compat.mjs).
const { builtinModules } = require("node:module")

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (spec) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0])

/**
 * The statements that load a package: `import … from "x"` / `export … from "x"` (at a line's start:
 * not an SQL `from "order"` in a string), `import "x"`, `import("x")`, `require("x")`.
 */
const LOADS = [
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*["']([@\w][^"'\s]*)["']/gm,
  /^\s*import\s*["']([@\w][^"'\s]*)["']/gm,
  /\b(?:import|require)\(\s*["']([@\w][^"'\s]*)["']\s*\)/g,
]

/** The package names `source` (built JavaScript) imports, requires or re-exports, sorted. */
function bareImports(source) {
  const names = new Set()
  for (const re of LOADS)
    for (const m of source.matchAll(re)) {
      const name = packageOf(m[1])
      if (/^(@[\w.-]+\/)?[\w.-]+$/.test(name) && !m[1].startsWith("node:") && !builtinModules.includes(name)) names.add(name)
    }
  return [...names].sort()
}

module.exports = { bareImports, packageOf }
