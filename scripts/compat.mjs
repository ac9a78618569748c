// `npm run test:compat` (run by tsx): the plugin against each supported Medusa minor, as a store
// installs it. See README "Compatibility".
//
// Per Medusa version (each supported minor's latest patch, SUPPORTED below), and the pnpm leg (PNPM):
//   1. the plugin built once (`medusa plugin:build`, as `npm run build`, in a copy of the package's
//      files; its type-check is `npm run typecheck`'s) and packed (`npm pack`: the one tarball npm
//      would publish; the contract is compiled in); its admin bundle imports only the plugin's
//      dependencies and peers
//   2. a scratch store $TMPDIR/medusa-sales-tax-compat-<version>-<hash of the checkout's path>: what the
//      default app starter lists (@medusajs/medusa, framework, cli, admin-sdk at that version) plus
//      the tarball, `npm install` (npm's cache first; peers such as @medusajs/ui and react as npm
//      resolves them against the plugin's ranges), no peer warning. The pnpm leg: a workspace laid
//      out like medusajs/dtc-starter (pnpm-workspace.yaml, apps/backend with the starter's
//      dependencies, isolated node_modules), pnpm installed from npm, `pnpm add` of the tarball with
//      no peer warning, every bare import of the installed plugin resolved from its own
//      dependencies and peers (never pnpm's hidden hoist), one copy of each Medusa package
//   3. a fresh database on the PostgreSQL of DB_HOST/DB_PORT/DB_USERNAME (127.0.0.1:5432, postgres),
//      the sandbox of the service in this process on an ephemeral port
//   4. `medusa db:migrate` (Medusa's and the plugin's migrations) while `medusa build --admin-only`
//      builds the dashboard with the plugin's extensions; the demo's seed (`medusa exec`); `medusa start`
//   5. the smoke: the boot log holds no error of the plugin's boot check; a checkout quoted by the
//      service and filed (tax charged = tax filed); a return received and refunded at the service; a
//      cancelled order voided (the service answers 404); the built dashboard holds the plugin's
//      widgets and settings pages (the pnpm leg: a whole `medusa build`, backend and admin)
// Flags: --minor 2.19 (repeatable; default: every supported minor and the pnpm leg), --lowest, --highest, --pnpm,
// --version <any published version, e.g. a pre-release>, --legacy-peer-deps (a --version store installed
// past npm's peer refusal, e.g. a minor below the range), --allow-fail (exit 0 whatever the result:
// for pre-releases); --prepare-only (steps 1-2 only, e.g. beside `npm test` in CI) then --prepared
// (steps 3-5 on what it prepared; the same targets); --store-only: step 2 without the plugin (the
// store's Medusa packages installed, needing only node and npm: CI runs it beside `npm ci`, so that
// the later run's `npm install` only adds the plugin's tarballs). Logs: .tmp/compat/<version>/*.log;
// results: .tmp/compat/results.json. COMPAT_TIMEOUT_SECONDS bounds each version's run (default 600).
// --specs (or --spec <path>, repeatable): instead of the smoke, the repository's own checkout,
// exemption, filing and hostile-input specs against a copy at the target's Medusa (default the lowest; runSpecs).
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(fileURLToPath(import.meta.url), "..", "..")
const { bareImports } = createRequire(import.meta.url)("./bare-imports.cjs")
const LOG_ROOT = join(ROOT, ".tmp", "compat")
/** this checkout's scratch directories are its own (two checkouts may run at once) */
const CHECKOUT = createHash("sha256").update(ROOT).digest("hex").slice(0, 8)

/** The supported minors, each with the patch tested (its latest published). Lowest first. */
export const SUPPORTED = [
  { minor: "2.15", version: "2.15.5" },
  { minor: "2.16", version: "2.16.0" },
  { minor: "2.17", version: "2.17.2" },
  { minor: "2.18", version: "2.18.0" },
  { minor: "2.19", version: "2.19.0" },
  { minor: "2.20", version: "2.20.1" },
  { minor: "2.21", version: "2.21.2" },
]

/**
 * The pnpm leg: medusajs/dtc-starter's backend (Medusa 2.18.0, @medusajs/ui 4.2.0, its pnpm) as a
 * pnpm workspace; `key` names its store, logs and results.
 */
export const PNPM = { minor: "2.18", version: "2.18.0", key: "pnpm-2.18.0", pnpm: "10.11.1", ui: "4.2.0", routerDom: "6.30.4" }

/** the repository's TypeScript (the store's `medusa build` needs one) */
const TYPESCRIPT = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies.typescript
const SANDBOX_KEY = "sk_compat_0123456789-SECRET"
const SANDBOX_CONNECTION = "55555555-6666-4777-8888-999999999999"
/** Strings of the plugin's admin extensions that must be in the built dashboard. */
const ADMIN_MARKERS = ["Sales Tax Reconciliation", "sales-tax/filings"]
/** The plugin's boot-check error (src/medusa/boot-check.ts, medusaAssumptionsError). */
const BOOT_CHECK_ERROR = /sales-tax: Medusa \S+ lacks/

