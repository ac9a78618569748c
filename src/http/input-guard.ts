// Hostile-input guard of the plugin's own HTTP routes (/admin/sales-tax/*, /store/sales-tax/*).
// Pure checks (tested beside) plus one middleware that runs before route validation:
//   - the raw path: malformed percent-encoding, control characters, dot segments → 400 at `path`;
//   - query values and keys: control characters → 400 at `query.<key>`;
//   - the body: nested deeper than INPUT_LIMITS.maxBodyDepth, or control characters other than
//     tab / line feed / carriage return in a string or key → 400 at `body.<path>`;
//   - every JSON answer of these routes: `errors[].value` reduced to a short, non-nested excerpt
//     (a deeply nested echo cannot overflow the serializer) and the API key replaced.
// The body SIZE limit is Medusa's body parser, configured per route in middlewares.ts (413 past it).
import { type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { makeRedactor } from "../service/client/errors"
import { getPluginOptions } from "../options"

export const INPUT_LIMITS = {
  /** Objects/arrays nested deeper than this in a JSON body are refused (the deepest valid body has 3). */
  maxBodyDepth: 10,
  /** Body size of the admin routes (Medusa's JSON parser; 413 past it). */
  adminBodySize: "64kb",
  /** Body size of the store route (an address). */
  storeBodySize: "8kb",
  /** Characters of an offending value echoed in an error. */
  excerptLength: 40,
} as const

/** C0 controls and DEL: never in a path or query value. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/
/** In body strings, tab, line feed and carriage return are text; the other controls are not. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BODY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export interface InputProblem {
  location: string
  message: string
  value?: unknown
}

/**
 * A short, non-nested stand-in for an offending value: primitives as they are (strings cut to
 * `excerptLength` characters, control characters shown as U+FFFD), arrays and objects as a
 * one-line summary. Never recurses, so any input is safe to echo.
 */
export function excerpt(value: unknown, max: number = INPUT_LIMITS.excerptLength): string | number | boolean | null | undefined {
  if (value === undefined || value === null) return value
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value)
  if (typeof value === "boolean") return value
  if (typeof value === "string") {
    // eslint-disable-next-line no-control-regex -- control characters are replaced in echoed values
    const clean = value.replace(/[\u0000-\u001f\u007f]/g, "\ufffd")
    return clean.length > max ? `${clean.slice(0, max)}…` : clean
  }
  if (Array.isArray(value)) return `[array of ${value.length}]`
  if (typeof value === "object") {
    let n = 0
    for (const k in value as object) if (Object.prototype.hasOwnProperty.call(value, k)) n++
    return `{object with ${n} key${n === 1 ? "" : "s"}}`
  }
  return `[${typeof value}]`
}

/** `location` + one path segment, keys cut like values. */
function join(location: string, key: string | number): string {
  if (typeof key === "number") return `${location}[${key}]`
  const k = String(excerpt(key, 24))
  return /^[A-Za-z_$][\w$]*$/.test(k) ? `${location}.${k}` : `${location}[${JSON.stringify(k)}]`
}

/**
 * The first place where `value` nests objects/arrays deeper than `maxDepth` (the top-level
 * object is depth 1), or where a string or key holds a forbidden control character. Iterative:
 * no input, however deep, can overflow the stack here.
 */
export function inspectTree(
  value: unknown,
  part: "body" | "query",
  maxDepth: number = INPUT_LIMITS.maxBodyDepth,
): InputProblem | undefined {
  const forbidden = part === "body" ? BODY_CONTROL : CONTROL
  const stack: { v: unknown; depth: number; loc: string }[] = [{ v: value, depth: 0, loc: part }]
  while (stack.length) {
    const { v, depth, loc } = stack.pop()!
    if (typeof v === "string") {
      if (forbidden.test(v)) return { location: loc, message: "must not contain control characters", value: excerpt(v) }
      continue
    }
    if (v === null || typeof v !== "object") continue
    if (depth + 1 > maxDepth) {
      return { location: loc, message: `is nested deeper than ${maxDepth} levels`, value: excerpt(v) }
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, loc: join(loc, i) })
      continue
    }
    const keys = Object.keys(v)
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!
      if (forbidden.test(k)) return { location: join(loc, k), message: "the key must not contain control characters", value: excerpt(k) }
      stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, loc: join(loc, k) })
    }
  }
  return undefined
}

/**
 * Checks the raw request path (before Express decodes its parameters): every segment must decode
 * (no broken percent-encoding), hold no control character and not be a dot segment.
 */
export function inspectPath(originalUrl: string): InputProblem | undefined {
  const raw = originalUrl.split("?")[0] ?? ""
  const segments = raw.split("/").slice(1)
  for (const seg of segments) {
    let decoded: string
    try {
      decoded = decodeURIComponent(seg)
    } catch {
      return { location: "path", message: "is not valid percent-encoding", value: excerpt(seg) }
    }
    if (CONTROL.test(decoded)) return { location: "path", message: "must not contain control characters", value: excerpt(decoded) }
    if (decoded === "." || decoded === "..")
      return { location: "path", message: "must not contain a dot segment (. or ..)", value: decoded }
  }
  return undefined
}

