import { model } from "@medusajs/framework/utils"

/**
 * Economic nexus per state (src/nexus): whether the merchant marked the state as registered in the
 * admin, and the crossing warnings already given (keys `state:level:period`, so each is logged once).
 */
export const NexusState = model
  .define("sales_tax_nexus_state", {
    id: model.id({ prefix: "stnx" }).primaryKey(),
    state: model.text(),
    registered: model.boolean().default(false),
    warnings_given: model.json().nullable(),
  })
  .indexes([{ on: ["state"], unique: true, where: "deleted_at IS NULL" }])
