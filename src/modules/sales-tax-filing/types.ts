import type { Address } from "../../service/contract"

export const SALES_TAX_FILING_MODULE = "salesTaxFiling"

/** "skipped": nothing to file; "needs_attention": a US order a person must look at (reason in last_error). */
export const FILING_STATES = [
  "pending",
  "filed",
  "completed",
  "partially_refunded",
  "refunded",
  "voided",
  "failed",
  "skipped",
  "needs_attention",
] as const
export type FilingState = (typeof FILING_STATES)[number]
export type CompletionMode = "placed" | "captured" | "fulfilled"
export type RefundSource = "return" | "claim" | "exchange" | "cancel" | "edit"
/** What a record files; every kind but "order" has `parent_order_id` = the Medusa order. */
export const FILING_KINDS = ["order", "exchange", "edit", "claim", "credit"] as const
export type FilingKind = (typeof FILING_KINDS)[number]
export type RefundState = "pending" | "refunded" | "superseded" | "failed"

/** Where a filed destination came from: the provider's quote as typed or as verified, or the order's shipping address. */
export type DestinationSource = "typed" | "verified" | "order_address"

/** One line of a Medusa order as charged: the unit price the tax was computed on and its tax. */
export interface FilingLine {
  index: number
  /** order line item id, or shipping method id */
  itemId: string
  kind: "item" | "shipping"
  /** unit price in dollars (after discounts), as sent to the service */
  price: number
  quantity: number
  tic: number | null
  productId?: string | null
  /** tax charged to the shopper for the whole line, rounded to the cent */
  chargedTax: number
  /** combined rate charged, a fraction (0.0903): the rate Medusa shows (back-solved, see docs/provider.md) */
  chargedRate: number
  /** the service's own rate for the line, a fraction, from the tax line's `data.service_rate`; absent on older records */
  serviceRate?: number | null
  /** true when a tax line of this line carries the provider's fallback code */
  fallback: boolean
}

/** What is filed for one order: everything the service calls need, without personal data. */
export interface FilingSnapshot {
  orderId: string
  kind: FilingKind
  parentOrderId?: string | null
  cartId: string | null
  /** abstract customer id: Medusa customer id, or a stable `guest_<cart or order id>` */
  customerId: string
  currencyCode: string
  /** ISO date-time the order was placed */
  placedAt: string
  origin: Address
  destination: Address
  /** where `destination`'s state and ZIP came from (absent on older records: the shipping address) */
  destinationSource?: DestinationSource
  /** filed by an admin's re-quote: the lines carry the owed tax; `collectedTax` what the shopper paid */
  requote?: { at: string; collectedTax: number; owedTax: number; state: string; zip: string } | null
  exemptionId?: string | null
  /** the service connection it is filed on when not the default one (its refunds, voids, completion too) */
  connectionId?: string | null
  /** a historical order filed by the backfill: always directly, as charged, dated when placed */
  backfill?: boolean
  lines: FilingLine[]
  /** a replace claim: the replacement's tax, the claimed units' tax it replaces, what is filed */
  claim?: { type: "refund" | "replace"; replacementTax: number; claimedTax: number; chargedTax: number } | null
  /** a credit: the Medusa refund it files and its amount */
  credit?: { refundId: string; amount: number } | null
}

export interface RefundItem {
  itemId: string
  quantity: number
  /** tax the service refunded for this item (written once the refund succeeded) */
  tax?: number
}

/** An order edit as the filing record keeps it (on the Medusa order's own record). */
export interface EditIntent {
  /** the order change id (`ordch_…`) */
  id: string
  /** superseded: the order was canceled first */
  state: "pending" | "applied" | "superseded"
  /** the order voided and filed again whole, or refunds + an order of its own */
  mode?: "refile" | "supplement" | "none"
  /** when the edit was confirmed */
  at: string
  /** the order's lines as Medusa charges them after the edit */
  lines: FilingLine[]
  /** where each line ships from after the edit, by item id (absent: the order's origin) */
  origins?: Record<string, Address>
  /** an edit of a re-quoted order: quoted before filing (`quoted`); `collected` what Medusa charged, by item id */
  requote?: { quoted: boolean; collected: Record<string, number> } | null
}

export interface FilingRefundDTO {
  id: string
  order_id: string
  source_type: RefundSource
  source_id: string
  idempotency_key: string
  items: RefundItem[]
  state: RefundState
  refunded_tax: number | null
  returned_at: Date | null
  refunded_at: Date | null
  attempts: number
  last_error: string | null
  record_id?: string
  created_at?: Date
}

export interface FilingRecordDTO {
  id: string
  order_id: string
  kind: FilingKind
  parent_order_id: string | null
  cart_id: string | null
  customer_id: string | null
  state: FilingState
  filing_path: "cart" | "direct" | null
  completion_mode: CompletionMode
  snapshot: FilingSnapshot | null
  charged_tax: number | null
  filed_tax: number | null
  requoted_tax: number | null
  tax_difference: number | null
  filed_at: Date | null
  completion_requested_at: Date | null
  completed_at: Date | null
  cancel_requested_at: Date | null
  voided_at: Date | null
  attempts: number
  next_attempt_at: Date | null
  last_error: string | null
  last_step: string | null
  /** "key_refused": the service refused the key (401/403); retried with back-off until it accepts it (key-refused.ts) */
  paused_reason?: string | null
  /** times the order was voided and filed again whole for an edit */
  revision?: number
  /** order edits of this order (kind "order" only) */
  edits?: EditIntent[] | null
  /** when the snapshot's street lines were removed (retention.ts) */
  address_removed_at?: Date | null
  refunds?: FilingRefundDTO[]
  created_at?: Date
  updated_at?: Date
}

export type RecordPatch = Partial<Omit<FilingRecordDTO, "id" | "refunds" | "created_at" | "updated_at">>
export type RefundPatch = Partial<Pick<FilingRefundDTO, "state" | "refunded_tax" | "refunded_at" | "attempts" | "last_error" | "items">>

export interface NewRecord {
  order_id: string
  kind: FilingKind
  parent_order_id?: string | null
  cart_id: string | null
  customer_id: string | null
  completion_mode: CompletionMode
  snapshot: FilingSnapshot | null
  charged_tax: number | null
  state?: FilingState
  last_error?: string | null
  next_attempt_at: Date | null
  /** not stored: the records of the order's other origins (one service order per origin), ensured with it */
  origin_siblings?: NewRecord[]
}

export interface NewRefund {
  order_id: string
  source_type: RefundSource
  source_id: string
  idempotency_key: string
  items: RefundItem[]
  returned_at: Date | null
}

/** Persistence the filing processor needs (the module service; tests: in memory). Creation is idempotent. */
export interface FilingStore {
  findRecord(orderId: string): Promise<FilingRecordDTO | null>
  ensureRecord(input: NewRecord): Promise<{ record: FilingRecordDTO; created: boolean }>
  patchRecord(id: string, patch: RecordPatch): Promise<void>
  ensureRefund(recordId: string, input: NewRefund): Promise<{ refund: FilingRefundDTO; created: boolean }>
  patchRefund(id: string, patch: RefundPatch): Promise<void>
  /** order ids of records with work due at or before `now` */
  listDue(now: Date, limit: number): Promise<string[]>
  /** the records whose parent_order_id is `orderId` (exchanges, edits, claims, credits), oldest first */
  listChildren(orderId: string): Promise<FilingRecordDTO[]>
  /** makes every record paused for `reason` due at `now` (the service accepts the key again); returns how many */
  resumePaused?(reason: string, now: Date): Promise<number>
}
