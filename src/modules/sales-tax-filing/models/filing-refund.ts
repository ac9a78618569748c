import { model } from "@medusajs/framework/utils"
import { FilingRecord } from "./filing-record"
import { REFUND_SOURCES, REFUND_STATES } from "../states"

/**
 * One refund sent (or to be sent) to the service for a filed order. idempotency_key is derived
 * from Medusa ids (return id, claim id, exchange id, `cancel:<order id>`) and is unique.
 */
export const FilingRefund = model
  .define("sales_tax_filing_refund", {
    id: model.id({ prefix: "stref" }).primaryKey(),
    order_id: model.text(),
    source_type: model.enum([...REFUND_SOURCES]),
    source_id: model.text(),
    idempotency_key: model.text(),
    items: model.json(),
    state: model.enum([...REFUND_STATES]).default("pending"),
    refunded_tax: model.bigNumber().nullable(),
    returned_at: model.dateTime().nullable(),
    refunded_at: model.dateTime().nullable(),
    attempts: model.number().default(0),
    last_error: model.text().nullable(),
    record: model.belongsTo(() => FilingRecord, { mappedBy: "refunds" }),
  })
  .indexes([{ on: ["idempotency_key"], unique: true, where: "deleted_at IS NULL" }])
