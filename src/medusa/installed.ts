/** The app's installed Medusa read as files, for the contract tests and the boot check; readers never throw. */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"

/** A package's main file's directory as the app's framework or @medusajs/medusa resolves it (pnpm: only they see it). */
function distOf(pkg: string): string | undefined {
  try {
    const from = [dirname(require.resolve("@medusajs/framework")), dirname(require.resolve("@medusajs/medusa/package.json")), process.cwd()]
    return dirname(require.resolve(pkg, { paths: from }))
  } catch {
    try {
      return dirname(require.resolve(pkg))
    } catch {
      return undefined
    }
  }
}

export type MedusaPackage =
  `@medusajs/${"core-flows" | "framework" | "medusa" | "workflows-sdk" | "order" | "tax" | "cart" | "modules-sdk"}`

/** `read` of the file `rel` inside the built `dist` of `pkg`, or undefined. */
function inDist<T>(pkg: MedusaPackage, rel: string, read: (file: string) => T): T | undefined {
  const dist = distOf(pkg)
  try {
    return dist ? read(join(dist, rel)) : undefined
  } catch {
    return undefined
  }
}

/** The text of `rel` inside the built `dist` of `pkg`, or undefined. */
export function installedSource(pkg: MedusaPackage, rel: string): string | undefined {
  return inDist(pkg, rel, (f) => readFileSync(f, "utf8"))
}

/** The exports of `rel` inside the built `dist` of `pkg`, or undefined. */
export function installedModule<T>(pkg: MedusaPackage, rel: string): T | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return inDist(pkg, rel, (f) => require(f) as T)
}

/** Pure: an API route's file in @medusajs/medusa's built `dist` (`/store/carts/:id` → `api/store/carts/[id]/route.js`). */
export const medusaRouteFile = (matcher: string): string => `api${matcher.replace(/:(\w+)/g, "[$1]")}/route.js`

/** Pure: the items of `const <name> = [ "a", … ]` in `source`; undefined when none or not all string literals. */
export function stringArrayLiteral(source: string | undefined, name: string): string[] | undefined {
  if (!source) return undefined
  const m = new RegExp(`(?:const|let|var)\\s+${name}\\s*=\\s*\\[([^\\]]*)\\]`).exec(source)
  if (!m) return undefined
  const body = m[1]!.replace(/\/\/[^\n]*/g, "")
  const items = [...body.matchAll(/"([^"\\]*)"|'([^'\\]*)'/g)].map((x) => x[1] ?? x[2]!)
  const rest = body.replace(/"[^"\\]*"|'[^'\\]*'/g, "").replace(/[\s,]/g, "")
  return rest ? undefined : items
}
