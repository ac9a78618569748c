/** The shapes reconciliation reads (a Medusa order's facts, its filing records) and answers (rows, a month). */

/** One taxed line of a Medusa order (item or shipping method) as charged. */
export interface ChargedLine {
  /** item id, or `shipping:<shipping method id>` */
  id: string
  taxCents: number
  quantity: number
}

/** Something Medusa refunded to the customer: a received return, a refund claim, an exchange's return. */
export interface CustomerRefund {
  /** the Medusa id it comes from (the filing refund key uses the same id) */
  key: string
  at: string | null
  items: { itemId: string; quantity: number }[]
}

export interface OrderFacts {
  orderId: string
  displayId: number | null
  createdAt: string
  canceled: boolean
  lines: ChargedLine[]
  refunds: CustomerRefund[]
  /** refunds without a return (payment refunds beyond what came back): the tax part of each */
  manualRefunds?: { refundId: string; taxCents: number }[]
  usAddress?: boolean
  /** ISO 4217, lower or upper case (absent: USD) */
  currencyCode?: string
  taxed?: boolean
  salesCents?: number
}

/** A filing record (the order's own, or one of its children: an exchange's order) as stored. */
export interface RecordFacts {
  orderId: string
  /** "credit": a standalone credit (a refund without a return filed): it counts as refunded at the service */
  kind?: string
  /** the Medusa order the record belongs to (its own id, or parent_order_id for children) */
  parentOrderId: string | null
  state: string
  filed: boolean
  filedCents: number
  voided: boolean
  lastError: string | null
  refunds: { key: string; state: string; refundedCents: number }[]
  /** filed by an admin's re-quote (a needs_attention order): no tax was collected, the merchant owes what is filed */
  requoted?: boolean
  /** the tax its snapshot's lines carry: what it must have filed (absent: not compared) */
  linesCents?: number | null
  /** a re-quoted record's owed figure (its snapshot's `requote.owedTax`): what it must have filed too */
  owedCents?: number | null
}

export type DifferenceReason = "not_filed" | "failed" | "pending" | "refund_not_filed" | "amount_mismatch" | "needs_attention" | "requoted"

/** Why a US order is listed apart: no tax charged at checkout, or a currency other than USD (canceled: not listed). */
export type AttentionKind = "us_without_tax" | "currency_not_usd"
