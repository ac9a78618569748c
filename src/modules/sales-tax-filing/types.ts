import type { InferTypeOf } from "@medusajs/framework/types"
import type { Address } from "../../../packages/contract/src/index"
import type { FilingRecord } from "./models/filing-record"
import type { FilingRefund } from "./models/filing-refund"
import type { COMPLETION_MODES, FILING_KINDS, FILING_STATES, REFUND_SOURCES, REFUND_STATES } from "./states"

export const SALES_TAX_FILING_MODULE = "salesTaxFiling"

export { COMPLETION_MODES, FILING_KINDS, FILING_STATES, REFUND_SOURCES, REFUND_STATES } from "./states"
export type FilingState = (typeof FILING_STATES)[number]
export type CompletionMode = (typeof COMPLETION_MODES)[number]
export type RefundSource = (typeof REFUND_SOURCES)[number]
export type FilingKind = (typeof FILING_KINDS)[number]
export type RefundState = (typeof REFUND_STATES)[number]

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

export type RecordRow = InferTypeOf<typeof FilingRecord>
export type RefundRow = InferTypeOf<typeof FilingRefund>

/** Columns the DTOs leave out (the raw bigNumber twins) or type optional. */
type Hidden = `raw_${string}` | `${"created" | "updated" | "deleted"}_at`

/** A refund row as the store answers it: the model's columns, its json items typed. */
export type FilingRefundDTO = Omit<RefundRow, "items" | "record" | "record_id" | Hidden> & {
  items: RefundItem[]
  record_id?: string
  created_at?: Date
}

/** A record as the store answers it: the model's columns, its json typed, and the columns added later optional. */
export type FilingRecordDTO = Omit<RecordRow, "snapshot" | "edits" | "refunds" | Later | Hidden> &
  Partial<Pick<RecordRow, Later | "created_at" | "updated_at">> & {
    snapshot: FilingSnapshot | null
    /** order edits of this order (kind "order" only) */
    edits?: EditIntent[] | null
    refunds?: FilingRefundDTO[]
  }
type Later = "paused_reason" | "revision" | "address_removed_at"

export type RecordPatch = Partial<Omit<FilingRecordDTO, "id" | "refunds" | "created_at" | "updated_at">>
export type RefundPatch = Partial<Pick<FilingRefundDTO, "state" | "refunded_tax" | "refunded_at" | "attempts" | "last_error" | "items">>

export type NewRecord = Pick<
  FilingRecordDTO,
  "order_id" | "kind" | "cart_id" | "customer_id" | "completion_mode" | "snapshot" | "charged_tax" | "next_attempt_at"
> &
  Partial<Pick<FilingRecordDTO, "parent_order_id" | "state" | "last_error">> & {
    /** not stored: the records of the order's other origins (one service order per origin), ensured with it */
    origin_siblings?: NewRecord[]
  }

export type NewRefund = Pick<FilingRefundDTO, "order_id" | "source_type" | "source_id" | "idempotency_key" | "items" | "returned_at">

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
