// One HTTP attempt and the reading of its answer; nothing here retries, keeps or returns the key.
import axios, { type AxiosInstance, type AxiosResponse } from "axios"
import type { z } from "zod"
import {
  ErrorDetail as ErrorDetailSchema,
  locate,
  type ErrorDetail,
  type OperationDef,
  type OperationId,
} from "../../../packages/contract/src/index"
import { SalesTaxError } from "./errors"
import type { FailureKind, RetryPolicy } from "./retry"
import type { AttemptInfo, CallInput, SalesTaxClientOptions } from "./types"

/** What a client hands its calls: its http instance, settings, redactor and attempt hook. */
export interface CallContext {
  http: AxiosInstance
  /** the client's options as given (the key and `attemptBodies` are read from them at each call) */
  options: SalesTaxClientOptions
  connectionId: string
  timeoutMs: number
  policy: RetryPolicy
  redact: <T>(v: T) => T
  /** whether an `onAttempt` hook listens (ids and bodies are gathered only then) */
  observed: boolean
  /** reports an attempt to the hook (never throws) */
  emit: (info: AttemptInfo) => void
}

export type Outcome = { ok: true; res: AxiosResponse<string> } | { ok: false; failure: FailureKind; message: string }

/** The axios instance of a client: text bodies, every status answered, no redirects, no axios timeout. */
export function createHttp(baseUrl: string): AxiosInstance {
  return axios.create({
    baseURL: baseUrl.replace(/\/+$/, ""),
    responseType: "text",
    transformResponse: [(d: unknown) => d],
    validateStatus: () => true,
    maxRedirects: 0, // a redirect must not carry the key to another host
    timeout: 0, // the client's own timer (below) bounds the whole attempt
    headers: { accept: "application/json, application/problem+json" },
  })
}

/** One attempt: its answer, or why none came (timeout, network), the message redacted. */
export async function send(
  { http, options, redact }: Pick<CallContext, "http" | "options" | "redact">,
  op: OperationDef,
  url: string,
  query: Record<string, string>,
  input: CallInput,
  timeoutMs: number,
): Promise<Outcome> {
  const body = op.body ? input.body : undefined
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  try {
    const res = await http.request<string>({
      method: op.method,
      url,
      params: Object.keys(query).length ? query : undefined,
      data: body === undefined ? undefined : (input.prepared?.json ?? JSON.stringify(body)),
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(op.auth ? { "x-api-key": options.apiKey } : {}),
      },
      signal: controller.signal,
    })
    return { ok: true, res }
  } catch (e) {
    // the axios error holds config.headers (the key): keep only its code and a redacted message
    const code = typeof (e as { code?: unknown })?.code === "string" ? (e as { code: string }).code : undefined
    const message = e instanceof Error ? e.message : String(e)
    if (timedOut || code === "ETIMEDOUT" || code === "ECONNABORTED") {
      return { ok: false, failure: { kind: "timeout" }, message: `no answer within ${timeoutMs} ms` }
    }
    return {
      ok: false,
      failure: { kind: "network", connectRefused: code === "ECONNREFUSED" || /ECONNREFUSED/.test(message) },
      message: redact(code && !message.includes(code) ? `${code}: ${message}` : message),
    }
  } finally {
    clearTimeout(timer)
  }
}

/** The answer of a 2xx, validated against the operation's response schema. */
export function parseResponse(
  operation: OperationId,
  schema: z.ZodType | undefined,
  res: AxiosResponse<string>,
  redact: <T>(v: T) => T,
): { ok: true; data: unknown } | { ok: false; error: SalesTaxError } {
  if (!schema || res.status === 204) return { ok: true, data: undefined }
  const bad = (detail: string, errors: ErrorDetail[] = []) => ({
    ok: false as const,
    error: new SalesTaxError({
      operation,
      status: res.status,
      title: "Invalid response",
      detail,
      errors: redact(errors),
      retryable: false,
      code: "response_validation",
    }),
  })
  let json: unknown
  try {
    json = JSON.parse(typeof res.data === "string" ? res.data : String(res.data))
  } catch {
    return bad("the service answered with a body that is not JSON")
  }
  const r = schema.safeParse(json)
  if (!r.success) {
    return bad(
      "the service's answer does not match the contract",
      r.error.issues.map((iss) => ({ location: `response.${locate("body", iss.path)}`, message: iss.message })),
    )
  }
  return { ok: true, data: r.data }
}

/** A SalesTaxError of an HTTP error answer, from its problem details (leniently: what is well-formed). */
export function httpError(operation: OperationId, res: AxiosResponse<string>, retryable: boolean, redact: <T>(v: T) => T): SalesTaxError {
  let title = res.statusText || `HTTP ${res.status}`
  let detail: string | undefined
  let errors: ErrorDetail[] = []
  try {
    // lenient: take what is well-formed, so one odd error entry does not hide the rest
    const body = JSON.parse(res.data) as Record<string, unknown> | null
    if (body && typeof body === "object") {
      if (typeof body.title === "string" && body.title) title = body.title
      if (typeof body.detail === "string") detail = body.detail
      if (Array.isArray(body.errors)) {
        errors = body.errors.flatMap((e) => {
          const d = ErrorDetailSchema.safeParse(e)
          return d.success ? [d.data] : []
        })
      }
    }
  } catch {
    // not JSON: keep the status line
  }
  return new SalesTaxError({
    operation,
    status: res.status,
    title: redact(title),
    detail: detail === undefined ? undefined : redact(detail),
    errors: redact(errors),
    retryable,
    code: "http",
  })
}

export function flatHeaders(headers: AxiosResponse["headers"]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof v === "string") out[k.toLowerCase()] = v
    else if (Array.isArray(v)) out[k.toLowerCase()] = v.join(", ")
    else if (typeof v === "number") out[k.toLowerCase()] = String(v)
  }
  return out
}
