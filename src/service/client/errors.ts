import type { ErrorDetail, OperationId } from "../../../packages/contract/src/index"

export type SalesTaxErrorCode = "http" | "timeout" | "network" | "validation" | "response_validation"

/** status: null (no answer) and retryable: false unless given. */
export type SalesTaxErrorInit = Pick<SalesTaxError, "operation" | "title" | "detail" | "code"> &
  Partial<Pick<SalesTaxError, "status" | "retryable" | "errors" | "attempts">>

/** Every failure of the client, built only from safe fields: no config, headers, axios error or cause (they carry the key). */
export class SalesTaxError extends Error {
  override name = "SalesTaxError"
  readonly operation!: OperationId
  readonly status!: number | null
  readonly title!: string
  readonly detail?: string
  readonly errors!: ErrorDetail[]
  readonly retryable!: boolean
  readonly code!: SalesTaxErrorCode
  /** Attempts made before giving up (1 when not retried). */
  readonly attempts!: number

  constructor(init: SalesTaxErrorInit) {
    const { operation, status = null, title, detail, retryable = false, code } = init
    const msg = `${operation}: ${status !== null ? `${status} ` : ""}${title}${detail ? ` - ${detail}` : ""}${
      init.errors && init.errors.length
        ? ` (${init.errors
            .slice(0, 5)
            .map((e) => `${e.location}: ${e.message}`)
            .join("; ")}${init.errors.length > 5 ? `; +${init.errors.length - 5} more` : ""})`
        : ""
    }`
    super(msg)
    // every field set, in the order declared (toJSON lists them so)
    Object.assign(this, { operation, status, title, detail, errors: init.errors ?? [], retryable, code, attempts: init.attempts ?? 1 })
  }

  /** The safe fields (all of them: none holds the key). */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, ...(this as object) }
  }
}

export function isSalesTaxError(e: unknown): e is SalesTaxError {
  return e instanceof SalesTaxError
}

/** Pure: the service refused the connection's API key (HTTP 401 or 403): the checkout's breaker and filing's pause. */
export function isKeyRefused(err: unknown): boolean {
  const s = (err as { status?: unknown } | null | undefined)?.status
  return s === 401 || s === 403
}

/** Pure: whether a service error refuses the cart's certificate (422 located at the exemption). */
export function refusesCertificate(err: unknown): boolean {
  const e = err as { status?: unknown; errors?: { location?: unknown }[] } | null
  if (!e || (e.status !== 422 && e.status !== 400 && e.status !== 404)) return false
  return (e.errors ?? []).some((x) => typeof x.location === "string" && /\.exemption(\.|$)/.test(x.location))
}

export const REDACTED = "[REDACTED]"

/** x-api-key, apikey, api_key, authorization in any case (the length test lets the usual keys skip the regex). */
function headerLikeKey(k: string): boolean {
  const n = k.length
  return (n === 6 || n === 7 || n === 9 || n === 13) && /^(x-api-key|apikey|api_key|authorization)$/i.test(k)
}

/** Replaces the secrets deeply in strings, arrays and plain objects: on all that leaves the client (a server may echo input). */
export function makeRedactor(secrets: ReadonlyArray<string | undefined>): <T>(value: T) => T {
  const list = secrets.filter((s): s is string => typeof s === "string" && s.length > 0).sort((a, b) => b.length - a.length)
  const redactString = (s: string): string => {
    let out = s
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
    // user:password@ in URLs (no "@", nothing to replace)
    if (out.includes("@")) out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi, `$1${REDACTED}@`)
    return out
  }
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return redactString(v)
    if (depth > 20 || v === null || typeof v !== "object") return v
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1))
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) return v
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      // header-like keys never travel, whatever their value
      out[k] = headerLikeKey(k) ? REDACTED : walk(x, depth + 1)
    }
    return out
  }
  return <T>(value: T): T => walk(value, 0) as T
}
