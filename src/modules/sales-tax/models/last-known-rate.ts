import { model } from "@medusajs/framework/utils"

/**
 * The effective rate of the last successful quote per destination ZIP (5 digits) and TIC: the
 * first source of fallback rates in an outage (see docs/provider.md, "Never a silent 0 %").
 * `rate` is a percentage as a decimal string (9.025 = 9.025 %), exactly as computed.
 */
export const LastKnownRate = model
  .define("sales_tax_last_known_rate", {
    id: model.id({ prefix: "stlkr" }).primaryKey(),
    zip: model.text(),
    tic: model.number(),
    rate: model.text(),
    quoted_at: model.dateTime(),
  })
  .indexes([{ on: ["zip", "tic"], unique: true, where: "deleted_at IS NULL" }])

export default LastKnownRate
