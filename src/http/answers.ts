// The answers of the plugin's routes: their clients (an admin request's connection: `?connection_id=`, a
// configured one, else a located 400; the default without it: a customer's certificates live on the
// connection of the channel they buy through), and errors in Medusa's format ({ type, message } plus
// `errors` with located field messages), a service failure mapped to an admin answer.
import type { MedusaRequest, MedusaResponse, MedusaStoreRequest } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { issuesToErrors, type ErrorDetail } from "../../packages/contract/src/index"
import { SalesTaxError, type SalesTaxClient } from "../service/client"
import { getBackgroundClient } from "../service/client-factory"
import { connectionById, optionsForChannel, optionsOn, type ResolvedConnection } from "../service/connections"
import { getPluginOptions, PluginOptionsError, type PluginOptions } from "../options"
import { excerpt, invalidData } from "./input-guard"

type Scope = MedusaRequest["scope"]

/** The client of the admin routes: admin work is background work (`backgroundTimeoutMs`). */
export function salesTaxClient(scope: Scope): SalesTaxClient {
  return getBackgroundClient(getPluginOptions(scope))
}

/** The client of a store request: the connection of its publishable key's (first) sales channel, where its carts are quoted. */
export function storeClient(req: MedusaRequest): SalesTaxClient {
  const channels = (req as MedusaRequest & Partial<Pick<MedusaStoreRequest, "publishable_key_context">>).publishable_key_context
    ?.sales_channel_ids
  return getBackgroundClient(optionsForChannel(getPluginOptions(req.scope), channels?.[0]))
}

/** Pure: the query schema for the configured connection ids. */
function connectionQuerySchema(ids: readonly string[]) {
  return z.object({
    connection_id: z
      .string({ error: "connection_id must be a string" })
      // one message per bad value: an empty or overlong id is told only that (abort)
      .min(1, { error: "connection_id must not be empty", abort: true })
      .max(200, { error: "connection_id is at most 200 characters", abort: true })
      .refine((id) => ids.includes(id), { message: `connection_id must be a configured connection (${ids.length} configured)` })
      .optional(),
  })
}

/** The request's connection and its background client; null when `connection_id` is invalid (400 sent). */
export function adminConnection(
  req: MedusaRequest,
  res: MedusaResponse,
): { connection: ResolvedConnection; client: SalesTaxClient } | null {
  const options = getPluginOptions(req.scope)
  const ids = [options.connectionId, ...options.connections.map((c) => c.connectionId)]
  const query = { connection_id: (req.query as Record<string, unknown> | undefined)?.connection_id }
  const parsed = connectionQuerySchema(ids).safeParse(query)
  if (!parsed.success) {
    sendZodError(res, parsed.error, query, "query")
    return null
  }
  const connection = connectionById(options, parsed.data.connection_id)!
  return { connection, client: getBackgroundClient(optionsOn(options, connection)) }
}

