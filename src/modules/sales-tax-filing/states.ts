/** The values of the filing models' enum columns (the models and the types read them from here). */
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
export const COMPLETION_MODES = ["placed", "captured", "fulfilled"] as const
export const REFUND_SOURCES = ["return", "claim", "exchange", "cancel", "edit"] as const
/** What a record files; every kind but "order" has `parent_order_id` = the Medusa order. */
export const FILING_KINDS = ["order", "exchange", "edit", "claim", "credit"] as const
export const REFUND_STATES = ["pending", "refunded", "superseded", "failed"] as const
