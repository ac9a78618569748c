import type { ErrorDetail } from "../../../packages/contract/src/index"

/** The service path with its parameters as encoded segments; empty, `.` and `..` (dropped or resolved by URL parsers) refused. */
export function buildPath(
  template: string,
  params: Readonly<Record<string, string | undefined>>,
): { path: string } | { errors: ErrorDetail[] } {
  const errors: ErrorDetail[] = []
  const path = template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name] ?? ""
    const problem = segmentProblem(value)
    if (problem) errors.push({ location: `path.${name}`, message: `${name} ${problem}`, value })
    return encodeURIComponent(value)
  })
  return errors.length ? { errors } : { path }
}

export function segmentProblem(value: string): string | undefined {
  if (value === "") return "must not be empty"
  if (value === "." || value === "..") return `must not be "${value}" (a dot segment)`
  return undefined
}
