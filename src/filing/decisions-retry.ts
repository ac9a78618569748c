/** Pure decisions of the filing processor: retries, back-off, what a failure says (never a key). */
import type { SalesTaxError } from "../service/client"

export interface BackoffPolicy {
  baseMs: number
  maxMs: number
}
/** A failed record's wait: the client's backoff (`backoffDelay`, in [d/2, d]) from `baseMs`, doubling per attempt, capped at `maxMs`. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, maxMs: 3_600_000 }

/** A failure as filing reads it: the client's error's fields, each maybe absent, with any code. */
type ErrorLike = Partial<Pick<SalesTaxError, "status" | "retryable" | "message" | "title" | "detail" | "errors">> & { code?: string }

/** Errors worth retrying later: network, timeouts, 408, 429 and 5xx. */
export function isRetryable(err: unknown): boolean {
  const e = err as ErrorLike
  if (typeof e?.retryable === "boolean") return e.retryable
  const s = e?.status
  if (s == null) return true
  return s === 408 || s === 429 || s >= 500
}

/** Error text for the record: bounded, with every secret replaced. */
export function sanitizeError(err: unknown, secrets: (string | undefined | null)[]): string {
  const e = err as ErrorLike
  let text: string
  if (e && typeof e === "object" && ("status" in e || "title" in e)) {
    const parts = [e.status != null ? `HTTP ${e.status}` : (e.code ?? "error"), e.title, e.detail ?? e.message]
    if (Array.isArray(e.errors) && e.errors.length) parts.push(e.errors.map((x) => `${x.location}: ${x.message}`).join("; "))
    text = parts.filter(Boolean).join(" - ")
  } else {
    text = err instanceof Error ? err.message : String(err)
  }
  for (const s of secrets) if (s && s.length >= 4) text = text.split(s).join("[redacted]")
  return text.slice(0, 1000)
}

/** One log line for a failure the subscriber did not expect, whatever its shape: message, code, HTTP status, Medusa error type,
 * causes and stack; secrets replaced, bounded. */
export function describeFailure(err: unknown, secrets: (string | undefined | null)[] = []): string {
  const parts: string[] = []
  const seen = new Set<unknown>()
  let e: unknown = err
  for (let depth = 0; depth < 3 && e !== undefined && e !== null && !seen.has(e); depth++) {
    seen.add(e)
    if (typeof e !== "object") {
      parts.push(String(e))
      break
    }
    const o = e as ErrorLike & { name?: unknown; type?: unknown; cause?: unknown; errors?: unknown }
    const message = [o.message, o.detail, o.title].find((x) => typeof x === "string" && x.length) as string | undefined
    const tags = [
      o.code !== undefined && o.code !== null ? `code ${String(o.code)}` : null,
      typeof o.status === "number" ? `HTTP ${o.status}` : null,
      typeof o.type === "string" && o.type !== o.code ? `type ${o.type}` : null,
    ].filter(Boolean)
    let text = message ?? safeJson(o)
    if (typeof o.name === "string" && o.name !== "Error" && message) text = `${o.name}: ${text}`
    parts.push(tags.length ? `${text} (${tags.join(", ")})` : text)
    e = o.cause
  }
  let out = parts.join("; caused by: ")
  // the stack below the first line (which repeats the message), for an Error or a plain object carrying one
  const stack = (err as { stack?: unknown } | null)?.stack
  if (typeof stack === "string" && stack.includes("\n")) out += `\n${stack.split("\n").slice(1).join("\n")}`
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]")
  return out.slice(0, 2000)
}

function safeJson(o: object): string {
  try {
    return JSON.stringify(o) ?? String(o)
  } catch {
    return `an object with keys ${Object.keys(o).join(", ") || "(none)"}`
  }
}
