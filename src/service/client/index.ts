import axios, { type AxiosInstance, type AxiosResponse } from "axios"
import { randomUUID } from "node:crypto"
import { z } from "zod"
import {
  OPERATIONS,
  ErrorDetail as ErrorDetailSchema,
  issuesToErrors,
  locate,
  type Address,
  type CalculateCartsRequest,
  type CalculateCartsResponse,
  type CartOut,
  type CartToOrderRequest,
  type CertificateList,
  type CertificateRecord,
  type CreateCertificateRequest,
  type CreateOrderRequest,
  type ErrorDetail,
  type HealthResponse,
  type OperationId,
  type OrderRecord,
  type PingResponse,
  type RefundRecord,
  type RefundRequest,
  type TicResult,
  type TicSearchResponse,
  type UpdateOrderRequest,
} from "../contract"
import { SalesTaxError, makeRedactor, type SalesTaxErrorCode } from "./errors"
import { isRetryable, nextDelay, parseRetryAfter, resolvePolicy, type FailureKind, type RetryPolicy } from "./retry"
import { diffCartToOrder, diffCreateOrder } from "./compare"
import { buildPath } from "./path"

export { SalesTaxError, isSalesTaxError, REDACTED, type SalesTaxErrorCode } from "./errors"
export { buildPath, segmentProblem } from "./path"
export {
  DEFAULT_RETRY_POLICY,
  DEFAULT_MAX_ELAPSED_MS,
  RETRYABLE_STATUSES,
  backoffDelay,
  parseRetryAfter,
  isRetryable,
  type RetryPolicy,
} from "./retry"

/** One attempt of one operation, reported to `onAttempt`. Never holds headers, bodies or the key. */
export interface AttemptInfo {
  operation: OperationId
  /** 1 for the first attempt. */
  attempt: number
  /** HTTP status, or null when no answer came (timeout, network error). */
  status: number | null
  durationMs: number
  /** Why the attempt failed (redacted), absent on success. */
  error?: string
  /** Whether the client will make another attempt. */
  willRetry: boolean
  /** When willRetry: the wait before the next attempt (at least the server's Retry-After). */
  delayMs?: number
  /** The server's Retry-After, in milliseconds, when it sent one. */
  retryAfterMs?: number
  /** The Medusa ids the call concerned, read from its path and body (the service's ids are Medusa's). */
  ids?: CallIds
  /** The error's title and code (absent on success). */
  errorTitle?: string
  errorCode?: SalesTaxErrorCode
  /** Request and response bodies, only when the client's `attemptBodies` is on (they hold addresses). */
  requestBody?: unknown
  responseBody?: unknown
}

/** cartId / orderId of a call, and the idempotency key of a refund (the Medusa return, edit or claim id). */
export interface CallIds {
  cartId?: string
  orderId?: string
  refundKey?: string
}

/** Pure: the Medusa ids in a call's path parameters and body. */
export function callIds(params: Record<string, string>, body: unknown): CallIds {
  const b = (body && typeof body === "object" ? body : {}) as {
    cartId?: unknown
    orderId?: unknown
    idempotencyKey?: unknown
    items?: unknown
  }
  // POST carts: { items: [cart, …] } (a cart per origin of one Medusa cart: the first names it)
  const firstCart = Array.isArray(b.items) ? (b.items[0] as { cartId?: unknown } | undefined)?.cartId : undefined
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined)
  const ids: CallIds = {}
  const cartId = str(params.cartId) ?? str(b.cartId) ?? str(firstCart)
  const orderId = str(params.orderId) ?? str(b.orderId)
  const refundKey = str(b.idempotencyKey)
  if (cartId) ids.cartId = cartId
  if (orderId) ids.orderId = orderId
  if (refundKey) ids.refundKey = refundKey
  return ids
}

export interface SalesTaxClientOptions {
  baseUrl: string
  apiKey: string
  connectionId: string
  /** Per-attempt timeout on the checkout path. Default 3000. */
  timeoutMs?: number
  /** Per-attempt timeout of `client.background()`. Default 20000. */
  backgroundTimeoutMs?: number
  /** Retry policy (see retry.ts for defaults); false = one attempt only. */
  retry?: Partial<RetryPolicy> | false
  /** Called after every attempt; exceptions it throws are ignored. */
  onAttempt?: (info: AttemptInfo) => void
  /** Hand request and response bodies to `onAttempt` (default false: they hold customer addresses). */
  attemptBodies?: boolean
}

