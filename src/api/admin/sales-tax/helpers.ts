// Shared pieces of the plugin's admin routes: the client, error mapping to Medusa's error format
// ({ type, message } plus `errors` with located field messages), TIC labels.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import type { z } from "zod"
import { issuesToErrors, type ErrorDetail } from "../../../contract"
import { SalesTaxError, type SalesTaxClient } from "../../../client"
import { getSalesTaxClient } from "../../../client-factory"
import { getPluginOptions, PluginOptionsError, type PluginOptions } from "../../../options"
import { getTic } from "../../../sandbox/tic"
import type { TicInfo } from "../../../admin/lib/types"

type Scope = MedusaRequest["scope"]

export function pluginOptions(scope: Scope): PluginOptions {
  return getPluginOptions(scope as unknown as Parameters<typeof getPluginOptions>[0])
}

export function salesTaxClient(scope: Scope): SalesTaxClient {
  return getSalesTaxClient(pluginOptions(scope))
}

export function ticInfo(ticId: number): TicInfo {
  let label: string | null = null
  try {
    label = getTic(ticId)?.label ?? null
  } catch {
    label = null
  }
  return { ticId, label }
}

/** Medusa's error body ({ type, message }, as its error handler writes it) plus located errors. */
export function sendError(
  res: MedusaResponse,
  status: number,
  type: string,
  message: string,
  errors?: ErrorDetail[],
  code?: string,
): void {
  res.status(status).json({ type, message, ...(code ? { code } : {}), ...(errors && errors.length ? { errors } : {}) })
}

/** Located zod errors in Medusa's invalid_data format (400). */
export function sendZodError(res: MedusaResponse, error: z.ZodError, input: unknown, part: "body" | "query" | "path" = "body"): void {
  const errors = issuesToErrors(part, error, input)
  sendError(
    res,
    400,
    MedusaError.Types.INVALID_DATA,
    `Invalid request: ${errors.slice(0, 3).map((e) => `${e.location.replace(/^body\./, "")}: ${e.message}`).join("; ")}`,
    errors,
  )
}

/**
 * Turns a failure of the Sales Tax Service (SalesTaxError from the client) into an admin answer:
 * the service's 400/422 (and the client's own validation) → 400 invalid_data with the service's
 * located errors; 404 → 404 not_found; bad credentials → 502; unavailable (429, 5xx, timeout,
 * network) → 503. The client's messages are already free of the API key.
 */
export function sendServiceError(res: MedusaResponse, e: SalesTaxError): void {
  const errors = e.errors ?? []
  if (e.code === "validation" || e.status === 400 || e.status === 422) {
    sendError(res, 400, MedusaError.Types.INVALID_DATA, e.detail || e.title || "The Sales Tax Service rejected the request", errors)
    return
  }
  if (e.status === 404) {
    sendError(res, 404, MedusaError.Types.NOT_FOUND, e.detail || "Not found at the Sales Tax Service")
    return
  }
  if (e.status === 401 || e.status === 403) {
    sendError(
      res,
      502,
      MedusaError.Types.UNEXPECTED_STATE,
      "The Sales Tax Service refused the plugin's credentials: check apiKey and connectionId in the plugin options",
      undefined,
      "sales_tax_credentials",
    )
    return
  }
  sendError(
    res,
    503,
    MedusaError.Types.UNEXPECTED_STATE,
    `The Sales Tax Service is unavailable (${e.code === "http" ? `status ${e.status}` : e.code}); try again shortly`,
    undefined,
    "sales_tax_unavailable",
  )
}

type Handler = (req: MedusaRequest, res: MedusaResponse) => Promise<void>

/** Catches service failures and bad plugin options; anything else goes to Medusa's error handler. */
export function handle(fn: Handler): Handler {
  return async (req, res) => {
    try {
      await fn(req, res)
    } catch (e) {
      if (e instanceof SalesTaxError) return sendServiceError(res, e)
      if (e instanceof PluginOptionsError) {
        return sendError(res, 500, MedusaError.Types.UNEXPECTED_STATE, e.message, undefined, "sales_tax_options")
      }
      throw e
    }
  }
}

/** The validated body (set by validateAndTransformBody in the route's middleware). */
export function bodyOf<T>(req: MedusaRequest, schema: z.ZodType<T>): T {
  const v = (req as unknown as { validatedBody?: unknown }).validatedBody
  if (v !== undefined) return v as T
  const parsed = schema.safeParse(req.body)
  if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, "Invalid request body")
  return parsed.data
}

export function notFound(res: MedusaResponse, what: string, id: string): void {
  sendError(res, 404, MedusaError.Types.NOT_FOUND, `${what} with id: ${id} was not found`)
}