function parse(argv) {
  const o = {
    minors: [],
    versions: [],
    pnpm: false,
    prepareOnly: false,
    prepared: false,
    storeOnly: false,
    allowFail: false,
    legacyPeerDeps: false,
    specs: false,
    spec: [],
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === "--minor") o.minors.push(argv[++i])
    else if (a === "--lowest") o.minors.push(SUPPORTED[0].minor)
    else if (a === "--highest") o.minors.push(SUPPORTED.at(-1).minor)
    else if (a === "--version") o.versions.push(argv[++i])
    else if (a === "--pnpm") o.pnpm = true
    else if (a === "--prepare-only") o.prepareOnly = true
    else if (a === "--prepared") o.prepared = true
    else if (a === "--store-only") o.storeOnly = true
    else if (a === "--allow-fail") o.allowFail = true
    else if (a === "--legacy-peer-deps") o.legacyPeerDeps = true
    else if (a === "--specs") o.specs = true
    else if (a === "--spec") o.spec.push(argv[++i])
    else {
      console.error(
        `unknown argument ${a}\nusage: npm run test:compat -- [--minor 2.19]... [--lowest] [--highest] [--version <v>] [--pnpm] [--prepare-only | --prepared | --store-only] [--specs | --spec <path>...] [--legacy-peer-deps] [--allow-fail]`,
      )
      process.exit(2)
    }
  }
  for (const m of o.minors)
    if (!SUPPORTED.some((s) => s.minor === m))
      throw new Error(`--minor ${m}: not a supported minor (${SUPPORTED.map((s) => s.minor).join(", ")})`)
  const targets = [
    ...SUPPORTED.filter((s) => o.minors.includes(s.minor)),
    ...o.versions.map((v) => ({ minor: v.split(".").slice(0, 2).join("."), version: v, legacy: o.legacyPeerDeps })),
    ...(o.pnpm ? [PNPM] : []),
  ].map((t) => ({ key: t.version, ...t }))
  return { ...o, targets: targets.length ? targets : [...SUPPORTED, PNPM].map((t) => ({ key: t.version, ...t })) }
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`

/** A command to its end, output to `log`; throws with the log's tail on a non-zero exit. */
function sh(cmd, args, { cwd = ROOT, log, env = process.env, label = `${cmd} ${args.join(" ")}`, all = false }) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })
  if (log) writeFileSync(log, `$ ${label}\n${r.stdout ?? ""}${r.stderr ?? ""}`)
  if (r.status !== 0) throw new Error(`${label} exited ${r.status}:\n${tailOf(`${r.stdout ?? ""}${r.stderr ?? ""}`)}`)
  return all ? `${r.stdout ?? ""}${r.stderr ?? ""}` : r.stdout
}

function tailOf(text, n = 25) {
  return text
    .split("\n")
    .filter((l) => l.trim() && !/^\s+at /.test(l))
    .slice(-n)
    .join("\n")
}

/** npm pack --json: the tarball's file name (npm prints lifecycle output before the JSON). */
function packed(stdout) {
  return JSON.parse(stdout.slice(stdout.search(/^\[/m)))
}

function pgConfig(database) {
  return {
    host: process.env.DB_HOST || "127.0.0.1",
    port: Number(process.env.DB_PORT || 5432),
    user: process.env.DB_USERNAME || "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database,
  }
}

async function adminSql(sql, params) {
  // imported here: --store-only runs before the repository's node_modules exist (CI, beside npm ci)
  const { default: pg } = await import("pg")
  const c = new pg.Client(pgConfig("postgres"))
  await c.connect()
  try {
    return (await c.query(sql, params)).rows
  } finally {
    await c.end()
  }
}

/**
 * The migrated database of a version, kept as a template (CREATE DATABASE … TEMPLATE) so that a
 * later run of the same Medusa version and the same plugin schema (its migrations and links)
 * copies it instead of running Medusa's ~600 migrations again (about 45 s). Its name hashes them.
 */
function templateName(version) {
  const h = createHash("sha256").update(version)
  const walk = (d) => {
    if (!existsSync(d)) return
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (!/\.test\./.test(e.name)) h.update(`\0${p.slice(ROOT.length)}\0`).update(readFileSync(p))
    }
  }
  for (const m of readdirSync(join(ROOT, "src/modules"))) walk(join(ROOT, "src/modules", m, "migrations"))
  walk(join(ROOT, "src/links"))
  return `${TEMPLATE_PREFIX}${version.replace(/\W/g, "_")}_${h.digest("hex").slice(0, 12)}`
}
const TEMPLATE_PREFIX = "mst_compat_tpl_"

/**
 * The key of a dashboard build: the Medusa version, the plugin's admin sources (src/admin: its
 * bundle is not byte-stable from build to build), package.json, the store's config and tsconfig.
 */
function adminKey(version, app) {
  const h = createHash("sha256").update(process.version)
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name))) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else h.update(`\0${p.slice(ROOT.length)}\0`).update(readFileSync(p))
    }
  }
  walk(join(ROOT, "src/admin"))
  h.update(readFileSync(join(ROOT, "package.json")))
  for (const f of ["medusa-config.js", "dev-store-medusa-config.js", "tsconfig.json"])
    h.update(`\0${f}\0`).update(readFileSync(join(app, f)))
  return `${version}-${h.digest("hex").slice(0, 16)}`
}

function databaseUrl(db) {
  const c = pgConfig(db)
  const auth = c.password ? `${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}` : encodeURIComponent(c.user)
  return `postgres://${auth}@${c.host}:${c.port}/${db}`
}

/** The files of a package build copy: sources without tests. */
const notTest = (src) => !/\.(test|spec)\.tsx?$/.test(src) && !/(^|\/)__tests__(\/|$)/.test(src)

/**
 * Step 1: the plugin built by `medusa plugin:build` (what `npm run build` runs) and packed by
 * `npm pack`, in a copy of the package's own files under `dir` (src/ and the contract's sources
 * without tests, which the build compiles in, package.json, tsconfig.json, README, docs;
 * node_modules linked): the checkout's .medusa/server is left alone, so the run may go beside
 * `npm test`, and tsc compiles only what the package ships.
 */
