// One migrated database that every Medusa spec's database is cloned from (CREATE DATABASE … TEMPLATE),
// instead of each spec running Medusa's ~600 migrations itself (about 12 s of a spec's boot).
//
// - `npm test` builds it once per content (scripts/run-tests.mjs → integration-tests/template/build.spec.ts,
//   beside the unit suite) under a name that hashes what the schema depends on: the lock file (the
//   Medusa set), the root medusa-config.ts and the plugin's models, migrations and links. A change to
//   any of them builds a new one; templates of other hashes are dropped when a new one is built.
// - integration-tests/setup.js makes @medusajs/test-utils create each spec's database from it when
//   MEDUSA_SPEC_DB_TEMPLATE names it; where it is missing the runner migrates as before.
const { createHash } = require("node:crypto")
const { existsSync, readFileSync, readdirSync, statSync } = require("node:fs")
const { join, relative } = require("node:path")

const ROOT = join(__dirname, "..")
const PREFIX = "mst_tpl_"

function files(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name)
      return statSync(p).isDirectory() ? files(p) : [p]
    })
}

/** The template's name: a hash of everything Medusa's migrations and link sync read. */
function templateName(root = ROOT) {
  const h = createHash("sha256")
  const inputs = [
    join(root, "package-lock.json"),
    join(root, "medusa-config.ts"),
    ...files(join(root, "src", "modules")).filter((p) => /[/\\](migrations|models)[/\\]|[/\\]index\.ts$/.test(p)),
    ...files(join(root, "src", "links")),
  ]
  for (const p of inputs) {
    if (!existsSync(p)) continue
    h.update(relative(root, p))
    h.update("\0")
    h.update(readFileSync(p))
    h.update("\0")
  }
  return PREFIX + h.digest("hex").slice(0, 16)
}

module.exports = { templateName, TEMPLATE_PREFIX: PREFIX }
