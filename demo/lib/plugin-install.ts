/**
 * Installs the plugin from this checkout into the demo store as npm would install the published
 * package: demo/app/node_modules/medusa-sales-tax/ with the package.json and the compiled
 * `.medusa/server/src` that the package's `exports` point at, and the workspace package it carries
 * compiled in (@medusa-sales-tax/contract's sources, at `.medusa/server/packages/contract/src` as
 * plugin:build writes them).
 *
 * Why not `medusa plugin:build` + a symlink: that build writes the repository's shared
 * `.medusa/server` (other work in the checkout rebuilds and empties it at any time) and
 * type-checks the whole project (more than a minute on two cores). Here every `src/` file is
 * transpiled with the repository's own compiler options (TypeScript's transpileModule, the same
 * CommonJS output; type errors are the typecheck's and the tests' business), and the admin
 * extensions are bundled by Medusa's own admin bundler (what plugin:build runs) only for --serve.
 */
import { createHash } from "node:crypto"
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import ts from "typescript"
import { APP_DIR, REPO_ROOT } from "./medusa"
import { DemoError } from "./ui"

export const INSTALLED_PLUGIN = join(APP_DIR, "node_modules", "medusa-sales-tax")
/** Workspace packages the plugin carries compiled in (packages/<dir>/src, imported by path). */
const RUNTIME_PACKAGES = [{ dir: "contract" }]

/** Source files of the backend: src/** without tests and without the admin (bundled separately). */
function backendSources(root = join(REPO_ROOT, "src")): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) {
        if (e.name === "__tests__" || e.name === "node_modules" || p === join(REPO_ROOT, "src", "admin")) continue
        walk(p)
      } else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) {
        out.push(p)
      }
    }
  }
  walk(root)
  return out
}

/** Transpiles `files` (under `fromDir`) to `toDir`, same relative paths, `.js`; returns the failures. */
function transpileInto(files: string[], fromDir: string, toDir: string, options: ts.CompilerOptions): string[] {
  const failures: string[] = []
  for (const file of files) {
    const rel = relative(fromDir, file)
    const r = ts.transpileModule(readFileSync(file, "utf8"), { compilerOptions: options, fileName: file, reportDiagnostics: true })
    const syntax = (r.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error)
    if (syntax.length) failures.push(`${relative(REPO_ROOT, file)}: ${ts.flattenDiagnosticMessageText(syntax[0].messageText, " ")}`)
    const target = join(toDir, rel.replace(/\.tsx?$/, ".js"))
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, r.outputText)
  }
  return failures
}

function compilerOptions(): ts.CompilerOptions {
  const file = join(REPO_ROOT, "tsconfig.json")
  const parsed = ts.getParsedCommandLineOfConfigFile(
    file,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new DemoError(`tsconfig.json cannot be read: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)
      },
    },
  )
  if (!parsed) throw new DemoError("tsconfig.json cannot be read")
  return { ...parsed.options, noEmit: false, declaration: false, sourceMap: false, inlineSourceMap: true, inlineSources: false }
}

export interface InstallResult {
  files: number
  admin: boolean
}

/**
 * `appDir` (default demo/app) is the Medusa app to install into: the browser test installs into
 * its own app the same way.
 */
export async function installPlugin(opts: { admin: boolean; appDir?: string }): Promise<InstallResult> {
  const installed = opts.appDir ? join(opts.appDir, "node_modules", "medusa-sales-tax") : INSTALLED_PLUGIN
  // One install at a time per app (the demo and the cluster test may run at once in CI, both in
  // demo/app), and none at all when the install in place was made from these very sources: the
  // second of two runs of one commit reuses the first's instead of rewriting files the first one's
  // Medusa may be loading.
  const release = await lock(`${installed}.lock`)
  try {
    const key = installKey(opts.admin)
    const keyFile = join(installed, KEY_FILE)
    if (existsSync(keyFile) && readFileSync(keyFile, "utf8") === key) return { files: backendSources().length, admin: opts.admin }
    const r = await install(installed, opts.admin)
    // written last: an install cut short has no key and is made again
    writeFileSync(keyFile, key)
    return r
  } finally {
    release()
  }
}

/** Marks an install with the key of what it was made from (installKey). */
const KEY_FILE = ".install-key"

/**
 * SHA-256 of what an install is made from: the plugin's src/ (the admin too: its bundle), the
 * contract's sources, package.json, tsconfig.json, package-lock.json (the compiler and the admin
 * bundler), this file, and whether the admin extensions were bundled.
 */
function installKey(admin: boolean): string {
  const h = createHash("sha256").update(`admin=${admin}\0`)
  const walk = (p: string): void => {
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort()) if (name !== "node_modules") walk(join(p, name))
    } else h.update(`\0${relative(REPO_ROOT, p)}\0`).update(readFileSync(p))
  }
  for (const input of ["src", "package.json", "tsconfig.json", "package-lock.json", "demo/lib/plugin-install.ts"])
    if (existsSync(join(REPO_ROOT, input))) walk(join(REPO_ROOT, input))
  for (const pkg of RUNTIME_PACKAGES) {
    walk(join(REPO_ROOT, "packages", pkg.dir, "package.json"))
    walk(join(REPO_ROOT, "packages", pkg.dir, "src"))
  }
  return h.digest("hex")
}

/**
 * An exclusive lock: a directory made with mkdir (atomic); waits while another process holds it. A
 * lock older than 10 min is a killed run's and is taken over (an install takes seconds).
 */
async function lock(dir: string): Promise<() => void> {
  mkdirSync(dirname(dir), { recursive: true })
  for (;;) {
    try {
      mkdirSync(dir)
      return () => rmSync(dir, { recursive: true, force: true })
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      try {
        if (Date.now() - statSync(dir).mtimeMs > 10 * 60_000) rmSync(dir, { recursive: true, force: true })
      } catch {
        // released meanwhile
      }
      await new Promise((r) => setTimeout(r, 200))
    }
  }
}

async function install(installed: string, admin: boolean): Promise<InstallResult> {
  const out = join(installed, ".medusa", "server")
  // an npm-made symlink (npm install in the app) or an earlier install: replace it
  if (existsSync(installed) || isLink(installed)) rmSync(installed, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  cpSync(join(REPO_ROOT, "package.json"), join(installed, "package.json"))

  const options = compilerOptions()
  const files = backendSources()
  const failures = transpileInto(files, REPO_ROOT, out, options)
  // the workspace packages the plugin carries, where plugin:build (tsc, rootDir ./) writes them
  for (const pkg of RUNTIME_PACKAGES) {
    const src = join(REPO_ROOT, "packages", pkg.dir, "src")
    failures.push(...transpileInto(backendSources(src), src, join(out, "packages", pkg.dir, "src"), options))
  }
  if (failures.length) {
    throw new DemoError(
      `the plugin's sources do not compile (${failures.length} file(s))`,
      "fix the syntax errors above (npm run typecheck shows them too)",
      undefined,
      failures.slice(0, 8).join("\n"),
    )
  }

  if (admin) {
    const bundler = await import("@medusajs/admin-bundler")
    const env = process.env.NODE_ENV
    try {
      await bundler.plugin({ root: REPO_ROOT, outDir: out })
    } catch (e) {
      throw new DemoError(
        `the plugin's admin extensions did not bundle: ${(e as Error).message}`,
        "fix src/admin (the admin bundler's message is above)",
      )
    } finally {
      if (env === undefined) delete process.env.NODE_ENV
      else process.env.NODE_ENV = env
    }
  }
  return { files: files.length, admin }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink()
  } catch {
    return false
  }
}
