import type { ErrorDetail } from "../contract"

/**
 * The service path of an operation with its parameters filled in. Every parameter is one path
 * segment: it is percent-encoded (`encodeURIComponent`, so `/`, `?`, `#` and `%` cannot change the
 * path), and a value that a URL parser would drop or resolve — empty, `.` or `..` — is refused
 * before anything is sent (`GET certificates/..` would otherwise reach `/tax/connections/<id>/`).
 */
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

/** Why a value cannot be a path segment, or undefined when it can. */
export function segmentProblem(value: string): string | undefined {
  if (value === "") return "must not be empty"
  if (value === "." || value === "..") return `must not be "${value}" (a dot segment)`
  return undefined
}
