import { model } from "@medusajs/framework/utils"

/** A TIC assigned to a product, a product type or a product category (target_id: its Medusa id). */
export const TicAssignment = model
  .define("tic_assignment", {
    id: model.id({ prefix: "stic" }).primaryKey(),
    target_type: model.enum(["product", "product_type", "product_category"]),
    target_id: model.text(),
    tic: model.number(),
  })
  .indexes([{ on: ["target_type", "target_id"], unique: true, where: "deleted_at IS NULL" }])
