/**
 * Installs the plugin from this checkout into the demo store as npm would install the published
 * package: demo/app/node_modules/medusa-sales-tax/ with the package.json and the compiled
 * `.medusa/server/src` that the package's `exports` point at, and beside it the workspace package
 * it depends on at runtime (@medusa-sales-tax/contract: package.json and compiled `dist/`).
 *
 * Why not `medusa plugin:build` + a symlink: that build writes the repository's shared
 * `.medusa/server` (other work in the checkout rebuilds and empties it at any time) and
 * type-checks the whole project (more than a minute on two cores). Here every `src/` file is
 * transpiled with the repository's own compiler options (TypeScript's transpileModule, the same
 * CommonJS output; type errors are the typecheck's and the tests' business), and the admin
 * extensions are bundled by Medusa's own admin bundler (what plugin:build runs) only for --serve.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import ts from "typescript"
import { APP_DIR, REPO_ROOT } from "./medusa"
import { DemoError } from "./ui"

export const INSTALLED_PLUGIN = join(APP_DIR, "node_modules", "medusa-sales-tax")
/** Workspace packages the plugin needs at runtime, installed compiled beside it (packages/<dir>). */
const RUNTIME_PACKAGES = [{ name: "@medusa-sales-tax/contract", dir: "contract" }]

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
  const out = join(installed, ".medusa", "server")
  // an npm-made symlink (npm install in the app) or an earlier install: replace it
  if (existsSync(installed) || isLink(installed)) rmSync(installed, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  cpSync(join(REPO_ROOT, "package.json"), join(installed, "package.json"))

  const options = compilerOptions()
  const files = backendSources()
  const failures = transpileInto(files, REPO_ROOT, out, options)
  // the workspace packages the plugin depends on, as npm would install them: package.json + dist/
  const modules = join(installed, "..")
  for (const pkg of RUNTIME_PACKAGES) {
    const dest = join(modules, ...pkg.name.split("/"))
    if (existsSync(dest) || isLink(dest)) rmSync(dest, { recursive: true, force: true })
    mkdirSync(dest, { recursive: true })
    cpSync(join(REPO_ROOT, "packages", pkg.dir, "package.json"), join(dest, "package.json"))
    const src = join(REPO_ROOT, "packages", pkg.dir, "src")
    failures.push(...transpileInto(backendSources(src), src, join(dest, "dist"), options))
  }
  if (failures.length) {
    throw new DemoError(
      `the plugin's sources do not compile (${failures.length} file(s))`,
      "fix the syntax errors above (npm run typecheck shows them too)",
      undefined,
      failures.slice(0, 8).join("\n"),
    )
  }

  if (opts.admin) {
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
  return { files: files.length, admin: opts.admin }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink()
  } catch {
    return false
  }
}
