/**
 * Compiles a TypeScript script for `medusa exec` (which runs plain JavaScript: the CLI has no
 * TypeScript loader): the entry and every file it imports by a relative path, recursively, each
 * transpiled to CommonJS under `outDir` at its path relative to the repository, so that the
 * relative imports still resolve (the demo's and the browser test's seeds import the shared
 * dev-store/seed.ts). Packages (`@medusajs/...`) resolve from the repository's node_modules.
 * Type errors are `npm run typecheck`'s business; returns the compiled entry's path.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"

const REPO_ROOT = join(__dirname, "..", "..")

function sourceOf(spec: string, from: string): string {
  const base = resolve(dirname(from), spec)
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")])
    if (candidate.endsWith(".ts") && existsSync(candidate)) return candidate
  throw new Error(`${relative(REPO_ROOT, from)} imports ${spec}: no such TypeScript file`)
}

export function compileScript(entry: string, outDir: string): string {
  rmSync(outDir, { recursive: true, force: true })
  const done = new Set<string>()
  const todo = [entry]
  while (todo.length) {
    const file = todo.pop()!
    if (done.has(file)) continue
    done.add(file)
    const text = readFileSync(file, "utf8")
    for (const ref of ts.preProcessFile(text, true, true).importedFiles)
      if (ref.fileName.startsWith(".")) todo.push(sourceOf(ref.fileName, file))
    const r = ts.transpileModule(text, {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.Node16,
        moduleResolution: ts.ModuleResolutionKind.Node16,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        inlineSourceMap: true,
      },
    })
    const target = join(outDir, relative(REPO_ROOT, file).replace(/\.ts$/, ".js"))
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, r.outputText)
  }
  return join(outDir, relative(REPO_ROOT, entry).replace(/\.ts$/, ".js"))
}
