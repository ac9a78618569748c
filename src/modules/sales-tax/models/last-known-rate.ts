import { model } from "@medusajs/framework/utils"

/** A rate per destination ZIP (5 digits) and TIC for outages (last-known-rates.ts); `rate` a percentage as a decimal string. */
export const LastKnownRate = model
  .define("sales_tax_last_known_rate", {
    id: model.id({ prefix: "stlkr" }).primaryKey(),
    zip: model.text(),
    tic: model.number(),
    rate: model.text(),
    quoted_at: model.dateTime(),
  })
  .indexes([{ on: ["zip", "tic"], unique: true, where: "deleted_at IS NULL" }])
