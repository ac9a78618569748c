/**
 * The status and body Medusa's error handler answers for an error (the store cart middleware answers a
 * failed refresh itself): Medusa's `getHttpResponseFromError` where exported, else the copy below, which
 * also answers the body parser's refusals as the newest Medusa does (older ones answer them 500).
 */
import * as medusaHttp from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"

export interface HttpErrorResponse {
  statusCode: number
  body: { code?: string; type?: string; message?: string }
}

const STATUS: Record<string, number> = {
  [MedusaError.Types.CONFLICT]: 409,
  [MedusaError.Types.UNAUTHORIZED]: 401,
  [MedusaError.Types.FORBIDDEN]: 403,
  [MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR]: 422,
  [MedusaError.Types.DUPLICATE_ERROR]: 422,
  [MedusaError.Types.NOT_ALLOWED]: 400,
  [MedusaError.Types.INVALID_DATA]: 400,
  [MedusaError.Types.NOT_FOUND]: 404,
  [MedusaError.Types.DB_ERROR]: 500,
  [MedusaError.Types.UNEXPECTED_STATE]: 500,
  [MedusaError.Types.INVALID_ARGUMENT]: 500,
}

/** What Medusa calls each status of an http-errors error. */
const HTTP_TYPE: Record<number, string> = {
  400: MedusaError.Types.INVALID_DATA,
  401: MedusaError.Types.UNAUTHORIZED,
  403: MedusaError.Types.FORBIDDEN,
  404: MedusaError.Types.NOT_FOUND,
  409: MedusaError.Types.CONFLICT,
}

/** Pure: Medusa's answer to an http-errors error (the body parser's 413, 400…), or undefined. */
export function httpErrorResponse(err: unknown): HttpErrorResponse | undefined {
  const e = err as { expose?: unknown; status?: unknown; statusCode?: unknown; message: string }
  if (!(err instanceof Error) || typeof e.expose !== "boolean" || typeof e.statusCode !== "number" || e.status !== e.statusCode)
    return undefined
  const message = e.statusCode < 500 ? e.message : "An unknown error occurred."
  return { statusCode: e.statusCode, body: { message, type: HTTP_TYPE[e.statusCode] ?? "unknown_error" } }
}

/** Pure: Medusa's error-handler mapping for a MedusaError-like or http-errors error. */
export function medusaErrorResponse(err: unknown): HttpErrorResponse {
  const http = httpErrorResponse(err)
  if (http) return http
  const e = (err ?? {}) as { type?: string; name?: string; code?: string; message?: string }
  const kind = e.type || e.name || ""
  const statusCode = STATUS[kind]
  if (statusCode === undefined)
    return { statusCode: 500, body: { code: "unknown_error", type: "unknown_error", message: "An unknown error occurred." } }
  const body: HttpErrorResponse["body"] = { code: e.code, type: e.type, message: e.message }
  if (kind === MedusaError.Types.CONFLICT) {
    body.code = "invalid_state_error"
    body.message = "The request conflicted with another request. You may retry the request with the provided Idempotency-Key."
  } else if (kind === MedusaError.Types.DUPLICATE_ERROR) body.code = "invalid_request_error"
  else if (kind === MedusaError.Types.DB_ERROR) body.code = "api_error"
  return { statusCode, body }
}

/** Medusa's own mapping when the app's Medusa exports it, else medusaErrorResponse. */
export function httpResponseFromError(
  err: unknown,
  medusa: { getHttpResponseFromError?: typeof medusaErrorResponse } = medusaHttp as never,
): HttpErrorResponse {
  return typeof medusa.getHttpResponseFromError === "function" ? medusa.getHttpResponseFromError(err) : medusaErrorResponse(err)
}
