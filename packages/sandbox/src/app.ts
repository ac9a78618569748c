import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify"
import { z } from "zod"
import {
  API_KEY_HEADER,
  OPERATIONS,
  SERVICE_WARNING_HEADER,
  issuesToErrors,
  type CalculateCartsRequest,
  type CartToOrderRequest,
  type CreateCertificateRequest,
  type CreateOrderRequest,
  type ErrorDetail,
  type ListCertificatesQuery,
  type OperationDef,
  type OperationId,
  type RefundRequest,
  type TicSearchRequest,
  type UpdateOrderRequest,
  type Address,
} from "@medusa-sales-tax/contract"
import { SandboxClock } from "./clock"
import { ConnectionRegistry, type SandboxConnection } from "./connections"
import { ClockBodySchema, FaultSpecSchema, SandboxControls } from "./controls"
import { calculateCartsJson } from "./carts-json"
import { SandboxDomain } from "./domain"
import { fastCalculateCartsRequest } from "./fast-carts"
import { applyFault, sendProblem } from "./faults"
import { SandboxError, problem, statusTitle } from "./problem"
import { SandboxStore } from "./store"
import { accountConnections } from "./v1/accounts"

export const DEFAULT_API_KEY = "sandbox-key"
export const DEFAULT_CONNECTION_ID = "00000000-0000-4000-8000-000000000000"
export const DEFAULT_API_LOGIN_ID = "sandbox-login"
/** Largest request body accepted (bytes); larger → 413 problem. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

export interface SandboxOptions {
  /** 0 = ephemeral (the default programmatically). */
  port?: number
  /** default "127.0.0.1" */
  host?: string
  /** default "sandbox-key"; with connectionId forms the default connection */
  apiKey?: string
  /** default "00000000-0000-4000-8000-000000000000" */
  connectionId?: string
  /** extra connections (isolation tests, legacy v1) */
  connections?: { connectionId: string; apiKey: string; apiLoginId?: string }[]
  /** legacy v1 login id of the default connection (default "sandbox-login") */
  apiLoginId?: string
  /** persistence directory (journal); absent = in memory */
  dataDir?: string
  /** Fastify request logging (keys redacted) */
  logger?: boolean
  /** request body limit in bytes (default 1 MiB) */
  bodyLimit?: number
}

/** What extra route plugins (the legacy v1 routes) receive. */
export interface SandboxContext {
  domain: SandboxDomain
  connections: ConnectionRegistry
  clock: SandboxClock
  store: SandboxStore
  controls: SandboxControls
}

export type SandboxPlugin = (app: FastifyInstance, ctx: SandboxContext) => Promise<void> | void

export interface BuildExtras {
  /** Extra route plugins registered after the v3 routes (each in its own encapsulated context). */
  plugins?: SandboxPlugin[]
  /** Load src/sandbox/v1 when present (default true). */
  loadV1?: boolean
}

export interface SandboxApp extends SandboxContext {
  app: FastifyInstance
}

/** The connections from the options: the default one plus `connections`. */
export function connectionsFromOptions(o: SandboxOptions): SandboxConnection[] {
  const first: SandboxConnection = {
    connectionId: o.connectionId ?? DEFAULT_CONNECTION_ID,
    apiKey: o.apiKey ?? DEFAULT_API_KEY,
    apiLoginId: o.apiLoginId ?? DEFAULT_API_LOGIN_ID,
  }
  const extra = (o.connections ?? []).map((c) => ({
    connectionId: c.connectionId,
    apiKey: c.apiKey,
    apiLoginId: c.apiLoginId ?? c.connectionId,
  }))
  return [first, ...extra]
}

/** The legacy v1 routes plugin when src/sandbox/v1 exists (its default export), else null. */
function loadV1Plugin(): SandboxPlugin | null {
  const path = "./v1"
  let mod: { default?: SandboxPlugin } | SandboxPlugin
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(path) as { default?: SandboxPlugin }
  } catch (e) {
    const err = e as { code?: string; message?: string }
    if (err.code === "MODULE_NOT_FOUND" && String(err.message).includes(path)) return null
    throw e
  }
  const fn = typeof mod === "function" ? mod : mod.default
  return typeof fn === "function" ? fn : null
}