function buildAndPack(dir) {
  const t = Date.now()
  const work = join(dir, "build")
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  for (const f of ["package.json", "README.md"]) copyFileSync(join(ROOT, f), join(work, f))
  // noCheck: the same emit (compared file by file) without type-checking the project a second
  // time (`npm run typecheck` does; CI runs both)
  const tsconfig = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8"))
  writeFileSync(
    join(work, "tsconfig.json"),
    JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, noCheck: true } }),
  )
  cpSync(join(ROOT, "src"), join(work, "src"), { recursive: true, filter: notTest })
  cpSync(join(ROOT, "docs"), join(work, "docs"), { recursive: true })
  cpSync(join(ROOT, "packages/contract/src"), join(work, "packages/contract/src"), { recursive: true, filter: notTest })
  symlinkSync(join(ROOT, "node_modules"), join(work, "node_modules"), "dir")
  const env = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" }
  // NODE_ENV=production: Medusa's CLI then does not try to load ts-node (package.json "build")
  sh(process.execPath, [join(ROOT, "node_modules/@medusajs/cli/cli.js"), "plugin:build"], {
    cwd: work,
    env: { ...env, NODE_ENV: "production" },
    log: join(LOG_ROOT, "build.log"),
    label: "medusa plugin:build",
  })
  const [plugin] = packed(sh("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { cwd: work, env }))
  console.log(`compat: plugin built and packed: ${seconds(Date.now() - t)}`)
  return { plugin: join(dir, plugin.filename), checks: [adminBundleCheck(work)] }
}

/** The admin bundle plugin:build wrote imports only the plugin's dependencies and peers (each of its two formats). */
function adminBundleCheck(work) {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})])
  const expected = ["@medusajs/admin-sdk", "@medusajs/icons", "@medusajs/ui", "react", "react-router-dom"]
  const problems = ["index.mjs", "index.js"].flatMap((f) => {
    const imports = bareImports(readFileSync(join(work, ".medusa/server/src/admin", f), "utf8"))
    return [
      ...imports.filter((n) => !declared.has(n)).map((n) => `${f} imports ${n}, neither a dependency nor a peer`),
      ...expected.filter((n) => !imports.includes(n)).map((n) => `${f} does not import ${n}`),
    ]
  })
  return {
    what: "the built admin bundle imports only the plugin's dependencies and peers",
    ok: !problems.length,
    detail: problems.join("; "),
  }
}

/** The scratch store of `version` (its node_modules kept from run to run). */
const storeDir = (version) => join(tmpdir(), `medusa-sales-tax-compat-${version}-${CHECKOUT}`)

/**
 * The store's own files beside its package.json: the demo's config (the development stores' one
 * builder, copied so that it loads this store's @medusajs/framework) with the admin on only for its
 * build, a tsconfig and one empty source file (`medusa build` compiles the app's src/ and fails on a
 * tsconfig that matches no file).
 */
function writeStoreFiles(app) {
  copyFileSync(join(ROOT, "dev-store/medusa-config.js"), join(app, "dev-store-medusa-config.js"))
  copyFileSync(join(ROOT, "integration-tests/browser/app/tsconfig.json"), join(app, "tsconfig.json"))
  mkdirSync(join(app, "src"), { recursive: true })
  writeFileSync(join(app, "src/compat-store.ts"), "// the compat store has no code of its own\nexport {}\n")
  writeFileSync(
    join(app, "medusa-config.js"),
    `const { buildMedusaConfig } = require("./dev-store-medusa-config")
module.exports = buildMedusaConfig({
  nodeEnv: "development",
  plugin: "installed",
  salesTax: { origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }, failurePolicy: "block", completionMode: "placed" },
  secret: "compat-secret",
  admin: process.env.COMPAT_ADMIN === "1",
})
`,
  )
}

/** npm's warnings about the plugin in an install's output (an ERESOLVE block or a line naming it). */
function npmPluginWarnings(output) {
  return output
    .split(/(?=^npm warn ERESOLVE)/m)
    .flatMap((block) =>
      block.startsWith("npm warn ERESOLVE")
        ? /medusa-sales-tax/.test(block)
          ? [block.split("\n")[0]]
          : []
        : block.split("\n").filter((l) => /^npm warn/i.test(l) && /medusa-sales-tax/.test(l)),
    )
}

/**
 * Step 2: the scratch store for `version` with the packed plugin installed; `tarballs` null: only
 * the store's own packages (--store-only). Returns the store and the install's complaints.
 */
function installStore(version, tarballs, logDir, forceLegacy = false) {
  const app = storeDir(version)
  mkdirSync(app, { recursive: true })
  // the previous run's plugin is replaced (same version number, new contents); the rest is reused
  for (const d of ["node_modules/medusa-sales-tax", "node_modules/@medusa-sales-tax", "package-lock.json", ".medusa", "public"])
    rmSync(join(app, d), { recursive: true, force: true })
  // a pre-release is not published for every package (2.22.0-snapshot-20260911212358 has no
  // @medusajs/admin-sdk): such a package at its `latest`
  const published = (name) =>
    !version.includes("-") ||
    spawnSync("npm", ["view", `@medusajs/${name}@${version}`, "version"], { encoding: "utf8" }).stdout.trim() === version
  const medusa = (name) => {
    if (published(name)) return [`@medusajs/${name}`, version]
    console.log(`  @medusajs/${name}@${version} is not published: its latest instead`)
    return [`@medusajs/${name}`, "latest"]
  }
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify(
      {
        name: `medusa-sales-tax-compat-${version}`,
        private: true,
        // what medusajs/medusa-starter-default lists (no @medusajs/ui, icons or react-router-dom)
        dependencies: {
          ...Object.fromEntries(["medusa", "framework", "cli", "admin-sdk"].map(medusa)),
          ...(tarballs && { "medusa-sales-tax": `file:${tarballs.plugin}` }),
          // the admin build compiles with it (Medusa's starter has it too)
          typescript: TYPESCRIPT,
        },
      },
      null,
      2,
    ),
  )
  writeStoreFiles(app)
  // a pre-release is outside the plugin's peer ranges (npm's ^2.15.0 matches no x.y.z-tag): npm
  // refuses it with ERESOLVE, so a pre-release (or, asked, any version) is installed with
  // --legacy-peer-deps to see what else breaks
  const legacy = version.includes("-") || forceLegacy ? ["--legacy-peer-deps"] : []
  if (legacy.length) console.log(`  ${version}: installed with --legacy-peer-deps (outside the plugin's peer ranges, or asked)`)
  const out = sh(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", "--no-package-lock", "--loglevel=warn", ...legacy],
    {
      cwd: app,
      log: join(logDir, "npm-install.log"),
      label: `npm install (Medusa ${version})`,
      all: true,
    },
  )
  const installed = JSON.parse(readFileSync(join(app, "node_modules/@medusajs/medusa/package.json"), "utf8")).version
  if (installed !== version) throw new Error(`the store has @medusajs/medusa ${installed}, not ${version}`)
  const warned = npmPluginWarnings(out)
  const what = "npm install: no warning about the plugin (its peers)"
  return { app, installChecks: tarballs && !legacy.length ? [{ what, ok: !warned.length, detail: warned.join("; ") }] : [] }
}

/**
 * pnpm's peer-dependency complaints in an install's output (the part before its "dependencies:"
 * summary): each "✕ …" or "Conflicting peer …" line, or the plugin's node in the tree, without the tree drawing.
 */
