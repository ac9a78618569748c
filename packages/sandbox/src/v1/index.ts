/**
 * Legacy version 1 of the Sales Tax Service in the sandbox: POST /1.0/{segment}/{Operation} for the
 * 18 operations (the segment stands for the provider's name: `Service`, or any other single
 * segment, any case), on the same domain (engine + store + connections) as version 3. Registered by the sandbox app
 * (src/sandbox/app.ts) in its own encapsulated Fastify context: the form-body and lenient JSON
 * parsers and the "always HTTP 200" error handler below apply to these routes only, so version 3
 * stays JSON-only with problem+json errors.
 *
 * See docs/sandbox-v1.md.
 */
import formbody from "@fastify/formbody"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import type { SandboxContext } from "../app"
import type { SandboxConnection } from "../connections"
import { applyFault } from "../faults"
import { SandboxError } from "../problem"
import { V1Accounts } from "./accounts"
import { v1ControlKey, type V1OperationName } from "./names"
import { lowerKeys, looksLikeForm, parseFormBody, queryParam, type Bag } from "./normalize"
import {
  OPERATION_NAMES,
  RT,
  V1Failure,
  findOperation,
  sandboxErrorMessages,
  zodMessages,
  type OpDef,
  type OpEnv,
  type OpResult,
  type OpStyle,
} from "./operations"

export { OPERATIONS_V1, OPERATION_NAMES, WHOLE_RETURN_TWICE, findOperation } from "./operations"
export { V1Accounts } from "./accounts"

/** A body that could not be read; the handler answers ResponseType 0 with the reason. */
class Malformed {
  constructor(readonly reason: string) {}
}

/** Message when the credentials are missing or do not match a connection (never echoes them). */
export const BAD_CREDENTIALS = "Invalid apiLoginID or apiKey"
export const MISSING_CREDENTIALS = "apiLoginID and apiKey are required (apiKey may also be sent in the query string)"
/** Message of an unexpected exception (the fuzz test asserts it never appears). */
export const INTERNAL = "unexpected sandbox error"

function parseJsonText(text: string): unknown {
  if (text.trim() === "") return undefined
  try {
    return lowerKeys(JSON.parse(text))
  } catch {
    return new Malformed("the body is not valid JSON")
  }
}

/** Any content type other than JSON and form: sniffed (JSON object, form pairs), XML refused. */
function parseOther(contentType: string | undefined, text: string): unknown {
  if (text.trim() === "") return undefined
  const t = text.trimStart()
  if (/xml/i.test(contentType ?? "") || t.startsWith("<"))
    return new Malformed("SOAP/XML bodies are not supported by the sandbox: send JSON or form-encoded bodies")
  if (t.startsWith("{") || t.startsWith("[")) return parseJsonText(text)
  if (looksLikeForm(text)) return lowerKeys(parseFormBody(text))
  return new Malformed("the body is neither JSON nor form-encoded")
}

function messagesOf(style: OpStyle, level: number, messages: string[]): unknown[] {
  return style === "partner" ? messages : messages.map((Message) => ({ ResponseType: level, Message }))
}

/** The address fields every VerifyAddress answer carries (null when the address was not verified). */
export const NO_ADDRESS = { Address1: null, Address2: null, City: null, State: null, Zip5: null, Zip4: null } as const

/** The answer of a failed operation in the style of that operation. */
export function failureBody(style: OpStyle, messages: string[], errNumber = "2"): Record<string, unknown> {
  if (style === "verify") return { ...NO_ADDRESS, ErrNumber: errNumber, ErrDescription: messages.join("; ") }
  return { ResponseType: RT.error, Messages: messagesOf(style, RT.error, messages) }
}

function successBody(style: OpStyle, r: OpResult): Record<string, unknown> {
  if (style === "verify") return r.fields
  const level = r.level ?? RT.ok
  return { ...r.fields, ResponseType: level, Messages: messagesOf(style, level, r.messages ?? []) }
}

function styleOf(req: FastifyRequest): OpStyle {
  const op = (req.params as { operation?: string } | undefined)?.operation
  return (op && findOperation(op)?.style) || "standard"
}

/** `?apiKey=secret` (any case of the name) → `?apiKey=[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]apikey=)[^&#]*/gi, "$1[redacted]")
}

function serializeRequest(req: FastifyRequest): Record<string, unknown> {
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip }
}

const asText = (v: unknown): string | undefined =>
  typeof v === "string" ? v.trim() : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined

export default async function v1Routes(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  const accounts = new V1Accounts(ctx.store)

  // Body parsers of this context only (the root accepts application/json alone).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    done(null, parseJsonText(typeof body === "string" ? body : body.toString("utf8")))
  })
  await app.register(formbody, { parser: (text: string) => lowerKeys(parseFormBody(text)) as Record<string, unknown> })
  app.addContentTypeParser("*", { parseAs: "string" }, (req, body, done) => {
    done(null, parseOther(req.headers["content-type"], typeof body === "string" ? body : body.toString("utf8")))
  })

  // Whatever goes wrong (body too large, bad Content-Length, a bug): HTTP 200 and ResponseType 0.
  app.setErrorHandler((err, req, reply) => {
    const e = err as { statusCode?: number; code?: string; message?: string }
    const status = typeof e.statusCode === "number" ? e.statusCode : 500
    let message: string
    if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") message = "the body is too large"
    else if (status >= 400 && status < 500) message = `malformed request (${e.code ?? status})`
    else {
      req.log.error({ err: { message: e.message, code: e.code } }, "unexpected error in a v1 operation")
      message = INTERNAL
    }
    return reply.code(200).send(failureBody(styleOf(req), [message]))
  })

  /**
   * The connection of the request's credentials, or the message refusing them. `keyAlone`
   * (VerifyAddress, as the real service answered it): without an apiLoginID, a key that identifies
   * exactly one account is enough; a key shared by several accounts still needs the login.
   */
  function credentials(body: Bag, query: unknown, keyAlone: boolean): SandboxConnection | string {
    const login = asText(body.apiloginid) ?? queryParam(query, "apiLoginID")
    const key = asText(body.apikey) ?? queryParam(query, "apiKey")
    if (!login && key && keyAlone) {
      const granted = ctx.connections.forApiKey(key)
      if (granted.length === 1) return granted[0]!
      return granted.length === 0 ? BAD_CREDENTIALS : MISSING_CREDENTIALS
    }
    if (!login || !key) return MISSING_CREDENTIALS
    return ctx.connections.forLogin(login, key) ?? BAD_CREDENTIALS
  }

  function execute(def: OpDef, rawBody: unknown, query: unknown): Record<string, unknown> {
    if (rawBody instanceof Malformed) return failureBody(def.style, [rawBody.reason])
    const body: unknown = rawBody === undefined ? Object.create(null) : rawBody
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return failureBody(def.style, ["the body must be a JSON object or a form-encoded body"])
    }
    const conn = credentials(body as Bag, query, def.style === "verify")
    if (typeof conn === "string") return failureBody(def.style, [conn], "1")
    const parsed = def.schema.safeParse(body)
    if (!parsed.success) return failureBody(def.style, zodMessages(parsed.error))
    const env: OpEnv = { ctx, conn, accounts }
    try {
      return successBody(def.style, def.run(env, parsed.data))
    } catch (e) {
      if (e instanceof V1Failure) return failureBody(def.style, e.messages, e.errNumber)
      if (e instanceof SandboxError) return failureBody(def.style, sandboxErrorMessages(e))
      throw e
    }
  }

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    // any single segment stands for the provider's name (real clients send theirs; the interface says Service)
    const { operation } = req.params as { segment: string; operation: string }
    reply.code(200)
    const def = findOperation(operation)
    if (!def) {
      return failureBody("standard", [`unknown operation ${JSON.stringify(operation.slice(0, 60))}: one of ${OPERATION_NAMES.join(", ")}`])
    }
    // counted and faulted like a v3 operation, under "v1.<Operation>"
    const key = v1ControlKey(def.name as V1OperationName)
    ctx.controls.count(key)
    const fault = ctx.controls.take(key)
    if (fault && fault.phase === "before" && (await applyFault(fault, req, reply))) return reply
    const body = req.method !== "POST" ? failureBody(def.style, [`${def.name} is called with POST`]) : execute(def, req.body, req.query)
    if (fault && fault.phase === "after" && (await applyFault(fault, req, reply))) return reply
    return body
  }

  for (const url of ["/1.0/:segment/:operation", "/1.0/:segment/:operation/"]) {
    // the request log line shows the URL: hide an apiKey sent in the query string
    app.route({ method: ["POST", "GET", "PUT", "PATCH", "DELETE"], url, handler, logSerializers: { req: serializeRequest } })
  }
}