/** The URL with the values of apiKey-like query parameters replaced (for logs). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:api[-_]?key|apiloginid|key|token)=)[^&#]*/gi, "$1[redacted]")
}

/** The API key of a request: X-API-KEY, or Authorization: Bearer <key>. */
export function apiKeyOf(req: FastifyRequest): string | undefined {
  const h = req.headers[API_KEY_HEADER]
  const k = Array.isArray(h) ? h[0] : h
  if (k) return k
  const auth = req.headers.authorization
  if (typeof auth === "string") {
    const m = /^bearer\s+(.+)$/i.exec(auth.trim())
    if (m) return m[1]!.trim()
  }
  return undefined
}

function parse<S extends z.ZodType>(schema: S, part: "body" | "path" | "query", input: unknown): z.output<S> {
  const r = schema.safeParse(input)
  if (!r.success) {
    const where = part === "path" ? "path parameters" : part === "query" ? "query parameters" : "request body"
    throw new SandboxError(422, `invalid ${where}`, issuesToErrors(part, r.error, input))
  }
  return r.data
}

/**
 * Builds the sandbox Fastify app (not listening): v3 routes from OPERATIONS, the /_sandbox test
 * controls, the problem+json error handling, and the legacy v1 plugin when present.
 */
export async function buildSandboxApp(options: SandboxOptions = {}, extras: BuildExtras = {}): Promise<SandboxApp> {
  const configured = connectionsFromOptions(options)
  for (const c of configured) {
    if (c.connectionId.length < 36) throw new Error(`connectionId must be at least 36 characters (got ${c.connectionId.length})`)
    if (!c.apiKey) throw new Error("apiKey must not be empty")
  }
  // one registry for v3 and v1: the configured connections and the accounts created at run time
  const opened: { store?: SandboxStore } = {}
  const connections = new ConnectionRegistry(configured, () => (opened.store ? accountConnections(opened.store) : []))
  const store = (opened.store = new SandboxStore(options.dataDir))
  const clock = new SandboxClock()
  const controls = new SandboxControls()
  const domain = new SandboxDomain(store, clock)
  const ctx: SandboxContext = { domain, connections, clock, store, controls }

  const app = Fastify({
    logger: options.logger
      ? {
          level: "info",
          redact: { paths: ["req.headers.authorization", 'req.headers["x-api-key"]', "req.body.apiKey"], censor: "[redacted]" },
          serializers: {
            // legacy clients put apiKey in the query string: never log it
            req: (req: { method?: string; url?: string }) => ({ method: req.method, url: redactUrl(req.url ?? "") }),
          },
        }
      : false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { maxParamLength: 1000 },
    return503OnClosing: true,
    // malformed HTTP (unparsable request line, bad headers): answer a problem and close
    clientErrorHandler: (err, socket) => {
      if (!socket.writable) return void socket.destroy()
      const code = (err as { code?: string }).code
      const status = code === "HPE_HEADER_OVERFLOW" ? 431 : 400
      const body = JSON.stringify(problem(status, "malformed HTTP request"))
      socket.end(
        `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      )
    },
    frameworkErrors: (err, _req, reply) => {
      const status = (err as { statusCode?: number }).statusCode ?? 400
      void sendProblem(reply, new SandboxError(status >= 400 && status < 500 ? status : 400, err.message))
    },
  })
  app.addHook("onClose", async () => store.close())

  // JSON only; an empty JSON body reads as "no body" (a refund with an empty body is allowed).
  const defaultJson = app.getDefaultJsonParser("error", "error")
  app.removeAllContentTypeParsers()
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8")
    if (text.trim() === "") return done(null, undefined)
    // The default parser refuses a "__proto__" key, and a "constructor" key holding a "prototype"
    // one. Without a backslash (no escaped letters) such keys are written as they are, so a text
    // with neither "__proto__" nor "prototype" is parsed directly: the same value, the same
    // refusals (and searching for these is cheap: their first letters are rare in JSON).
    if (text.indexOf("\\") === -1 && text.indexOf("__proto__") === -1 && text.indexOf("prototype") === -1) {
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch {
        return defaultJson(req, text, done) // its error (and a leading byte order mark, which it skips)
      }
      return done(null, value)
    }
    defaultJson(req, text, done)
  })

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof SandboxError) return sendProblem(reply, err)
    const e = err as { statusCode?: number; code?: string; message?: string }
    const status = typeof e.statusCode === "number" ? e.statusCode : 500
    if (status >= 400 && status < 500) {
      const detail =
        e.code === "FST_ERR_CTP_INVALID_JSON_BODY"
          ? "the body is not valid JSON"
          : e.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE"
            ? `unsupported content type ${JSON.stringify(req.headers["content-type"] ?? "")}: send application/json`
            : e.code === "FST_ERR_CTP_BODY_TOO_LARGE"
              ? `the body is larger than ${options.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes`
              : e.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH"
                ? "Content-Length does not match the body"
                : status === 400
                  ? "malformed request"
                  : undefined
      const errors: ErrorDetail[] = e.code === "FST_ERR_CTP_INVALID_JSON_BODY" ? [{ location: "body", message: "not valid JSON" }] : []
      return sendProblem(reply, new SandboxError(status, detail, errors))
    }
    req.log.error({ err: { message: e.message, code: e.code } }, "unhandled sandbox error")
    return sendProblem(reply, new SandboxError(500, "unexpected error in the sandbox"))
  })

  // 404 problem for unknown paths, 405 (with Allow) for a known path and another method.
  const known = Object.values(OPERATIONS).map((d) => ({
    method: d.method,
    re: new RegExp("^" + d.path.replace(/:[A-Za-z]+/g, "[^/]+") + "/?$"),
  }))
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split("?")[0] ?? ""
    const allow = [...new Set(known.filter((k) => k.re.test(path)).map((k) => k.method))]
    if (allow.length) {
      reply.header("allow", allow.join(", "))
      return sendProblem(reply, new SandboxError(405, `${req.method} is not allowed on ${path}; allowed: ${allow.join(", ")}`))
    }
    return sendProblem(reply, new SandboxError(404, `no route ${req.method} ${path}`))
  })

  // ---------------------------------------------------------------------------------------------
  // version 3
  // ---------------------------------------------------------------------------------------------

  const JSON_TYPE = { "content-type": "application/json; charset=utf-8" }
  interface Outcome {
    status: number
    body?: unknown
    headers?: Record<string, string>
  }

  const handlers: Record<
    OperationId,
    (a: { params: any; query: any; body: any; granted: SandboxConnection[]; key: string | undefined }) => Outcome
  > = {
    health: () => ({
      status: 200,
      body: {
        status: "pass",
        components: [
          { type: "database", status: "pass" },
          { type: "tax-engine", status: "pass" },
        ],
      },
    }),
    // the hot path: its answer's bytes written by carts-json.ts (JSON.stringify's text), sent as they are
    calculateCarts: ({ params, body }) => ({
      status: 200,
      body: calculateCartsJson(domain.calculateCarts(params.connectionId, body as CalculateCartsRequest)),
      headers: JSON_TYPE,
    }),
    cartToOrder: ({ params, body }) => ({ status: 201, body: domain.cartToOrder(params.connectionId, body as CartToOrderRequest) }),
    getCart: ({ params }) => ({ status: 200, body: domain.getCart(params.connectionId, params.cartId) }),
    createCertificate: ({ params, body }) => ({
      status: 201,
      body: domain.createCertificate(params.connectionId, body as CreateCertificateRequest),
    }),
    getCertificate: ({ params }) => ({ status: 200, body: domain.getCertificate(params.connectionId, params.id) }),
    disableCertificate: ({ params }) => {
      domain.disableCertificate(params.connectionId, params.id)
      return { status: 204 }
    },
    listCertificates: ({ query, granted }) => {
      const q = query as ListCertificatesQuery
      let conns = granted.map((c) => c.connectionId)
      if (q.connectionId !== undefined) {
        if (!conns.includes(q.connectionId)) {
          throw new SandboxError(403, "the API key does not grant this connection", [
            { location: "query.connectionId", message: "connection not granted to this API key", value: q.connectionId },
          ])
        }
        conns = [q.connectionId]
      }
      return { status: 200, body: domain.listCertificates(conns, q) }
    },
    createOrder: ({ params, query, body }) => ({
      status: 201,
      body: domain.createOrder(params.connectionId, body as CreateOrderRequest, query.addressAutocomplete),
    }),
    getOrder: ({ params, query }) => {
      const expand = typeof query.expand === "string" && query.expand.split(",").some((f: string) => f.trim() === "refunds")
      return { status: 200, body: domain.getOrder(params.connectionId, params.orderId, expand) }
    },
    voidOrder: ({ params }) => {
      domain.voidOrder(params.connectionId, params.orderId)
      return { status: 204 }
    },
    updateOrder: ({ params, body }) => ({
      status: 200,
      body: domain.updateOrder(params.connectionId, params.orderId, (body as UpdateOrderRequest).completedDate),
    }),
    refundOrder: ({ params, body }) => {
      const r = domain.refundOrder(params.connectionId, params.orderId, body as RefundRequest)
      const headers: Record<string, string> = {}
      if (r.withoutKey)
        headers[SERVICE_WARNING_HEADER] = "Refund created without an idempotencyKey; send one so that retries cannot refund twice"
      return { status: r.replayed ? 200 : 201, body: r.refunds, headers }
    },
    ping: () => ({ status: 200, body: { message: "pong" } }),
    searchTics: ({ body }) => {
      const b = body as TicSearchRequest
      return { status: 200, body: domain.searchTics(b.query, b.limit, b.cursor) }
    },
    verifyAddress: ({ body }) => ({ status: 200, body: domain.verifyAddress(body as Address) }),
  }

  /**
   * The connection a request is on, for the counts and connection-targeted faults: the one it
   * names (path, else the certificate list's query), else the only one its API key grants (an
   * operation without a connection in its path, such as verify-address).
   */
  function connectionOf(req: FastifyRequest): string | undefined {
    const p = (req.params as { connectionId?: unknown } | undefined)?.connectionId
    if (typeof p === "string" && p) return p
    const q = (req.query as { connectionId?: unknown } | undefined)?.connectionId
    if (typeof q === "string" && q) return q
    const key = apiKeyOf(req)
    const granted = key ? connections.forApiKey(key) : []
    return granted.length === 1 ? granted[0]!.connectionId : undefined
  }

  function execute(def: OperationDef, req: FastifyRequest): Outcome {
    let key: string | undefined
    let granted: SandboxConnection[] = []
    if (def.auth) {
      key = apiKeyOf(req)
      if (!key)
        throw new SandboxError(401, "missing API key: send it in the X-API-KEY header (or Authorization: Bearer)", [], {
          "www-authenticate": "Bearer",
        })
      granted = connections.forApiKey(key)
      if (granted.length === 0) throw new SandboxError(401, "invalid API key", [], { "www-authenticate": "Bearer" })
    }
    const params = def.params ? parse(def.params, "path", req.params) : {}
    if (def.auth && typeof (params as { connectionId?: unknown }).connectionId === "string") {
      const cid = (params as { connectionId: string }).connectionId
      if (!granted.some((c) => c.connectionId === cid)) {
        throw new SandboxError(403, "the API key does not grant this connection", [
          { location: "path.connectionId", message: "connection not granted to this API key", value: cid },
        ])
      }
    }
    const query = def.query ? parse(def.query, "query", req.query ?? {}) : {}
    let body: unknown = undefined
    if (def.body) {
      const raw = req.body === undefined || req.body === null ? (def.id === "refundOrder" ? {} : req.body) : req.body
      if (raw === undefined)
        throw new SandboxError(422, "a JSON body is required", [{ location: "body", message: "required", value: null }])
      // POST carts, the hot path: a plain valid request skips zod (same value, see fast-carts.ts)
      body = (def.id === "calculateCarts" ? fastCalculateCartsRequest(raw) : undefined) ?? parse(def.body, "body", raw)
    }
    return handlers[def.id]({ params, query, body, granted, key })
  }

  for (const def of Object.values(OPERATIONS)) {
    app.route({
      method: def.method,
      url: def.path,
      handler: async (req, reply) => {
        const connectionId = connectionOf(req)
        controls.count(def.id, connectionId)
        const fault = controls.take(def.id, connectionId)
        if (fault && fault.phase === "before" && (await applyFault(fault, req, reply))) return reply
        let out: Outcome | null = null
        let failure: SandboxError | null = null
        try {
          out = execute(def, req)
        } catch (e) {
          if (e instanceof SandboxError) failure = e
          else throw e
        }
        if (fault && fault.phase === "after" && (await applyFault(fault, req, reply))) return reply
        if (failure) return sendProblem(reply, failure)
        if (out!.headers) for (const k in out!.headers) reply.header(k, out!.headers[k])
        reply.code(out!.status)
        return out!.body === undefined ? reply.send() : reply.send(out!.body)
      },
    })
  }

  // ---------------------------------------------------------------------------------------------
  // test controls
  // ---------------------------------------------------------------------------------------------

  await app.register(async (controlsApp) => {
    controlsApp.addHook("onRequest", async (req) => {
      const key = apiKeyOf(req)
      if (!key) throw new SandboxError(401, "missing API key", [], { "www-authenticate": "Bearer" })
      if (connections.forApiKey(key).length === 0) throw new SandboxError(401, "invalid API key", [], { "www-authenticate": "Bearer" })
    })
    controlsApp.get("/_sandbox/clock", async () => clock.toJSON())
    controlsApp.put("/_sandbox/clock", async (req) => {
      const b = parse(ClockBodySchema, "body", req.body)
      clock.set(new Date(b.now))
      return clock.toJSON()
    })
    controlsApp.delete("/_sandbox/clock", async () => {
      clock.clear()
      return clock.toJSON()
    })
    controlsApp.post("/_sandbox/faults", async (req, reply) => {
      const f = controls.addFault(parse(FaultSpecSchema, "body", req.body))
      return reply.code(201).send({ id: f.id })
    })
    controlsApp.get("/_sandbox/faults", async () => ({ faults: controls.listFaults() }))
    controlsApp.delete("/_sandbox/faults", async (_req, reply) => {
      controls.clearFaults()
      return reply.code(204).send()
    })
    controlsApp.delete<{ Params: { id: string } }>("/_sandbox/faults/:id", async (req, reply) => {
      if (!controls.removeFault(req.params.id)) throw new SandboxError(404, `no fault ${req.params.id}`)
      return reply.code(204).send()
    })
    controlsApp.get("/_sandbox/counts", async () => ({ counts: controls.counts(), byConnection: controls.countsByConnection() }))
    controlsApp.delete("/_sandbox/counts", async (_req, reply) => {
      controls.resetCounts()
      return reply.code(204).send()
    })
    controlsApp.post("/_sandbox/reset", async (_req, reply) => {
      store.clear()
      controls.reset()
      clock.clear()
      return reply.code(204).send()
    })
  })

  // ---------------------------------------------------------------------------------------------
  // legacy v1 and extra plugins
  // ---------------------------------------------------------------------------------------------

  const plugins: SandboxPlugin[] = []
  if (extras.loadV1 !== false) {
    const v1 = loadV1Plugin()
    if (v1) plugins.push(v1)
  }
  plugins.push(...(extras.plugins ?? []))
  for (const p of plugins) {
    await app.register(async (child) => {
      await p(child, ctx)
    })
  }

  await app.ready()
  return { app, ...ctx }
}