function pnpmPeerIssues(output) {
  return new Set(
    output
      .split(/^dependencies:$/m)[0]
      .split("\n")
      .filter((l) => /✕|Conflicting peer|[├└]─\S* medusa-sales-tax /.test(l))
      .map((l) => l.replace(/^[\s│├└─┬]+/, "").trim()),
  )
}

/** `name@version` directories of pnpm's virtual store → { name: [versions] }. */
function pnpmVersions(root) {
  const out = {}
  for (const d of readdirSync(join(root, "node_modules/.pnpm"))) {
    const m = /^(@[^+]+\+[^@]+|[^@+][^@]*)@([^_(]+)/.exec(d)
    if (!m) continue
    const name = m[1].replace("+", "/")
    out[name] = [...new Set([...(out[name] ?? []), m[2]])]
  }
  return out
}

/** The node_modules directory a bare `name` resolves through from `dir` (Node's walk up), or undefined. */
function resolvedThrough(dir, name) {
  for (let d = dir; ; d = join(d, "..")) {
    if (existsSync(join(d, "node_modules", name, "package.json"))) return join(d, "node_modules")
    if (d === join(d, "..")) return undefined
  }
}

/**
 * Step 2 of the pnpm leg: a workspace laid out like medusajs/dtc-starter (its root package.json's
 * packageManager, pnpm-workspace.yaml and .npmrc; apps/backend with the backend's dependencies at
 * the leg's versions), pnpm at the starter's version installed from npm, `pnpm install`, then
 * `pnpm add` of the plugin's tarball in apps/backend (`tarball` null: the workspace only).
 * Returns the backend and the checks of the install.
 */
function installPnpmStore(t, tarball, logDir) {
  const root = storeDir(t.key)
  const app = join(root, "apps/backend")
  mkdirSync(app, { recursive: true })
  // the previous run's plugin and lock go (the same tarball name, new contents)
  for (const d of ["pnpm-lock.yaml", "apps/backend/.medusa", "apps/backend/public"]) rmSync(join(root, d), { recursive: true, force: true })
  const tool = join(tmpdir(), `medusa-sales-tax-compat-pnpm-tool-${t.pnpm}`)
  const pnpmBin = join(tool, "node_modules/pnpm/bin/pnpm.cjs")
  if (!existsSync(pnpmBin)) {
    mkdirSync(tool, { recursive: true })
    sh("npm", ["install", "--prefix", tool, "--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock", `pnpm@${t.pnpm}`], {
      log: join(logDir, "pnpm-tool.log"),
      label: `npm install pnpm@${t.pnpm}`,
    })
  }
  // npm's own settings (npm run sets npm_config_*) are not the store's; CI=true would freeze the lock
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "CI"))
  const pnpm = (args, name, cwd) =>
    sh(process.execPath, [pnpmBin, ...args], { cwd, env, log: join(logDir, `${name}.log`), label: `pnpm ${args.join(" ")}`, all: true })
  const dtc = (name) => [`@medusajs/${name}`, t.version]
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name: "medusa-sales-tax-compat-pnpm", private: true, packageManager: `pnpm@${t.pnpm}` }, null, 2),
  )
  writeFileSync(join(root, "pnpm-workspace.yaml"), `packages:\n  - "apps/**"\n  - "!apps/backend/.medusa/**"\n`)
  writeFileSync(join(root, ".npmrc"), "auto-install-peers=true\n")
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify(
      {
        name: "@compat/backend",
        private: true,
        // medusajs/dtc-starter's apps/backend (no @medusajs/icons among them)
        dependencies: {
          ...Object.fromEntries(
            ["admin-sdk", "admin-shared", "caching", "cli", "dashboard", "draft-order", "framework", "medusa"].map(dtc),
          ),
          "@medusajs/ui": t.ui,
          "@tanstack/react-query": "5.64.2",
          "react-i18next": "13.5.0",
          "react-router-dom": t.routerDom,
          zod: "4.2.0",
        },
        devDependencies: { react: "^18.3.1", "react-dom": "^18.3.1", typescript: TYPESCRIPT, vite: "^5.4.14" },
      },
      null,
      2,
    ),
  )
  writeStoreFiles(app)
  const base = pnpm(["install", "--prefer-offline", "--no-frozen-lockfile"], "pnpm-install", root)
  if (!tarball) return { app, installChecks: [] }
  const add = pnpm(["add", "--prefer-offline", tarball], "pnpm-add", app)
  // the workspace resolved without the starter's lock has complaints of Medusa's own dependencies
  // (e.g. @opentelemetry/* against a newer @opentelemetry/api): the plugin's add must add none
  const before = pnpmPeerIssues(base)
  const added = [...pnpmPeerIssues(add)].filter((l) => !before.has(l))
  const checks = [
    { what: "pnpm add of the plugin's tarball: no peer warning of its own", ok: added.length === 0, detail: added.join("; ") },
  ]
  if (before.size)
    console.log(`  (the workspace's own pnpm install: ${before.size} peer complaints of Medusa's dependencies, pnpm-install.log)`)
  // every bare import of the installed plugin's JavaScript through its own dependencies and peers
  const plugin = realpathSync(join(app, "node_modules/medusa-sales-tax"))
  // pnpm links a package's dependencies and peers beside it: <virtual store>/<plugin@…>/node_modules
  const own = join(plugin, "..")
  const imports = new Set()
  for (const e of readdirSync(join(plugin, ".medusa/server"), { withFileTypes: true, recursive: true }))
    if (e.isFile() && /\.(c|m)?js$/.test(e.name))
      for (const n of bareImports(readFileSync(join(e.parentPath ?? e.path, e.name), "utf8"))) imports.add(n)
  const unresolved = [...imports].filter((n) => resolvedThrough(plugin, n) !== own)
  checks.push({
    what: `the installed plugin's ${imports.size} imported packages resolve through its own dependencies and peers (none through pnpm's hidden hoist)`,
    ok: unresolved.length === 0,
    detail: unresolved.map((n) => `${n}: ${resolvedThrough(plugin, n) ?? "not found"}`).join(", "),
  })
  const versions = pnpmVersions(root)
  const one = [
    "@medusajs/framework",
    "@medusajs/medusa",
    "@medusajs/core-flows",
    "@medusajs/ui",
    "@medusajs/admin-sdk",
    "react",
    "react-dom",
    "react-router-dom",
  ]
  const many = one.filter((n) => (versions[n] ?? []).length !== 1)
  checks.push({
    what: `one copy of ${one.join(", ")} (@medusajs/icons: ${(versions["@medusajs/icons"] ?? []).join(", ")})`,
    ok: many.length === 0,
    detail: many.map((n) => `${n}: ${(versions[n] ?? []).join(", ") || "none"}`).join("; "),
  })
  return { app, installChecks: checks }
}

