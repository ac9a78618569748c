import { randomUUID } from "node:crypto"
import { z } from "zod"
import {
  type Address,
  type CalculateCartsRequest,
  type CalculateCartsResponse,
  type CartOut,
  type CartToOrderRequest,
  type CertificateList,
  type CertificateRecord,
  type CreateCertificateRequest,
  type ErrorDetail,
  type CreateOrderRequest,
  type HealthResponse,
  type OperationId,
  type OrderRecord,
  type PingResponse,
  type RefundRecord,
  type RefundRequest,
  type TicResult,
  type TicSearchResponse,
  type UpdateOrderRequest,
} from "../../../packages/contract/src/index"
import { SalesTaxError, makeRedactor } from "./errors"
import { resolvePolicy, type RetryPolicy } from "./retry"
import { conflict, diffCartToOrder, diffCreateOrder, isDuplicateOrder } from "./compare"
import { callOperation } from "./call"
import { createHttp, type CallContext } from "./transport"
import type { AttemptInfo, CallInput, CallResult, ListCertificatesInput, OperationResponses, SalesTaxClientOptions } from "./types"

export { SalesTaxError, isKeyRefused, isSalesTaxError, refusesCertificate, REDACTED, type SalesTaxErrorCode } from "./errors"
export { buildPath, callIds, segmentProblem } from "./call"
export {
  DEFAULT_RETRY_POLICY,
  DEFAULT_MAX_ELAPSED_MS,
  RETRYABLE_STATUSES,
  backoffDelay,
  parseRetryAfter,
  isRetryable,
  type RetryPolicy,
} from "./retry"
export type { AttemptInfo, CallIds, CallInput, CallResult, ListCertificatesInput, OperationResponses, SalesTaxClientOptions } from "./types"
export { isDuplicateOrder } from "./compare"

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

/** Typed client of the Sales Tax Service (the contract's OPERATIONS, both ways validated); failures are SalesTaxError only. */
export class SalesTaxClient {
  readonly #options: SalesTaxClientOptions
  readonly #background: boolean
  /** what every call reads: the connection, timeout, policy and redactor live here only */
  readonly #call: CallContext
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
    this.#call = {
      http: createHttp(options.baseUrl),
      options,
      connectionId: options.connectionId,
      timeoutMs: this.#background
        ? (options.backgroundTimeoutMs ?? DEFAULT_BACKGROUND_TIMEOUT_MS)
        : (options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      policy: resolvePolicy(options.retry, this.#background),
      redact: makeRedactor([options.apiKey]),
      observed: !!options.onAttempt,
      emit: (info) => this.#emit(info),
    }
  }