/** Every problem check of one request, first found first: path, query, body. */
export function inspectRequest(req: { originalUrl?: string; url?: string; query?: unknown; body?: unknown }): InputProblem | undefined {
  return (
    inspectPath(req.originalUrl ?? req.url ?? "") ??
    (req.query && typeof req.query === "object" ? inspectTree(req.query, "query", Number.MAX_SAFE_INTEGER) : undefined) ??
    (req.body !== undefined ? inspectTree(req.body, "body") : undefined)
  )
}

/** The 400 answer of an input problem, in Medusa's error format with a located error. */
export function problemBody(p: InputProblem): { type: string; message: string; errors: InputProblem[] } {
  const where = p.location.replace(/^(body|query)\.?/, "") || p.location
  return { type: "invalid_data", message: `Invalid request: ${where} ${p.message}`, errors: [{ ...p, value: excerpt(p.value) }] }
}

/**
 * An error answer made safe to serialize and to show: each `errors[].value` becomes an excerpt,
 * and nested error lists are not followed.
 */
export function safeErrorBody(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body
  const b = body as Record<string, unknown>
  if (!Array.isArray(b.errors)) return body
  return {
    ...b,
    errors: b.errors.slice(0, 50).map((e) => {
      if (!e || typeof e !== "object") return { message: String(excerpt(e)) }
      const { value, ...rest } = e as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(rest)) out[k] = typeof v === "string" ? v.slice(0, 500) : excerpt(v)
      return "value" in (e as object) ? { ...out, value: excerpt(value) } : out
    }),
  }
}

function apiKeyOf(req: MedusaRequest): string | undefined {
  try {
    return getPluginOptions(req.scope).apiKey
  } catch {
    return undefined
  }
}

/**
 * Wraps `res.json` of one request: error answers get safe `errors[]` (safeErrorBody), and any
 * answer that would contain the API key has it replaced (an admin who pastes the key into a search
 * box does not get it echoed back).
 */
export function guardAnswers(req: MedusaRequest, res: MedusaResponse): void {
  const flagged: MedusaResponse & { __salesTaxGuarded?: boolean } = res
  if (flagged.__salesTaxGuarded) return
  flagged.__salesTaxGuarded = true
  const original = res.json.bind(res)
  const key = apiKeyOf(req)
  const redact = key ? makeRedactor([key]) : undefined
  ;(res as { json: (b: unknown) => MedusaResponse }).json = (body: unknown) => {
    const out = res.statusCode >= 400 ? safeErrorBody(body) : body
    if (!redact) return original(out)
    let text: string | undefined
    try {
      text = JSON.stringify(out)
    } catch {
      text = undefined
    }
    if (text === undefined || text.includes(key!)) return original(redact(out))
    // serialized once: send the text as res.json would
    if (!res.get("Content-Type")) res.set("Content-Type", "application/json; charset=utf-8")
    return res.send(text)
  }
}

/** The path prefixes of the plugin's own routes. */
export const PLUGIN_ROUTE_PREFIXES = ["/admin/sales-tax", "/store/sales-tax"] as const

/** Whether a raw request path is one of the plugin's routes (`/admin/sales-tax`, `/admin/sales-tax/...`). */
export function isPluginPath(path: string): boolean {
  return PLUGIN_ROUTE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))
}

/**
 * The middleware: answers 400 with a located error for hostile input on the plugin's routes, and
 * guards the answer of everything after it; any other path passes untouched. It is registered at
 * "/" (see middlewares.ts) because Medusa's own wildcard middlewares (`/admin/*`) decode the path
 * before a middleware mounted at /admin/sales-tax would run, and a broken %-encoding there is
 * Express's URIError, which Medusa's error handler answers with 500. Medusa's authentication and
 * publishable-key checks still run before it.
 */
export function hostileInputGuard(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const path = (req.originalUrl ?? req.url ?? "").split("?")[0] ?? ""
  if (!isPluginPath(path)) return next()
  guardAnswers(req, res)
  const problem = inspectRequest(req)
  if (problem) {
    res.status(400).json(problemBody(problem))
    return
  }
  next()
}

/**
 * The plugin's part of the app's error handler (src/medusa/error-handler.ts): a request to one of
 * the plugin's routes whose raw path cannot be decoded (broken %-encoding) is answered 400 with a
 * located error. Express fails to decode such a path in Medusa's own `/admin*` middleware, before
 * any plugin middleware runs, and Medusa's handler answers that URIError with 500. Every other
 * error, and every other path, goes to Medusa's handler unchanged (false).
 */
export function answerUndecodablePluginPath(_err: unknown, req: MedusaRequest, res: MedusaResponse): boolean {
  const path = (req.originalUrl ?? req.url ?? "").split("?")[0] ?? ""
  if (!isPluginPath(path)) return false
  const problem = inspectPath(path)
  if (!problem) return false
  guardAnswers(req, res)
  res.status(400).json(problemBody(problem))
  return true
}
