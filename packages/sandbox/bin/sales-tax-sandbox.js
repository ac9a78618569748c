#!/usr/bin/env node
"use strict"
// sales-tax-sandbox: runs the compiled CLI (dist/cli.js, produced by `npm run build` in this
// package, and by `npm pack`) when present, else the TypeScript source through tsx (a dev checkout).
// In a checkout whose sources are newer than the build, the sources win (a stale build would
// otherwise silently run old code); set SALES_TAX_SANDBOX_COMPILED=1 to force the build.
const { existsSync, readdirSync, statSync } = require("node:fs")
const { join } = require("node:path")

const root = join(__dirname, "..")
const compiled = join(root, "dist", "cli.js")
const sourceDir = join(root, "src")
const source = join(sourceDir, "cli.ts")

function newestMtime(dir) {
  let newest = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "__tests__" || e.name === "node_modules") continue
    const p = join(dir, e.name)
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p))
    else if (e.name.endsWith(".ts")) newest = Math.max(newest, statSync(p).mtimeMs)
  }
  return newest
}

function useCompiled() {
  if (!existsSync(compiled)) return false
  if (process.env.SALES_TAX_SANDBOX_COMPILED === "1" || !existsSync(source)) return true
  try {
    return statSync(compiled).mtimeMs >= newestMtime(sourceDir)
  } catch {
    return true
  }
}

let cli
if (useCompiled()) {
  cli = require(compiled)
} else {
  try {
    // the package's tsconfig maps @medusa-sales-tax/contract to its sources (no build needed)
    process.env.TSX_TSCONFIG_PATH ??= join(root, "tsconfig.json")
    require("tsx/cjs")
  } catch {
    if (existsSync(compiled)) {
      cli = require(compiled)
    } else {
      process.stderr.write(
        "sales-tax-sandbox: no compiled build (dist/) and tsx is not installed; run `npm run build` in the sandbox package first\n",
      )
      process.exit(1)
    }
  }
  cli ??= require(source)
}
cli.main(process.argv.slice(2))