/** List-certificates filters in their natural types (the client writes the query string). */
export interface ListCertificatesInput {
  limit: number
  cursor: string
  ascending: boolean
  sortBy: "id" | "createdDate"
  customerId: string
  disabled: boolean
  /** Defaults to the client's connectionId; null lists every connection the key may see. */
  connectionId: string | null
}

/** Response type of each operation after validation. */
export interface OperationResponses {
  health: HealthResponse
  calculateCarts: CalculateCartsResponse
  cartToOrder: OrderRecord
  getCart: CartOut
  createCertificate: CertificateRecord
  getCertificate: CertificateRecord
  disableCertificate: void
  listCertificates: CertificateList
  createOrder: OrderRecord
  getOrder: OrderRecord
  voidOrder: void
  updateOrder: OrderRecord
  refundOrder: RefundRecord[]
  ping: PingResponse
  searchTics: TicSearchResponse
  verifyAddress: Address
}

export interface CallInput {
  /** Path parameters; connectionId defaults to the client's. */
  params?: Record<string, string>
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  /**
   * When the whole call (attempts and waits) must end, as epoch milliseconds, when that is earlier
   * than the retry policy's budget: each attempt's timer is the smaller of the attempt timeout and
   * what is left. A call with no time left sends nothing and fails as a timeout.
   */
  deadline?: number
  /**
   * A body the caller built valid by construction and serialized already (to hash it, say): `json`
   * is JSON.stringify of the same data as `body`. It is sent as is, neither validated nor serialized
   * again; should it be invalid after all, the service answers 422 with the same located errors the
   * client's own check gives, one round trip later. Other callers leave it out: their body is
   * validated before anything is sent.
   */
  prepared?: { json: string }
}

export interface CallResult<T> {
  data: T
  status: number
  headers: Record<string, string>
}

const OptionsSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL" }),
  apiKey: z.string().min(1, "apiKey is required"),
  connectionId: z.string().min(36, "connectionId must be at least 36 characters"),
  timeoutMs: z.number().int().positive().optional(),
  backgroundTimeoutMs: z.number().int().positive().optional(),
})

export const DEFAULT_TIMEOUT_MS = 3_000
export const DEFAULT_BACKGROUND_TIMEOUT_MS = 20_000

const BACKGROUND = Symbol("background")

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

type Outcome = { ok: true; res: AxiosResponse<string> } | { ok: false; failure: FailureKind; message: string }

/**
 * Typed client of the Sales Tax Service v3. Every operation is built from the wire contract's
 * OPERATIONS table: the request is validated before anything is sent, the answer is validated
 * against the operation's response schema. Failures are SalesTaxError, never an axios error.
 */
export class SalesTaxClient {
  readonly #http: AxiosInstance
  readonly #options: SalesTaxClientOptions
  readonly #connectionId: string
  readonly #timeoutMs: number
  readonly #policy: RetryPolicy
  readonly #background: boolean
  readonly #redact: <T>(v: T) => T
  readonly #onAttempt: ((info: AttemptInfo) => void) | undefined
  #backgroundClient: SalesTaxClient | undefined

