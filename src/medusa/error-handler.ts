/**
 * BOUNDARY: the app's error handler, replaced: Medusa's router uses the last middlewares file's
 * `errorHandler` (an app's own wins). Express decodes the path before any middleware, and Medusa's
 * handler answers an undecodable path (and, on older minors, a refused body) 500: ours answers 400/413.
 * And the status and body Medusa's handler answers for an error (the store cart middleware answers a
 * failed refresh itself): Medusa's `getHttpResponseFromError` where exported, else the copy below, which
 * also answers the body parser's refusals as the newest Medusa does (older ones answer them 500).
 * Contract tests: error-handler.test.ts, http-error.test.ts. Boot check: `errorHandler` exported by @medusajs/framework/http.
 */
import * as medusaHttp from "@medusajs/framework/http"
import { errorHandler, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { installedSource } from "./installed"

/** Medusa's error handler with `first` tried before it: `first` answers the error (true) or leaves it to Medusa's handler. */
export function medusaErrorHandlerWith(first: (err: unknown, req: MedusaRequest, res: MedusaResponse) => boolean) {
  // a Medusa without the export: Express's own handler (the boot check logs it once)
  const medusa = typeof errorHandler === "function" ? errorHandler() : undefined
  return function salesTaxErrorHandler(err: unknown, req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
    if (!res.headersSent && first(err, req, res)) return
    if (medusa) medusa(err, req, res, next)
    else next(err)
  }
}

export function errorHandlerRoutingDifferences(
  router: string | undefined = installedSource("@medusajs/framework", "http/router.js"),
  loader: string | undefined = installedSource("@medusajs/framework", "http/middleware-file-loader.js"),
): string[] {
  const out: string[] = []
  if (!router?.includes("use(sourceErrorHandler ?? (0, error_handler_1.errorHandler)())"))
    out.push("Medusa's router no longer uses a middlewares file's errorHandler")
  if (!loader?.includes("const errorHandler = middlewareConfig.errorHandler;"))
    out.push("Medusa's middleware loader no longer reads errorHandler")
  return out
}

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
