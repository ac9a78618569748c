/** The filing processor's public input and output and the small helpers its parts share. */
import type { Logger } from "@medusajs/framework/types"
import type { Address } from "../../packages/contract/src/index"
import type { SalesTaxClient } from "../service/client"
import type {
  CompletionMode,
  EditIntent,
  FilingSnapshot,
  FilingStore,
  NewRecord,
  RefundItem,
  RefundSource,
} from "../modules/sales-tax-filing/types"
import { BackoffPolicy } from "./decisions-retry"
import { chargedTotal } from "./decisions"

/** The part of SalesTaxClient filing uses (tests wrap the real client); certificates: an exempt order's refile checks its
 * certificate first, and a single-purchase one is disabled once its order is filed. */
export type FilingClient = Pick<
  SalesTaxClient,
  "calculateCarts" | "cartToOrder" | "createOrder" | "getOrder" | "updateOrder" | "voidOrder" | "refundOrder"
> &
  Partial<Pick<SalesTaxClient, "getCertificate" | "disableCertificate">>

export interface FilingProcessorDeps {
  store: FilingStore
  /** the default connection's client; `clientFor`: a record's `snapshot.connectionId`'s (absent: `client`) */
  client: FilingClient
  clientFor?: (connectionId: string) => FilingClient
  /** runs fn with exclusive access to key (Medusa's Locking Module in the app) */
  lock: <T>(key: string, fn: () => Promise<T>) => Promise<T>
  now?: () => Date
  /** failed attempts before a record is left failed for a person (filing.maxAttempts) */
  maxAttempts: number
  backoff?: BackoffPolicy
  /** strings never to be stored in last_error (the API keys) */
  secrets?: (string | undefined)[]
  logger?: Pick<Logger, "info" | "warn" | "error">
  /** a single-purchase certificate's order was filed and the certificate disabled: recorded as used */
  certificateUsed?: (use: { certificateId: string; orderId: string; customerId: string | null }) => Promise<void>
  /** an order reached the service (or was already there); the backfill counts them */
  onFiled?: (filed: { orderId: string; path: "cart" | "direct"; alreadyExisted: boolean }) => void
}

export interface RefundIntent {
  source: Exclude<RefundSource, "cancel" | "edit">
  sourceId: string
  items: RefundItem[]
  returnedAt?: Date | null
}

/** An order edit to file: the order change id, when it was confirmed, the order's lines after it (every origin's) and where each ships from. */
export type EditInput = Pick<EditIntent, "id" | "lines" | "origins"> & { at: Date }

/** A new record's row: "skipped" without a snapshot; with `attention`, "needs_attention" with the reason, never processed
 * (its snapshot kept for the re-quote). */
export function newRecordFor(
  orderId: string,
  snapshot: FilingSnapshot | null,
  mode: CompletionMode,
  now: Date,
  reason = "no US shipping address: nothing to file",
  attention = false,
): NewRecord {
  return {
    order_id: orderId,
    kind: snapshot?.kind ?? "order",
    parent_order_id: snapshot?.parentOrderId ?? null,
    cart_id: snapshot?.cartId ?? null,
    customer_id: snapshot?.customerId ?? null,
    completion_mode: mode,
    snapshot,
    charged_tax: snapshot ? chargedTotal(snapshot.lines) : null,
    state: attention ? "needs_attention" : snapshot ? "pending" : "skipped",
    last_error: attention || !snapshot ? reason : null,
    next_attempt_at: snapshot && !attention ? now : null,
  }
}

export type ChargedOrigin = { locationId: string | null; address: Address } | null

/** `snapshot`: the primary origin's, `siblings` the others' (a claim splits once its charge is known, by `originOf`);
 * `attention`: a US order a person must look at, `reason` says why, `snapshot` (unsplit) when the destination resolved. */
export interface BuiltSnapshot {
  snapshot: FilingSnapshot | null
  reason?: string
  siblings?: FilingSnapshot[]
  originOf?: (lineId: string) => ChargedOrigin
  attention?: boolean
}

/** Pure: the record of a built snapshot (`newRecordFor`), with its other origins' records (`siblings`) to ensure with it. */
export function recordOf(orderId: string, built: BuiltSnapshot, mode: CompletionMode, now: Date): NewRecord {
  const record = newRecordFor(orderId, built.snapshot, mode, now, built.reason, built.attention)
  return built.siblings?.length ? { ...record, origin_siblings: built.siblings.map((s) => newRecordFor(s.orderId, s, mode, now)) } : record
}

/** A retryable "not yet": work that waits for other work of the same order (a pending refund). */
export class WaitError extends Error {
  readonly retryable = true
}

/** What `answers` gives for the service's status of `err`; any other error rethrown. */
export function byStatus<T>(err: unknown, answers: Record<number, T>): T {
  const s = (err as { status?: unknown } | null)?.status
  if (typeof s === "number" && s in answers) return answers[s]!
  throw err
}

export function rootOf(record: Pick<NewRecord, "order_id" | "parent_order_id">): string {
  return record.parent_order_id ?? record.order_id
}
