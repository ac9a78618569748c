#!/usr/bin/env node
"use strict"
// sales-tax-sandbox: runs the compiled CLI (.medusa/server/src/sandbox/cli.js, produced by
// `medusa plugin:build`) when present, else the TypeScript source through tsx (a dev checkout).
const { existsSync } = require("node:fs")
const { join } = require("node:path")

const root = join(__dirname, "..")
const compiled = join(root, ".medusa", "server", "src", "sandbox", "cli.js")

let cli
if (existsSync(compiled)) {
  cli = require(compiled)
} else {
  try {
    require("tsx/cjs")
  } catch {
    process.stderr.write("sales-tax-sandbox: no compiled build (.medusa/server) and tsx is not installed; run `npm run build` first\n")
    process.exit(1)
  }
  cli = require(join(root, "src", "sandbox", "cli.ts"))
}
cli.main(process.argv.slice(2))
