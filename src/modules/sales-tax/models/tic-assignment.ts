import { model } from "@medusajs/framework/utils"

/**
 * A TIC assigned to a product, a product type or a product category (one per target).
 * target_id is the Medusa id (prod_..., ptyp_..., pcat_...).
 */
export const TicAssignment = model
  .define("tic_assignment", {
    id: model.id({ prefix: "stic" }).primaryKey(),
    target_type: model.enum(["product", "product_type", "product_category"]),
    target_id: model.text(),
    tic: model.number(),
  })
  .indexes([{ on: ["target_type", "target_id"], unique: true, where: "deleted_at IS NULL" }])

export default TicAssignment
