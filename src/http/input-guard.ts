// Hostile-input guard of the plugin's own routes, before route validation: a broken path, dot segments,
// control characters, a body nested too deep are a located 400; every JSON answer gets `errors[].value`
// as a short excerpt (no nested echo) and never the API key. Body size is Medusa's parser's (413).
import { type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { makeRedactor } from "../service/client/errors"
import { getPluginOptions } from "../options"
import { throughEveryAnswer } from "../medusa/root-middleware"
import { httpErrorResponse } from "../medusa/error-handler"

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
const CONTROL_ALL = new RegExp(CONTROL, "g")
/** In body strings, tab, line feed and carriage return are text; the other controls are not. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BODY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export interface InputProblem {
  location: string
  message: string
  value?: unknown
}

/** A short, non-nested stand-in for an offending value (strings cut, controls as U+FFFD, containers summarized); never recurses. */
export function excerpt(value: unknown, max: number = INPUT_LIMITS.excerptLength): string | number | boolean | null | undefined {
  if (value === undefined || value === null) return value
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value)
  if (typeof value === "boolean") return value
  if (typeof value === "string") {
    const clean = value.replace(CONTROL_ALL, "\ufffd")
    return clean.length > max ? `${clean.slice(0, max)}…` : clean
  }
  if (Array.isArray(value)) return `[array of ${value.length}]`
  if (typeof value === "object") {
    const n = Object.keys(value).length
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

/** The first place `value` nests deeper than `maxDepth` or holds a forbidden control character; iterative (no stack overflow). */
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

/** The raw path (before Express decodes it): every segment decodes, holds no control character, is no dot segment. */
export function inspectPath(originalUrl: string): InputProblem | undefined {
  for (const seg of (originalUrl.split("?")[0] ?? "").split("/").slice(1)) {
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

/** THE located 400 of the plugin's routes (Medusa's `invalid_data`): values as excerpts, the first three named. */
export function invalidData(errors: readonly InputProblem[]): { type: "invalid_data"; message: string; errors: InputProblem[] } {
  const named = errors.slice(0, 3).map((e) => `${e.location.replace(/^body\./, "")}: ${e.message}`)
  return {
    type: "invalid_data",
    message: `Invalid request: ${named.join("; ")}`,
    errors: errors.map((e) => ("value" in e ? { ...e, value: excerpt(e.value) } : e)),
  }
}

/** An error answer safe to serialize and show: each `errors[].value` an excerpt, nested lists not followed. */
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

/** Wraps `res.json` of one request: safe `errors[]` on error answers, and the API key replaced in any answer (a pasted key is not echoed). */
export function guardAnswers(req: MedusaRequest, res: MedusaResponse): void {
  const key = apiKeyOf(req)
  const redact = key ? makeRedactor([key]) : undefined
  throughEveryAnswer(res, (body, original) => {
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
  })
}

/** The raw path of a request to one of the plugin's routes, else undefined. */
function pluginPath(req: MedusaRequest): string | undefined {
  const path = (req.originalUrl ?? req.url ?? "").split("?")[0] ?? ""
  return ["/admin/sales-tax", "/store/sales-tax"].some((p) => path === p || path.startsWith(`${p}/`)) ? path : undefined
}

/** Run on every request (root-middleware.ts), before Medusa's `/admin/*` middlewares decode the path (500 on bad %). */
export function hostileInputGuard(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  if (pluginPath(req) === undefined) return next()
  guardAnswers(req, res)
  const problem = inspectRequest(req)
  if (problem) return void res.status(400).json(invalidData([problem]))
  next()
}

/** The error handler's part on the plugin's routes: a bad path is a located 400, a refused body its 4xx; else Medusa's (false). */
export function answerPluginRouteError(err: unknown, req: MedusaRequest, res: MedusaResponse): boolean {
  const path = pluginPath(req)
  if (path === undefined) return false
  const problem = inspectPath(path)
  const refused = problem ? { statusCode: 400, body: invalidData([problem]) } : httpErrorResponse(err)
  if (!refused || refused.statusCode >= 500) return false
  guardAnswers(req, res)
  res.status(refused.statusCode).json(refused.body)
  return true
}
