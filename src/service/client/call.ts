// The one generic call of the client: validation (the path built of safe segments), then attempts per the
// policy within the time budget, each reported with the Medusa ids it concerns.
import { setTimeout as sleep } from "node:timers/promises"
import { OPERATIONS, issuesToErrors, type ErrorDetail, type OperationDef, type OperationId } from "../../../packages/contract/src/index"
import { SalesTaxError, type SalesTaxErrorCode } from "./errors"
import { isRetryable, nextDelay, parseRetryAfter } from "./retry"
import { flatHeaders, httpError, parseResponse, send, type CallContext, type Outcome } from "./transport"
import type { AttemptInfo, CallIds, CallInput, CallResult, OperationResponses } from "./types"

/** Validates the request (invalid: a "validation" SalesTaxError, nothing sent), sends it with retries, validates the answer. */
export async function callOperation<Op extends OperationId>(
  ctx: CallContext,
  operation: Op,
  input: CallInput = {},
): Promise<CallResult<OperationResponses[Op]>> {
  const op: OperationDef = OPERATIONS[operation]
  const params: Record<string, string> = { ...(input.params ?? {}) }
  if (op.path.includes(":connectionId") && params.connectionId === undefined) params.connectionId = ctx.connectionId
  const query: Record<string, string> = {}
  for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query[k] = String(v)

  const errors: ErrorDetail[] = []
  const check = (schema: OperationDef["body"], part: "path" | "query" | "body", value: unknown) => {
    const r = schema?.safeParse(value)
    if (r && !r.success) errors.push(...issuesToErrors(part, r.error, value))
  }
  check(op.params, "path", params)
  check(op.query, "query", query)
  if (!input.prepared) check(op.body, "body", input.body)
  const built = buildPath(op.path, params)
  if ("errors" in built) {
    for (const e of built.errors) if (!errors.some((x) => x.location === e.location)) errors.push(e)
  }
  if (errors.length || !("path" in built)) {
    throw new SalesTaxError({
      operation,
      title: "Invalid request",
      detail: "the request was not sent: it does not match the service's schema",
      errors: ctx.redact(errors),
      code: "validation",
      attempts: 0,
    })
  }

  /** What `onAttempt` hears of one attempt (a failure's fields are added below). */
  const attemptInfo = (status: number | null, attempt: number, durationMs: number, outcome: Outcome): AttemptInfo => {
    const info: AttemptInfo = { operation, attempt, status, durationMs, willRetry: false, ids: callIds(params, input.body) }
    if (ctx.options.attemptBodies) Object.assign(info, { requestBody: input.body, responseBody: outcome.ok ? outcome.res.data : undefined })
    return info
  }

  const budget = Date.now() + ctx.policy.maxElapsedMs
  const deadline = input.deadline !== undefined && input.deadline < budget ? input.deadline : budget
  for (let attempt = 1; ; attempt++) {
    const remaining = deadline - Date.now()
    if (remaining <= 0 && attempt === 1) {
      throw new SalesTaxError({
        operation,
        title: "Timeout",
        detail: "no time left for the call: its deadline had passed before it was sent",
        code: "timeout",
        attempts: 0,
      })
    }
    const timeout = Math.max(1, Math.min(ctx.timeoutMs, remaining))
    const t0 = Date.now()
    const outcome = await send(ctx, op, built.path, query, input, timeout)
    const durationMs = Date.now() - t0

    let err: SalesTaxError
    let retryAfterMs: number | undefined
    if (outcome.ok && outcome.res.status >= 200 && outcome.res.status < 300) {
      const parsed = parseResponse(operation, op.response, outcome.res, ctx.redact)
      if (parsed.ok) {
        if (ctx.observed) ctx.emit(attemptInfo(outcome.res.status, attempt, durationMs, outcome))
        return { data: parsed.data as OperationResponses[Op], status: outcome.res.status, headers: flatHeaders(outcome.res.headers) }
      }
      err = parsed.error
    } else if (outcome.ok) {
      const res = outcome.res
      retryAfterMs = parseRetryAfter(flatHeaders(res.headers)["retry-after"])
      err = httpError(operation, res, isRetryable(operation, { kind: "status", status: res.status }), ctx.redact)
    } else {
      const code: SalesTaxErrorCode = outcome.failure.kind === "timeout" ? "timeout" : "network"
      err = new SalesTaxError({
        operation,
        code,
        retryable: isRetryable(operation, outcome.failure),
        title: code === "timeout" ? "Timeout" : "Network error",
        detail: ctx.redact(outcome.message),
      })
    }

    let willRetry = err.retryable && attempt < ctx.policy.maxAttempts
    const delayMs = willRetry ? nextDelay(attempt, ctx.policy, retryAfterMs) : undefined
    // no point in waiting past the budget: give up now instead
    if (delayMs !== undefined && Date.now() + delayMs >= deadline) willRetry = false
    if (ctx.observed) {
      const info = attemptInfo(err.status, attempt, durationMs, outcome)
      Object.assign(info, { error: err.message, willRetry, errorTitle: err.title, errorCode: err.code })
      if (willRetry) info.delayMs = delayMs
      if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs
      ctx.emit(info)
    }
    if (!willRetry) throw new SalesTaxError({ ...err, attempts: attempt })
    await sleep(delayMs!)
  }
}

/** The service path with its parameters as encoded segments; empty, `.` and `..` (dropped or resolved by URL parsers) refused. */
export function buildPath(
  template: string,
  params: Readonly<Record<string, string | undefined>>,
): { path: string } | { errors: ErrorDetail[] } {
  const errors: ErrorDetail[] = []
  const path = template.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name] ?? ""
    const problem = segmentProblem(value)
    if (problem) errors.push({ location: `path.${name}`, message: `${name} ${problem}`, value })
    return encodeURIComponent(value)
  })
  return errors.length ? { errors } : { path }
}

export function segmentProblem(value: string): string | undefined {
  if (value === "") return "must not be empty"
  if (value === "." || value === "..") return `must not be "${value}" (a dot segment)`
  return undefined
}

/** Pure: the Medusa ids in a call's path parameters and body. */
export function callIds(params: Record<string, string>, body: unknown): CallIds {
  const b = (body && typeof body === "object" ? body : {}) as Partial<Record<"cartId" | "orderId" | "idempotencyKey" | "items", unknown>>
  // POST carts: { items: [cart, …] } (a cart per origin of one Medusa cart: the first names it)
  const firstCart = Array.isArray(b.items) ? (b.items[0] as { cartId?: unknown } | undefined)?.cartId : undefined
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined)
  const ids = {
    cartId: str(params.cartId) ?? str(b.cartId) ?? str(firstCart),
    orderId: str(params.orderId) ?? str(b.orderId),
    refundKey: str(b.idempotencyKey),
  }
  return Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined))
}