/** Steps 3-5 for one target (its install's checks first); returns the checks. */
async function smoke(t, { app, installChecks = [] }, logDir, deadline) {
  const { version, key } = t
  // the demo's TypeScript helpers (tsx loads them): the processes, the seed compiler, the scenario
  const { spawnLogged, runLogged, freePort, logTail, shutdown } = await import("../demo/lib/processes.ts")
  const { compileScript } = await import("../demo/lib/compile-script.ts")
  const sc = await import("../demo/lib/scenario.ts")
  const { SalesTaxClient } = await import("../src/service/client/index.ts")
  const { startSandbox } = await import("@medusa-sales-tax/sandbox")
  const left = () => Math.max(5_000, deadline - Date.now())
  const cli = join(app, "node_modules/@medusajs/cli/cli.js")
  const checks = []
  const check = (what, ok, detail) => {
    checks.push({ what, ok: !!ok, detail: ok ? undefined : detail })
    console.log(`  ${ok ? "ok  " : "FAIL"} ${what}${ok || !detail ? "" : `: ${detail}`}`)
  }
  for (const c of installChecks) check(c.what, c.ok, c.detail)

  const db = `medusa_sales_tax_compat_${version.replace(/\W/g, "_")}_${process.pid}`
  const template = process.env.COMPAT_NO_DB_TEMPLATE === "1" ? null : templateName(version)
  const templated = !!template && (await adminSql("SELECT 1 FROM pg_database WHERE datname = $1", [template])).length > 0
  await adminSql(`DROP DATABASE IF EXISTS "${db}"`)
  await adminSql(templated ? `CREATE DATABASE "${db}" TEMPLATE "${template}"` : `CREATE DATABASE "${db}"`)
  const sandbox = await startSandbox({ port: 0, host: "127.0.0.1", apiKey: SANDBOX_KEY, connectionId: SANDBOX_CONNECTION })
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl(db),
    SALES_TAX_BASE_URL: sandbox.url,
    SALES_TAX_API_KEY: SANDBOX_KEY,
    SALES_TAX_CONNECTION_ID: SANDBOX_CONNECTION,
    MEDUSA_DISABLE_TELEMETRY: "true",
    DO_NOT_TRACK: "1",
    // as the demo: neither "production" (HTTPS-only cookies) nor "development" (Vite)
    NODE_ENV: "compat",
    COMPAT_ADMIN: "0",
  }
  delete env.REDIS_URL
  delete env.PORT
  delete env.SALES_TAX_OPTIONS_JSON
  delete env.SALES_TAX_CONNECTIONS_JSON
  let server
  try {
    const step = async (label, fn) => {
      const t = Date.now()
      const r = await fn()
      console.log(`  ${label}: ${seconds(Date.now() - t)}`)
      return r
    }
    const medusa = (args, name, extra = {}) =>
      runLogged(process.execPath, [cli, ...args], {
        cwd: app,
        env: { ...env, ...extra },
        logFile: join(logDir, `${name}.log`),
        timeoutMs: left(),
        label: `medusa ${args.join(" ")} (Medusa ${version})`,
      })
    // the dashboard builds while the database is migrated and seeded (the pnpm leg: the whole app,
    // as a starter's `medusa build`, the dashboard into .medusa/server/public/admin)
    const adminDir = join(app, t.pnpm ? ".medusa/server/public/admin" : ".medusa/admin")
    const adminCache =
      process.env.COMPAT_NO_BUILD_CACHE === "1" ? null : join(tmpdir(), `medusa-sales-tax-compat-admin-${adminKey(key, app)}`)
    const adminBuild = step("admin build", async () => {
      if (adminCache && existsSync(join(adminCache, "index.html"))) {
        // the same Medusa version and the same plugin admin bundle built before on this machine
        cpSync(adminCache, adminDir, { recursive: true })
        return undefined
      }
      const err = await medusa(t.pnpm ? ["build"] : ["build", "--admin-only"], "admin-build", { COMPAT_ADMIN: "1" }).catch((e) => e)
      // `medusa build` may exit 1 after writing the whole build (a type-check of its own): the built index.html decides
      if (!existsSync(join(adminDir, "index.html"))) return err ?? new Error("medusa build --admin-only wrote no index.html")
      if (adminCache) {
        for (const name of readdirSync(tmpdir()))
          if (name.startsWith(`medusa-sales-tax-compat-admin-${key}-`)) rmSync(join(tmpdir(), name), { recursive: true, force: true })
        cpSync(adminDir, `${adminCache}.${process.pid}`, { recursive: true })
        renameSync(`${adminCache}.${process.pid}`, adminCache)
      }
      return undefined
    })
    if (templated) console.log(`  migrations: copied from ${template} (a run of Medusa ${version} and the same plugin migrations)`)
    else {
      await step("migrations", () => medusa(["db:migrate"], "migrate"))
      if (template) {
        // kept for the next run (the same version's older templates dropped)
        const old = await adminSql("SELECT datname FROM pg_database WHERE datname LIKE $1", [
          `${TEMPLATE_PREFIX}${version.replace(/\W/g, "_")}_%`,
        ])
        for (const { datname } of old) await adminSql(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
        await adminSql(`CREATE DATABASE "${template}" TEMPLATE "${db}"`)
      }
    }
    const seedOut = join(logDir, "seed.json")
    rmSync(seedOut, { force: true })
    const seedJs = compileScript(join(ROOT, "demo/app/seed.ts"), join(app, ".compat-seed"))
    await step("seed", () => medusa(["exec", seedJs], "seed", { DEMO_SEED_OUT: seedOut }))
    const seed = JSON.parse(readFileSync(seedOut, "utf8"))
    check("boot, migrations (Medusa's and the plugin's), seed", true)

    const port = await freePort()
    const logFile = join(logDir, "server.log")
    rmSync(logFile, { force: true })
    server = spawnLogged(process.execPath, [cli, "start", "--port", String(port)], {
      cwd: app,
      env,
      logFile,
      label: `medusa start (Medusa ${version})`,
    })
    const url = `http://127.0.0.1:${port}`
    await step("start", async () => {
      while (Date.now() < deadline) {
        if (server.child.exitCode !== null) throw new Error(`medusa start exited ${server.child.exitCode}:\n${logTail(logFile, 30)}`)
        try {
          if ((await fetch(`${url}/health`, { signal: globalThis.AbortSignal.timeout(2000) })).status === 200) return
        } catch {
          /* not up yet */
        }
        await new Promise((r) => setTimeout(r, 500))
      }
      throw new Error(`medusa start: no /health before the deadline:\n${logTail(logFile, 30)}`)
    })

    const service = new SalesTaxClient({ baseUrl: sandbox.url, apiKey: SANDBOX_KEY, connectionId: SANDBOX_CONNECTION })
    const ctx = sc.makeCtx(url, seed, service)
    const filed = (f) => f.state === "filed" || f.state === "completed"

    // a checkout quoted by the service and filed; its lamp returned and refunded
    const sale = await step("checkout (WA)", () => sc.checkout(ctx, sc.PLAN[sc.RETURN_ORDER]))
    await sc.waitForFiling(ctx, sale.orderId, filed, "filed")
    const charged = await sc.chargedOrder(ctx, sale.orderId)
    const atService = await sc.filedOrder(ctx, sale.orderId)
    // the demo's comparison: each Medusa line paired with the service's, TIC and tax to the cent
    const cmp = atService ? sc.compare(ctx, charged, atService, 11010) : null
    check(
      `checkout quoted and filed: tax charged ${charged.taxTotal.toFixed(2)} > 0, filed line by line the same`,
      charged.taxTotal > 0 && cmp?.ok,
      cmp ? cmp.problems.join("; ") : "the service has no such order",
    )
    const lamp = charged.lines.find((l) => l.kind === "item" && l.title === seed.products[sc.RETURN_PRODUCT].title)
    const returnId = await step("return", async () => {
      await sc.fulfilAll(ctx, sale.orderId, charged)
      return sc.returnItems(ctx, sale.orderId, [{ id: lamp.id, quantity: lamp.quantity }])
    })
    const afterReturn = await sc.waitForFiling(
      ctx,
      sale.orderId,
      (f) => (f.refunds ?? []).some((r) => r.source_id === returnId && r.state === "refunded"),
      "refunded",
    )
    const refund = (afterReturn.refunds ?? []).find((r) => r.source_id === returnId)
    check(
      `return refunded at the service: ${Number(refund?.refunded_tax ?? 0).toFixed(2)} tax (the lamp's ${lamp.tax.toFixed(2)})`,
      Math.abs(Number(refund?.refunded_tax ?? NaN) - lamp.tax) < 0.005,
    )

    // a cancelled order voided
    const cancelled = await step("checkout (MN) and cancel", async () => {
      const o = await sc.checkout(ctx, sc.PLAN[sc.CANCEL_ORDER])
      await sc.waitForFiling(ctx, o.orderId, filed, "filed")
      await sc.cancelOrder(ctx, o.orderId)
      return o
    })
    await sc.waitForFiling(ctx, cancelled.orderId, (f) => f.state === "voided", "voided")
    check("cancel voided at the service (it answers 404 for the order)", (await sc.filedOrder(ctx, cancelled.orderId)) === null)

    const bootErrors = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((l) => BOOT_CHECK_ERROR.test(l))
    check("the plugin's boot check found everything it needs", bootErrors.length === 0, bootErrors.join("\n"))

    // the dashboard with the plugin's extensions
    const adminErr = await adminBuild
    const assets = existsSync(adminDir) ? allText(adminDir) : ""
    const missing = ADMIN_MARKERS.filter((m) => !assets.includes(m))
    check(
      "admin build contains the plugin's extensions",
      !adminErr && existsSync(join(adminDir, "index.html")) && missing.length === 0,
      adminErr ? String(adminErr.message ?? adminErr) : `missing: ${missing.join(", ")} (log: ${join(logDir, "admin-build.log")})`,
    )
  } catch (e) {
    check("smoke run", false, String(e?.message ?? e).slice(0, 2000))
  } finally {
    await server?.stop()
    await sandbox.close().catch(() => {})
    await shutdown().catch(() => {})
    await adminSql(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`).catch(() => {})
  }
  return checks
}

/** The JavaScript of a built dashboard, concatenated (to look for the plugin's strings). */
function allText(dir) {
  let out = ""
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && /\.(m?js|html)$/.test(e.name)) out += readFileSync(join(e.parentPath ?? e.path, e.name), "utf8")
  return out
}

const PREPARED = join(LOG_ROOT, "prepared.json")

/** The name of a target in the logs and results. */
const labelOf = (t) => `Medusa ${t.version}${t.pnpm ? ` (pnpm ${t.pnpm}, a workspace like medusajs/dtc-starter)` : ""}`

/** Step 2 for one target (the pnpm leg or an npm store); `tarballs` null: the store only. */
const install = (t, tarballs, logDir) =>
  t.pnpm ? installPnpmStore(t, tarballs?.plugin ?? null, logDir) : installStore(t.version, tarballs, logDir, !!t.legacy)

/** Steps 1-2 for every target: { key: { app, installChecks } } (or the install's error). */
function prepare(targets, packDir) {
  rmSync(packDir, { recursive: true, force: true })
  mkdirSync(packDir, { recursive: true })
  const tarballs = buildAndPack(packDir)
  const stores = {}
  for (const t of targets) {
    const logDir = join(LOG_ROOT, t.key)
    rmSync(logDir, { recursive: true, force: true })
    mkdirSync(logDir, { recursive: true })
    const t0 = Date.now()
    try {
      const store = install(t, tarballs, logDir)
      stores[t.key] = { ...store, installChecks: [...tarballs.checks, ...store.installChecks] }
      console.log(`compat: ${labelOf(t)} installed: ${seconds(Date.now() - t0)}`)
    } catch (e) {
      stores[t.key] = { error: String(e?.message ?? e).slice(0, 2000) }
      console.log(`compat: ${labelOf(t)} install FAILED: ${stores[t.key].error}`)
    }
  }
  return stores
}

/** The repository's own specs run by --specs: checkout (with shopper certificates), checkout-block, filing, hostile input and setup. */
export const SPECS = ["checkout", "checkout-block", "filing", "hostile-input", "setup"].map((s) => `integration-tests/http/${s}.spec.ts`)

/**
 * --specs: the repository's own specs (SPECS) against a scratch copy of the checkout whose
 * @medusajs packages are the target's ($TMPDIR/medusa-sales-tax-specs-<version>-<checkout>: the
 * repository's package.json with those versions, `npm install --legacy-peer-deps`, as the repo's
 * own devDependencies pin 2.21; ajv 8.13.0, which @medusajs/framework 2.15 needs hoisted; its
 * node_modules kept from run to run, the sources copied fresh). Before 2.21 the test runner truncates
 * every table after each test; the specs expect 2.21's restore of the seeded database, so the copy's
 * runner is given `disableAutoTeardown` (testUtilsShim: 2.21's restore). One spec at a
 * time through `npm test`'s runner (the PostgreSQL of DB_HOST, the migrated template per lock).
 */
/**
 * The copy's @medusajs/test-utils (--specs): its runner without the after-each truncation, and
 * with 2.21's isolation instead: the database copied once the suite's beforeAll hooks have seeded
 * it, and put back from that copy before every later test (as 2.21's runner does: the app's
 * connections are ended and reopened by its pool).
 */
function testUtilsShim(dir) {
  return `// generated by scripts/compat.mjs --specs
const real = require(require.resolve("@medusajs/test-utils", { paths: [${JSON.stringify(dir)}] }))
const { Client } = require(require.resolve("@medusajs/framework/pg", { paths: [${JSON.stringify(dir)}] }))
const q = (n) => '"' + n.replace(/"/g, '""') + '"'
async function sql(statements) {
  const c = new Client({ host: process.env.DB_HOST || "localhost", port: Number(process.env.DB_PORT || 5432), user: process.env.DB_USERNAME || "postgres", password: process.env.DB_PASSWORD || undefined, database: "postgres" })
  await c.connect()
  try {
    for (const s of statements) await c.query(s)
  } finally {
    await c.end()
  }
}
const end = (db) => "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + db + "' AND pid <> pg_backend_pid()"
function medusaIntegrationTestRunner(o) {
  return real.medusaIntegrationTestRunner({
    ...o,
    disableAutoTeardown: true,
    testSuite: (opts) => {
      const db = opts.dbConfig.dbName
      const copy = db + "_seeded"
      let copied = false
      beforeEach(async () => {
        if (!copied) {
          await sql(["DROP DATABASE IF EXISTS " + q(copy), end(db), "CREATE DATABASE " + q(copy) + " TEMPLATE " + q(db)])
          copied = true
          return
        }
        await opts.utils?.waitWorkflowExecutions?.().catch(() => undefined)
        await sql(["ALTER DATABASE " + q(db) + " WITH ALLOW_CONNECTIONS false", end(db), "DROP DATABASE " + q(db), "CREATE DATABASE " + q(db) + " TEMPLATE " + q(copy)])
      })
      afterAll(() => sql(["DROP DATABASE IF EXISTS " + q(copy)]))
      return o.testSuite(opts)
    },
  })
}
module.exports = { ...real, medusaIntegrationTestRunner }
`
}

function runSpecs(t, logDir, specs = SPECS) {
  const dir = join(tmpdir(), `medusa-sales-tax-specs-${t.version}-${CHECKOUT}`)
  mkdirSync(dir, { recursive: true })
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"))
  for (const name of Object.keys(pkg.devDependencies))
    if (name.startsWith("@medusajs/") && !["@medusajs/ui", "@medusajs/icons"].includes(name)) pkg.devDependencies[name] = t.version
  pkg.devDependencies.ajv = "8.13.0"
  const manifest = `${JSON.stringify(pkg, null, 2)}\n`
  const fresh =
    !existsSync(join(dir, "node_modules")) ||
    !existsSync(join(dir, "package.json")) ||
    readFileSync(join(dir, "package.json"), "utf8") !== manifest
  // the sources copied fresh (the repository's lock left out: the copy's own names its template)
  const skip = new Set(["node_modules", ".git", ".tmp", ".medusa", "dist", "package.json", "package-lock.json"])
  for (const e of readdirSync(ROOT)) {
    if (skip.has(e)) continue
    rmSync(join(dir, e), { recursive: true, force: true })
    cpSync(join(ROOT, e), join(dir, e), {
      recursive: true,
      filter: (src) => !/(^|\/)(node_modules|dist|\.medusa)(\/|$)/.test(src.slice(ROOT.length)),
    })
  }
  mkdirSync(join(dir, ".compat"), { recursive: true })
  writeFileSync(join(dir, ".compat/test-utils.js"), testUtilsShim(dir))
  writeFileSync(
    join(dir, "jest.config.js"),
    `${readFileSync(join(ROOT, "jest.config.js"), "utf8")}\nmodule.exports.moduleNameMapper["^@medusajs/test-utils$"] = "<rootDir>/.compat/test-utils.js"\n`,
  )
  if (fresh) {
    const t0 = Date.now()
    writeFileSync(join(dir, "package.json"), manifest)
    sh("npm", ["install", "--legacy-peer-deps", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", "--loglevel=warn"], {
      cwd: dir,
      log: join(logDir, "npm-install.log"),
      label: `npm install (the repository at Medusa ${t.version})`,
    })
    console.log(`  npm install: ${seconds(Date.now() - t0)}`)
  }
  const installed = JSON.parse(readFileSync(join(dir, "node_modules/@medusajs/medusa/package.json"), "utf8")).version
  const checks = [{ what: `the copy's @medusajs/medusa is ${t.version}`, ok: installed === t.version, detail: installed }]
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))), MST_KEEP_TEMPLATES: "1" }
  for (const spec of checks[0].ok ? specs : []) {
    const t0 = Date.now()
    const r = spawnSync(process.execPath, ["scripts/run-tests.mjs", "integration:http", spec], {
      cwd: dir,
      env,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    })
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`
    writeFileSync(join(logDir, `${spec.split("/").pop()}.log`), out)
    // jest's own count ("Tests: 1 failed, 3 passed, 4 total"): the runner's closing line says 0 when
    // it could not read jest's JSON results (e.g. a failure whose error jest cannot serialize)
    const lines = out.split("\n").reverse()
    const jestLine = lines.find((l) => /^Tests:.* total/.test(l))
    const count = (what) => Number(new RegExp(`(\\d+) ${what}`).exec(jestLine)?.[1] ?? 0)
    const summary = jestLine
      ? [
          `${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped`,
          count("passed"),
          count("failed"),
          count("skipped"),
        ]
      : /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(lines.find((l) => /passed, \d+ failed/.test(l)) ?? "")
    const ok = r.status === 0 && !!summary && Number(summary[2]) === 0 && Number(summary[3]) === 0
    const fails = [...out.matchAll(/^\s+✕ (.+)$/gm)].map((m) => m[1].slice(0, 160))
    checks.push({
      what: `${spec}: ${summary?.[0] ?? "no summary"} (${seconds(Date.now() - t0)})`,
      ok,
      detail: fails.join("; ") || tailOf(out, 8),
    })
    console.log(`  ${ok ? "ok  " : "FAIL"} ${checks.at(-1).what}${ok ? "" : `: ${checks.at(-1).detail}`}`)
  }
  return checks
}

async function main() {
  const o = parse(process.argv.slice(2))
  mkdirSync(LOG_ROOT, { recursive: true })
  // outside the checkout: jest and eslint must not see the build copy's package.json and sources
  const packDir = join(tmpdir(), `medusa-sales-tax-compat-pack-${CHECKOUT}`)
  const started = Date.now()
  if (o.storeOnly) {
    for (const t of o.targets) {
      const logDir = join(LOG_ROOT, t.key)
      mkdirSync(logDir, { recursive: true })
      install(t, null, logDir)
      console.log(`compat: ${labelOf(t)}'s store installed (without the plugin): ${seconds(Date.now() - started)}`)
    }
    return
  }
  if (o.specs || o.spec.length) return mainSpecs(o, started)
  let stores
  if (o.prepared) {
    if (!existsSync(PREPARED)) throw new Error(`--prepared: no ${PREPARED} (run with --prepare-only first)`)
    stores = JSON.parse(readFileSync(PREPARED, "utf8"))
  } else {
    rmSync(PREPARED, { force: true })
    stores = prepare(o.targets, packDir)
  }
  if (o.prepareOnly) {
    writeFileSync(PREPARED, JSON.stringify(stores, null, 2))
    console.log(`compat: prepared in ${seconds(Date.now() - started)} (${PREPARED})`)
    return
  }
  rmSync(PREPARED, { force: true })
  const results = []
  for (const t of o.targets) {
    const start = Date.now()
    const logDir = join(LOG_ROOT, t.key)
    mkdirSync(logDir, { recursive: true })
    console.log(`compat: ${labelOf(t)}`)
    const timeoutMs = Number(process.env.COMPAT_TIMEOUT_SECONDS || 600) * 1000
    const store = stores[t.key] ?? {
      error: `not prepared (the --prepare-only run had ${Object.keys(stores).join(", ") || "no version"})`,
    }
    let checks
    if (store.error) {
      console.log(`  FAIL install: ${store.error}`)
      checks = [{ what: "install", ok: false, detail: store.error }]
    } else checks = await smoke(t, store, logDir, start + timeoutMs)
    const ok = checks.every((c) => c.ok)
    results.push({
      minor: t.minor,
      version: t.version,
      installer: t.pnpm ? `pnpm ${t.pnpm}` : "npm",
      result: ok ? "pass" : "fail",
      date: new Date().toISOString().slice(0, 10),
      seconds: Math.round((Date.now() - start) / 1000),
      checks,
    })
    console.log(`compat: ${labelOf(t)} ${ok ? "PASS" : "FAIL"} in ${seconds(Date.now() - start)} (logs: ${logDir})`)
  }
  writeFileSync(join(LOG_ROOT, "results.json"), JSON.stringify(results, null, 2))
  console.log(`\n| Medusa minor | Patch tested | Installer | Result | Date |\n|---|---|---|---|---|`)
  for (const r of results) console.log(`| ${r.minor} | ${r.version} | ${r.installer} | ${r.result} | ${r.date} |`)
  console.log(`compat: ${seconds(Date.now() - started)} in all`)
  const failed = results.filter((r) => r.result !== "pass")
  process.exitCode = failed.length && !o.allowFail ? 1 : 0
}

/** --specs on each target (default: the lowest minor): results in .tmp/compat/specs-results.json. */
function mainSpecs(o, started) {
  const targets = o.minors.length || o.versions.length ? o.targets.filter((t) => !t.pnpm) : [{ ...SUPPORTED[0], key: SUPPORTED[0].version }]
  const results = targets.map((t) => {
    const logDir = join(LOG_ROOT, `specs-${t.key}`)
    mkdirSync(logDir, { recursive: true })
    console.log(`compat: the repository's specs on Medusa ${t.version}`)
    const checks = runSpecs(t, logDir, o.spec.length ? o.spec : SPECS)
    return {
      minor: t.minor,
      version: t.version,
      result: checks.every((c) => c.ok) ? "pass" : "fail",
      date: new Date().toISOString().slice(0, 10),
      checks,
    }
  })
  writeFileSync(join(LOG_ROOT, "specs-results.json"), JSON.stringify(results, null, 2))
  console.log(`compat: ${seconds(Date.now() - started)} in all`)
  process.exitCode = results.some((r) => r.result !== "pass") && !o.allowFail ? 1 : 0
}

main().catch((e) => {
  console.error(e?.stack ?? e)
  process.exitCode = 1
})
