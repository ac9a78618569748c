import { model } from "@medusajs/framework/utils"
import { FilingRefund } from "./filing-refund"
import { COMPLETION_MODES, FILING_KINDS, FILING_STATES } from "../states"

/** One row per order filed at the service (its kind: FILING_KINDS); order_id is the orderId used there. */
export const FilingRecord = model
  .define("sales_tax_filing_record", {
    id: model.id({ prefix: "stfil" }).primaryKey(),
    order_id: model.text(),
    kind: model.enum([...FILING_KINDS]).default("order"),
    parent_order_id: model.text().nullable(),
    cart_id: model.text().nullable(),
    customer_id: model.text().nullable(),
    state: model.enum([...FILING_STATES]).default("pending"),
    /** "cart" (carts/orders after an equal re-quote) or "direct" (orders with the charged tax). */
    filing_path: model.enum(["cart", "direct"]).nullable(),
    completion_mode: model.enum([...COMPLETION_MODES]).default("placed"),
    /** Snapshot of what is filed: lines as charged, addresses, currency (see FilingSnapshot). */
    snapshot: model.json().nullable(),
    charged_tax: model.bigNumber().nullable(),
    filed_tax: model.bigNumber().nullable(),
    requoted_tax: model.bigNumber().nullable(),
    /** requoted - charged, when the re-quote differed (the filed amount is the charged one). */
    tax_difference: model.bigNumber().nullable(),
    filed_at: model.dateTime().nullable(),
    /** Intent: the order is complete for the service as of this instant (capture / fulfilment). */
    completion_requested_at: model.dateTime().nullable(),
    /** The completedDate the service holds (null while completed=false). */
    completed_at: model.dateTime().nullable(),
    cancel_requested_at: model.dateTime().nullable(),
    voided_at: model.dateTime().nullable(),
    attempts: model.number().default(0),
    next_attempt_at: model.dateTime().nullable(),
    last_error: model.text().nullable(),
    last_step: model.text().nullable(),
    /** Why filing of this record is paused and retried with back-off ("key_refused": the service answered 401/403). */
    paused_reason: model.text().nullable(),
    /** Times the order was voided and filed again whole for an edit (before the void cutoff). */
    revision: model.number().default(0),
    /** Order edits of this order: [{ id, state, mode, at, lines }] (see EditIntent). */
    edits: model.json().nullable(),
    /** When the snapshot's street lines were removed (option filing.addressRetentionDays). */
    address_removed_at: model.dateTime().nullable(),
    refunds: model.hasMany(() => FilingRefund, { mappedBy: "record" }),
  })
  .indexes([
    { on: ["order_id"], unique: true, where: "deleted_at IS NULL" },
    { on: ["state", "next_attempt_at"], where: "deleted_at IS NULL" },
    { on: ["parent_order_id"], where: "deleted_at IS NULL" },
    { on: ["paused_reason"], where: "deleted_at IS NULL AND paused_reason IS NOT NULL" },
    { name: "IDX_sales_tax_filing_record_address_due", on: ["created_at"], where: "deleted_at IS NULL AND address_removed_at IS NULL" },
  ])