/** A service-side text as an admin may see it: the API key, connection ids, base URL and service paths replaced. */
export function scrubServiceText(
  text: string,
  o: Pick<PluginOptions, "connectionId" | "baseUrl" | "apiKey"> & { connections?: PluginOptions["connections"] },
): string {
  let out = text
  // a connection id as written and as a URL path holds it
  const id = (c: string) => [[c, "[connection]"] as const, [encodeURIComponent(c), "[connection]"] as const]
  for (const [secret, mark] of [
    [o.apiKey, "[redacted]"] as const,
    ...(o.connections ?? []).flatMap((c) => [[c.apiKey, "[redacted]"] as const, ...id(c.connectionId)]),
    [o.baseUrl, "[service]"] as const,
    ...id(o.connectionId),
  ]) {
    if (secret && out.includes(secret)) out = out.split(secret).join(mark)
  }
  return out.replace(/(^|[^\w.~%-])\/(?:tax|_sandbox|1\.0)\/[^\s"')]*/g, "$1[service path]")
}

/** The admin-facing copy of a service error's text (scrubbed), safe when options are unreadable. */
export function serviceText(scope: Scope, text: string): string {
  try {
    return scrubServiceText(text, getPluginOptions(scope))
  } catch {
    return text.replace(/\/(?:tax|_sandbox|1\.0)\/\S*/g, "[service path]")
  }
}

/** Medusa's error body ({ type, message }, as its error handler writes it) plus located errors. */
export function sendError(res: MedusaResponse, status: number, type: string, message: string, errors?: ErrorDetail[], code?: string): void {
  res.status(status).json({ type, message, ...(code ? { code } : {}), ...(errors && errors.length ? { errors } : {}) })
}

/** Parses `schema` from the request's query or body; on failure answers 400 with located errors and returns undefined. */
export function parseOr400<T>(req: MedusaRequest, res: MedusaResponse, schema: z.ZodType<T>, part: "query" | "body"): T | undefined {
  const input = part === "query" ? (req.query ?? {}) : (req.body ?? {})
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  sendZodError(res, parsed.error, input, part)
}

export function sendZodError(res: MedusaResponse, error: z.ZodError, input: unknown, part: "body" | "query" | "path" = "body"): void {
  res.status(400).json(invalidData(issuesToErrors(part, error, input)))
}

/** A SalesTaxError as an admin answer: 400/422/validation → located 400; 404 → 404; 401/403 → 502; else 503. */
export function sendServiceError(res: MedusaResponse, e: SalesTaxError, scrub: (t: string) => string = (t) => t): void {
  const errors = (e.errors ?? []).map((x) => ({
    location: scrub(x.location),
    message: scrub(x.message),
    ...("value" in x ? { value: excerpt(x.value) } : {}),
  }))
  if (e.code === "validation" || e.status === 400 || e.status === 422) {
    sendError(res, 400, MedusaError.Types.INVALID_DATA, scrub(e.detail || e.title || "The Sales Tax Service rejected the request"), errors)
    return
  }
  // the service's 404 text names its own path (and so the connection): not shown
  if (e.status === 404) return sendError(res, 404, MedusaError.Types.NOT_FOUND, `Not found at the Sales Tax Service (${e.operation})`)
  if (e.status === 401 || e.status === 403)
    return sendError(
      res,
      502,
      MedusaError.Types.UNEXPECTED_STATE,
      "The Sales Tax Service refused the plugin's credentials: check apiKey and connectionId in the plugin options",
      undefined,
      "sales_tax_credentials",
    )
  sendError(
    res,
    503,
    MedusaError.Types.UNEXPECTED_STATE,
    `The Sales Tax Service is unavailable (${e.code === "http" ? `status ${e.status}` : e.code}); try again shortly`,
    undefined,
    "sales_tax_unavailable",
  )
}

type Handler<R extends MedusaRequest> = (req: R, res: MedusaResponse) => Promise<void>

/** Catches service failures and bad plugin options; anything else goes to Medusa's error handler. */
export function handle<R extends MedusaRequest = MedusaRequest>(fn: Handler<R>): Handler<R> {
  return async (req, res) => {
    try {
      await fn(req, res)
    } catch (e) {
      if (e instanceof SalesTaxError) return sendServiceError(res, e, (t) => serviceText(req.scope, t))
      if (e instanceof PluginOptionsError) {
        return sendError(res, 500, MedusaError.Types.UNEXPECTED_STATE, e.message, undefined, "sales_tax_options")
      }
      throw e
    }
  }
}

/** The validated body (set by validateBodyLocated in the route's middleware). */
export function bodyOf<T>(req: MedusaRequest, schema: z.ZodType<T>): T {
  const v: unknown = req.validatedBody
  if (v !== undefined) return v as T
  const parsed = schema.safeParse(req.body)
  if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, "Invalid request body")
  return parsed.data
}

export function notFound(res: MedusaResponse, what: string, id: string): void {
  sendError(res, 404, MedusaError.Types.NOT_FOUND, `${what} with id: ${id} was not found`)
}