  constructor(options: SalesTaxClientOptions, mode?: typeof BACKGROUND) {
    const checked = OptionsSchema.safeParse(options)
    if (!checked.success) {
      // messages only: never the input values (one of them is the key)
      throw new TypeError(
        `invalid SalesTaxClient options: ${checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      )
    }
    this.#options = options
    this.#background = mode === BACKGROUND
    this.#connectionId = options.connectionId
    this.#timeoutMs = this.#background
      ? (options.backgroundTimeoutMs ?? DEFAULT_BACKGROUND_TIMEOUT_MS)
      : (options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
    this.#policy = resolvePolicy(options.retry, this.#background)
    this.#redact = makeRedactor([options.apiKey])
    this.#onAttempt = options.onAttempt
    this.#http = axios.create({
      baseURL: options.baseUrl.replace(/\/+$/, ""),
      responseType: "text",
      transformResponse: [(d: unknown) => d],
      validateStatus: () => true,
      maxRedirects: 0, // a redirect must not carry the key to another host
      timeout: 0, // the client's own timer (below) bounds the whole attempt
      headers: { accept: "application/json, application/problem+json" },
    })
  }

  /** The same client (same connection, key, hook) with the background timeout and time budget. */
  background(): SalesTaxClient {
    if (this.#background) return this
    return (this.#backgroundClient ??= new SalesTaxClient(this.#options, BACKGROUND))
  }

  /** The effective settings (no key). */
  get settings(): { baseUrl: string; connectionId: string; timeoutMs: number; retry: RetryPolicy; background: boolean } {
    return {
      baseUrl: this.#redact(this.#options.baseUrl),
      connectionId: this.#connectionId,
      timeoutMs: this.#timeoutMs,
      retry: { ...this.#policy },
      background: this.#background,
    }
  }

  // -------------------------------------------------------------------------------------------
  // Operations
  // -------------------------------------------------------------------------------------------

  async health(): Promise<HealthResponse> {
    return (await this.call("health", {})).data
  }

  async ping(): Promise<PingResponse> {
    return (await this.call("ping", {})).data
  }

  /**
   * POST carts. `deadline` (epoch ms) ends the whole call earlier than the retry budget; `prepared`
   * is a body built valid and serialized by the caller (both: CallInput).
   */
  async calculateCarts(
    body: CalculateCartsRequest,
    options: { deadline?: number; prepared?: { json: string } } = {},
  ): Promise<CalculateCartsResponse> {
    return (await this.call("calculateCarts", { body, deadline: options.deadline, prepared: options.prepared })).data
  }

  async getCart(cartId: string): Promise<CartOut> {
    return (await this.call("getCart", { params: { cartId } })).data
  }

  /**
   * Converts a cart to an order. Retried like any idempotent call; when the service answers that
   * the orderId exists (a lost answer to an earlier attempt, or an earlier call), the order is
   * fetched and compared with the cart: same → `alreadyExisted: true`, else a conflict error.
   */
  async cartToOrder(body: CartToOrderRequest): Promise<{ order: OrderRecord; alreadyExisted: boolean }> {
    try {
      const order = (await this.call("cartToOrder", { body })).data
      return { order, alreadyExisted: false }
    } catch (err) {
      if (!isDuplicateOrder(err)) throw err
      const existing = await this.#existingOrder("cartToOrder", body.orderId, err)
      let cart: CartOut | undefined
      try {
        cart = await this.getCart(body.cartId)
      } catch (e) {
        if (!(e instanceof SalesTaxError && e.status === 404)) throw e
      }
      const diff = diffCartToOrder(body, existing, cart)
      if (diff.length) throw conflict("cartToOrder", body.orderId, diff, this.#redact)
      return { order: existing, alreadyExisted: true }
    }
  }

  /** Records an order. Same "already created" reconciliation as cartToOrder, comparing the lines sent. */
  async createOrder(
    body: CreateOrderRequest,
    query?: { addressAutocomplete?: "none" | "origin" | "destination" | "all" },
  ): Promise<{ order: OrderRecord; alreadyExisted: boolean }> {
    try {
      const order = (await this.call("createOrder", { body, query: { addressAutocomplete: query?.addressAutocomplete } })).data
      return { order, alreadyExisted: false }
    } catch (err) {
      if (!isDuplicateOrder(err)) throw err
      const existing = await this.#existingOrder("createOrder", body.orderId, err)
      const diff = diffCreateOrder(body, existing)
      if (diff.length) throw conflict("createOrder", body.orderId, diff, this.#redact)
      return { order: existing, alreadyExisted: true }
    }
  }

  async getOrder(orderId: string, opts?: { expandRefunds?: boolean }): Promise<OrderRecord> {
    return (await this.call("getOrder", { params: { orderId }, query: { expand: opts?.expandRefunds ? "refunds" : undefined } })).data
  }

  async updateOrder(orderId: string, body: UpdateOrderRequest): Promise<OrderRecord> {
    return (await this.call("updateOrder", { params: { orderId }, body })).data
  }

  async voidOrder(orderId: string): Promise<void> {
    await this.call("voidOrder", { params: { orderId } })
  }

  /**
   * Refunds items of an order (no items: the whole order). Always sent with an idempotency key:
   * the caller's, or a generated UUID, returned so the caller can store it and repeat safely.
   * `replayed` is true when the service answered 200 (the key had already been recorded — by an
   * earlier call, or by an earlier attempt of this one whose answer was lost).
   */
  async refundOrder(orderId: string, body: RefundRequest): Promise<{ refunds: RefundRecord[]; idempotencyKey: string; replayed: boolean }> {
    const idempotencyKey = body?.idempotencyKey ?? randomUUID()
    const res = await this.call("refundOrder", { params: { orderId }, body: { ...(body ?? {}), idempotencyKey } })
    return { refunds: res.data, idempotencyKey, replayed: res.status === 200 }
  }

  async createCertificate(body: CreateCertificateRequest): Promise<CertificateRecord> {
    return (await this.call("createCertificate", { body })).data
  }

  async getCertificate(id: string): Promise<CertificateRecord> {
    return (await this.call("getCertificate", { params: { id } })).data
  }

  async disableCertificate(id: string): Promise<void> {
    await this.call("disableCertificate", { params: { id } })
  }

  async listCertificates(query: Partial<ListCertificatesInput> = {}): Promise<CertificateList> {
    const connectionId = query.connectionId === undefined ? this.#connectionId : (query.connectionId ?? undefined)
    return (
      await this.call("listCertificates", {
        query: {
          limit: query.limit,
          cursor: query.cursor,
          ascending: query.ascending,
          sortBy: query.sortBy,
          customerId: query.customerId,
          disabled: query.disabled,
          connectionId,
        },
      })
    ).data
  }

  /** Every certificate matching the filters, page after page (follows nextCursor). */
  async *certificates(query: Partial<ListCertificatesInput> = {}): AsyncIterable<CertificateRecord> {
    let cursor = query.cursor
    const seen = new Set<string>()
    for (;;) {
      const page = await this.listCertificates({ ...query, cursor })
      yield* page.items
      if (!page.nextCursor) return
      if (seen.has(page.nextCursor)) throw cursorLoop("listCertificates")
      seen.add(page.nextCursor)
      cursor = page.nextCursor
    }
  }

  async searchTics(body: { query: string; limit?: number; cursor?: string }): Promise<TicSearchResponse> {
    return (await this.call("searchTics", { body })).data
  }

  /** Every TIC result for a query, most relevant first, fetched pageSize at a time. */
  async *tics(query: string, pageSize = 25): AsyncIterable<TicResult> {
    let cursor: string | undefined
    const seen = new Set<string>()
    for (;;) {
      const page = await this.searchTics({ query, limit: pageSize, cursor })
      yield* page.results
      if (!page.nextCursor) return
      if (seen.has(page.nextCursor)) throw cursorLoop("searchTics")
      seen.add(page.nextCursor)
      cursor = page.nextCursor
    }
  }

  /** The address as the service normalizes it; an address it cannot verify is a 422 SalesTaxError with located errors. */
  async verifyAddress(address: Address): Promise<Address> {
    return (await this.call("verifyAddress", { body: address })).data
  }

  // -------------------------------------------------------------------------------------------
  // The one generic call
  // -------------------------------------------------------------------------------------------

  /**
   * Validates the request with the operation's schemas (a bad request throws a "validation"
   * SalesTaxError and sends nothing), sends it with retries per the policy, validates the answer.
   */
  async call<Op extends OperationId>(operation: Op, input: CallInput = {}): Promise<CallResult<OperationResponses[Op]>> {
    const op = OPERATIONS[operation]
    const params: Record<string, string> = { ...(input.params ?? {}) }
    if (op.path.includes(":connectionId") && params.connectionId === undefined) params.connectionId = this.#connectionId
    const query: Record<string, string> = {}
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query[k] = String(v)

    // ---- request validation: nothing leaves the client unless every part is valid
    const errors: ErrorDetail[] = []
    if (op.params) {
      const r = op.params.safeParse(params)
      if (!r.success) errors.push(...issuesToErrors("path", r.error, params))
    }
    if (op.query) {
      const r = op.query.safeParse(query)
      if (!r.success) errors.push(...issuesToErrors("query", r.error, query))
    }
    if (op.body && !input.prepared) {
      const r = op.body.safeParse(input.body)
      if (!r.success) errors.push(...issuesToErrors("body", r.error, input.body))
    }
    // every parameter is one encoded segment; empty and dot segments are refused (never resolved by the URL parser)
    const built = buildPath(op.path, params)
    if ("errors" in built) {
      for (const e of built.errors) if (!errors.some((x) => x.location === e.location)) errors.push(e)
    }
    if (errors.length || !("path" in built)) {
      throw new SalesTaxError({
        operation,
        status: null,
        title: "Invalid request",
        detail: "the request was not sent: it does not match the service's schema",
        errors: this.#redact(errors),
        retryable: false,
        code: "validation",
        attempts: 0,
      })
    }

    const path = built.path
    const started = Date.now()
    const budget = started + this.#policy.maxElapsedMs
    const deadline = input.deadline !== undefined && input.deadline < budget ? input.deadline : budget
    for (let attempt = 1; ; attempt++) {
      const remaining = deadline - Date.now()
      if (remaining <= 0 && attempt === 1) {
        // the caller's time is up before anything was sent
        throw new SalesTaxError({
          operation,
          status: null,
          title: "Timeout",
          detail: "no time left for the call: its deadline had passed before it was sent",
          retryable: false,
          code: "timeout",
          attempts: 0,
        })
      }
      const timeout = Math.max(1, Math.min(this.#timeoutMs, remaining))
      const t0 = Date.now()
      const outcome = await this.#send(op.method, path, query, op.body ? input.body : undefined, op.auth, timeout, input.prepared?.json)
      const durationMs = Date.now() - t0

      let err: SalesTaxError
      let retryAfterMs: number | undefined
      if (outcome.ok && outcome.res.status >= 200 && outcome.res.status < 300) {
        const res = outcome.res
        const parsed = this.#parseResponse(operation, op.response, res)
        if (parsed.ok) {
          if (this.#onAttempt) {
            const ok: AttemptInfo = {
              operation,
              attempt,
              status: res.status,
              durationMs,
              willRetry: false,
              ids: callIds(params, input.body),
            }
            if (this.#options.attemptBodies) Object.assign(ok, { requestBody: input.body, responseBody: res.data })
            this.#emit(ok)
          }
          return { data: parsed.data as OperationResponses[Op], status: res.status, headers: flatHeaders(res.headers) }
        }
        err = parsed.error
      } else if (outcome.ok) {
        const res = outcome.res
        retryAfterMs = parseRetryAfter(headerOf(res.headers, "retry-after"))
        err = this.#httpError(operation, res, isRetryable(operation, { kind: "status", status: res.status }))
      } else {
        const code: SalesTaxErrorCode = outcome.failure.kind === "timeout" ? "timeout" : "network"
        err = new SalesTaxError({
          operation,
          status: null,
          code,
          retryable: isRetryable(operation, outcome.failure),
          title: code === "timeout" ? "Timeout" : "Network error",
          detail: this.#redact(outcome.message),
        })
      }

      let willRetry = err.retryable && attempt < this.#policy.maxAttempts
      let delayMs: number | undefined
      if (willRetry) {
        delayMs = nextDelay(attempt, this.#policy, retryAfterMs)
        // no point in waiting past the budget: give up now instead
        if (Date.now() + delayMs >= deadline) willRetry = false
      }
      const info: AttemptInfo = {
        operation,
        attempt,
        status: err.status,
        durationMs,
        error: err.message,
        willRetry,
        errorTitle: err.title,
        errorCode: err.code,
      }
      if (this.#onAttempt) {
        info.ids = callIds(params, input.body)
        if (this.#options.attemptBodies)
          Object.assign(info, { requestBody: input.body, responseBody: outcome.ok ? outcome.res.data : undefined })
      }
      if (willRetry) info.delayMs = delayMs
      if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs
      this.#emit(info)
      if (!willRetry) {
        throw new SalesTaxError({
          operation,
          status: err.status,
          title: err.title,
          detail: err.detail,
          errors: err.errors,
          retryable: err.retryable,
          code: err.code,
          attempts: attempt,
        })
      }
      await sleep(delayMs!)
    }
  }

  // -------------------------------------------------------------------------------------------
  // Internals
  // -------------------------------------------------------------------------------------------

  async #send(
    method: string,
    url: string,
    query: Record<string, string>,
    body: unknown,
    auth: boolean,
    timeoutMs: number,
    bodyJson?: string,
  ): Promise<Outcome> {
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    try {
      const res = await this.#http.request<string>({
        method,
        url,
        params: Object.keys(query).length ? query : undefined,
        data: body === undefined ? undefined : (bodyJson ?? JSON.stringify(body)),
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(auth ? { "x-api-key": this.#options.apiKey } : {}),
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
        message: this.#redact(code && !message.includes(code) ? `${code}: ${message}` : message),
      }
    } finally {
      clearTimeout(timer)
    }
  }

  #parseResponse(
    operation: OperationId,
    schema: z.ZodType | undefined,
    res: AxiosResponse<string>,
  ): { ok: true; data: unknown } | { ok: false; error: SalesTaxError } {
    if (!schema || res.status === 204) return { ok: true, data: undefined }
    const bad = (detail: string, errors: ErrorDetail[] = []) => ({
      ok: false as const,
      error: new SalesTaxError({
        operation,
        status: res.status,
        title: "Invalid response",
        detail,
        errors: this.#redact(errors),
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

  #httpError(operation: OperationId, res: AxiosResponse<string>, retryable: boolean): SalesTaxError {
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
      title: this.#redact(title),
      detail: detail === undefined ? undefined : this.#redact(detail),
      errors: this.#redact(errors),
      retryable,
      code: "http",
    })
  }

  async #existingOrder(operation: OperationId, orderId: string, original: SalesTaxError): Promise<OrderRecord> {
    try {
      return await this.getOrder(orderId)
    } catch (e) {
      // the 400 was not "orderId exists" after all (no such order): report the original error
      if (e instanceof SalesTaxError && e.status === 404) throw original
      throw e
    }
  }

  #emit(info: AttemptInfo): void {
    if (!this.#onAttempt) return
    try {
      const r: unknown = this.#onAttempt(this.#redact(info))
      // an async hook that rejects must not become an unhandled rejection
      if (r && typeof (r as Promise<unknown>).then === "function") (r as Promise<unknown>).then(undefined, () => undefined)
    } catch {
      // a broken hook must not change the outcome of a call
    }
  }

  /** util.inspect / console.log of the client show no key. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `SalesTaxClient { baseUrl: ${JSON.stringify(this.settings.baseUrl)}, connectionId: ${JSON.stringify(this.#connectionId)}, background: ${this.#background} }`
  }

  toJSON(): Record<string, unknown> {
    return { ...this.settings }
  }
}

/** The service's answer to a duplicate orderId on creation: a 400 that names the orderId. */
export function isDuplicateOrder(err: unknown): err is SalesTaxError {
  if (!(err instanceof SalesTaxError) || err.code !== "http" || err.status !== 400) return false
  if (err.errors.some((e) => /(^|\.)orderId$/.test(e.location))) return true
  const text = `${err.title} ${err.detail ?? ""}`
  return /orderId/i.test(text) && /(exist|duplicate|already|in use)/i.test(text)
}

function conflict(operation: OperationId, orderId: string, errors: ErrorDetail[], redact: <T>(v: T) => T): SalesTaxError {
  return new SalesTaxError({
    operation,
    status: 409,
    code: "http",
    retryable: false,
    title: "Conflict",
    detail: redact(`an order ${JSON.stringify(orderId)} already exists at the service and differs from this request`),
    errors: redact(errors),
  })
}

function cursorLoop(operation: OperationId): SalesTaxError {
  return new SalesTaxError({
    operation,
    status: null,
    code: "response_validation",
    retryable: false,
    title: "Invalid response",
    detail: "the service returned a cursor it had already returned",
  })
}

function headerOf(headers: AxiosResponse["headers"], name: string): string | undefined {
  const v = (headers as Record<string, unknown>)[name]
  if (typeof v === "string") return v
  if (Array.isArray(v) && typeof v[0] === "string") return v[0]
  if (typeof v === "number") return String(v)
  return undefined
}

function flatHeaders(headers: AxiosResponse["headers"]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof v === "string") out[k.toLowerCase()] = v
    else if (Array.isArray(v)) out[k.toLowerCase()] = v.join(", ")
    else if (typeof v === "number") out[k.toLowerCase()] = String(v)
  }
  return out
}