  /** The same client (same connection, key, hook) with the background timeout and time budget. */
  background(): SalesTaxClient {
    if (this.#background) return this
    return (this.#backgroundClient ??= new SalesTaxClient(this.#options, BACKGROUND))
  }

  /** The effective settings (no key). */
  get settings(): { baseUrl: string; connectionId: string; timeoutMs: number; retry: RetryPolicy; background: boolean } {
    const { redact, connectionId, timeoutMs, policy } = this.#call
    return { baseUrl: redact(this.#options.baseUrl), connectionId, timeoutMs, retry: { ...policy }, background: this.#background }
  }

  async health(): Promise<HealthResponse> {
    return (await this.call("health", {})).data
  }

  async ping(): Promise<PingResponse> {
    return (await this.call("ping", {})).data
  }

  /** POST carts, with CallInput's `deadline` and `prepared`. */
  async calculateCarts(
    body: CalculateCartsRequest,
    options: Pick<CallInput, "deadline" | "prepared"> = {},
  ): Promise<CalculateCartsResponse> {
    return (await this.call("calculateCarts", { ...options, body })).data
  }

  async getCart(cartId: string): Promise<CartOut> {
    return (await this.call("getCart", { params: { cartId } })).data
  }

  /** Converts a cart to an order, reconciled as #created says (compared with the cart). */
  async cartToOrder(body: CartToOrderRequest): Promise<{ order: OrderRecord; alreadyExisted: boolean }> {
    return this.#created("cartToOrder", body, {}, async (existing) =>
      diffCartToOrder(body, existing, await this.getCart(body.cartId).catch(unless404)),
    )
  }

  /** Records an order, reconciled as #created says (compared with the lines sent). */
  async createOrder(
    body: CreateOrderRequest,
    query?: { addressAutocomplete?: "none" | "origin" | "destination" | "all" },
  ): Promise<{ order: OrderRecord; alreadyExisted: boolean }> {
    const autocomplete = { addressAutocomplete: query?.addressAutocomplete }
    return this.#created("createOrder", body, autocomplete, async (existing) => diffCreateOrder(body, existing))
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

  /** Refunds items (none: the whole order) under the caller's or a generated idempotency key; `replayed`: the key was known. */
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
    const connectionId = query.connectionId === undefined ? this.#call.connectionId : (query.connectionId ?? undefined)
    return (await this.call("listCertificates", { query: { ...query, connectionId } })).data
  }

  /** Every certificate matching the filters, page after page (follows nextCursor). */
  certificates(query: Partial<ListCertificatesInput> = {}): AsyncIterable<CertificateRecord> {
    return pages("listCertificates", query.cursor, (cursor) => this.listCertificates({ ...query, cursor }))
  }

  async searchTics(body: { query: string; limit?: number; cursor?: string }): Promise<TicSearchResponse> {
    return (await this.call("searchTics", { body })).data
  }

  /** Every TIC result for a query, most relevant first, fetched pageSize at a time. */
  tics(query: string, pageSize = 25): AsyncIterable<TicResult> {
    return pages("searchTics", undefined, async (cursor) => {
      const page = await this.searchTics({ query, limit: pageSize, cursor })
      return { items: page.results, nextCursor: page.nextCursor }
    })
  }

  /** The address as the service normalizes it; an address it cannot verify is a 422 SalesTaxError with located errors. */
  async verifyAddress(address: Address): Promise<Address> {
    return (await this.call("verifyAddress", { body: address })).data
  }

  /** Any operation, validated and retried (callOperation). */
  async call<Op extends OperationId>(operation: Op, input: CallInput = {}): Promise<CallResult<OperationResponses[Op]>> {
    return callOperation(this.#call, operation, input)
  }

  /**
   * A creation call; when its orderId exists (a lost answer), that order is read and `diff`ed: the same → `alreadyExisted`,
   * else a conflict.
   */
  async #created(
    operation: "cartToOrder" | "createOrder",
    body: { orderId: string },
    query: CallInput["query"],
    diff: (existing: OrderRecord) => Promise<ErrorDetail[]>,
  ): Promise<{ order: OrderRecord; alreadyExisted: boolean }> {
    try {
      return { order: (await this.call(operation, { body, query })).data, alreadyExisted: false }
    } catch (err) {
      if (!isDuplicateOrder(err)) throw err
      // a 404: the 400 was not "orderId exists" after all (no such order): the original error
      const existing = await this.getOrder(body.orderId).catch((e: unknown) => Promise.reject(unless404(e) ?? err))
      const differences = await diff(existing)
      if (differences.length) throw conflict(operation, body.orderId, differences, this.#call.redact)
      return { order: existing, alreadyExisted: true }
    }
  }

  #emit(info: AttemptInfo): void {
    const hook = this.#options.onAttempt
    if (!hook) return
    try {
      const r: unknown = hook(this.#call.redact(info))
      // an async hook that rejects must not become an unhandled rejection
      if (r && typeof (r as Promise<unknown>).then === "function") (r as Promise<unknown>).then(undefined, () => undefined)
    } catch {
      // a broken hook must not change the outcome of a call
    }
  }

  /** util.inspect / console.log of the client show no key. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `SalesTaxClient { baseUrl: ${JSON.stringify(this.settings.baseUrl)}, connectionId: ${JSON.stringify(this.#call.connectionId)}, background: ${this.#background} }`
  }

  toJSON(): Record<string, unknown> {
    return { ...this.settings }
  }
}

/** undefined for a 404 SalesTaxError; any other error is thrown again. */
function unless404(e: unknown): undefined {
  if (e instanceof SalesTaxError && e.status === 404) return undefined
  throw e
}

/** Every item of a paged list, following nextCursor; a cursor returned twice is an invalid answer. */
async function* pages<T>(
  operation: OperationId,
  first: string | undefined,
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | null }>,
): AsyncIterable<T> {
  const seen = new Set<string>()
  for (let cursor = first; ;) {
    const { items, nextCursor } = await page(cursor)
    yield* items
    if (!nextCursor) return
    if (seen.has(nextCursor)) {
      throw new SalesTaxError({
        operation,
        code: "response_validation",
        title: "Invalid response",
        detail: "the service returned a cursor it had already returned",
      })
    }
    seen.add((cursor = nextCursor))
  }
}
