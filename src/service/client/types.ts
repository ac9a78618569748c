import type { z } from "zod"
import type { ListCertificatesQuery, OPERATIONS, OperationId } from "../../../packages/contract/src/index"
import type { SalesTaxErrorCode } from "./errors"
import type { RetryPolicy } from "./retry"

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
export type CallIds = Partial<Record<"cartId" | "orderId" | "refundKey", string>>

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

/** List-certificates filters as the query schema's output; connectionId defaults to the client's, null = every connection. */
export type ListCertificatesInput = Omit<ListCertificatesQuery, "connectionId"> & { connectionId: string | null }

/** Response type of each operation after validation: its response schema's output, void without one. */
export type OperationResponses = {
  [K in OperationId]: (typeof OPERATIONS)[K] extends { response: z.ZodType<infer R> } ? R : void
}

export interface CallInput {
  /** Path parameters; connectionId defaults to the client's. */
  params?: Record<string, string>
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  /** Epoch ms by which the whole call must end (cuts each attempt's timer; none left: a timeout, nothing sent). */
  deadline?: number
  /** `body` built valid and already serialized: sent as is, not validated again (the service's 422 would name the same errors). */
  prepared?: { json: string }
}

export interface CallResult<T> {
  data: T
  status: number
  headers: Record<string, string>
}
