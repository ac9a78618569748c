import { model } from "@medusajs/framework/utils"

/**
 * One attempt of one call to the Sales Tax Service (Settings → Sales Tax → Activity); status null: no
 * answer. Never the API key; bodies only under the `log.bodies` option. Pruned after `log.retentionDays`.
 */
export const CallLogEntry = model
  .define("sales_tax_call_log", {
    id: model.id({ prefix: "stcl" }).primaryKey(),
    at: model.dateTime(),
    operation: model.text(),
    connection_id: model.text(),
    status: model.number().nullable(),
    latency_ms: model.number(),
    attempt: model.number(),
    cart_id: model.text().nullable(),
    order_id: model.text().nullable(),
    return_id: model.text().nullable(),
    error_title: model.text().nullable(),
    error_code: model.text().nullable(),
    request_body: model.json().nullable(),
    response_body: model.json().nullable(),
  })
  .indexes([{ on: ["at"] }, { on: ["order_id"] }, { on: ["operation", "at"] }])
