import { model } from "@medusajs/framework/utils"

/**
 * Who created an exemption certificate (a customer, or staff), its review and its use; the certificate
 * lives at the service. Only approved ones exempt. `certificate_id` `reserved:…` is a submission in flight,
 * `lost:…` one whose answer was lost. A single-purchase certificate is claimed by one cart at completion
 * (`claimed_*`), used once that cart is an order (`used_at`) and filed (`used_order_id`).
 */
export const CertificateOrigin = model
  .define("sales_tax_certificate_origin", {
    id: model.id({ prefix: "stco" }).primaryKey(),
    certificate_id: model.text(),
    customer_id: model.text(),
    created_by: model.enum(["customer", "staff"]),
    actor_id: model.text().nullable(),
    review_status: model.enum(["pending", "approved", "rejected"]).default("approved"),
    reviewed_by: model.text().nullable(),
    reviewed_at: model.dateTime().nullable(),
    rejection_reason: model.text().nullable(),
    used_order_id: model.text().nullable(),
    used_at: model.dateTime().nullable(),
    claimed_cart_id: model.text().nullable(),
    claimed_at: model.dateTime().nullable(),
  })
  .indexes([
    { on: ["certificate_id"], unique: true, where: "deleted_at IS NULL" },
    { on: ["customer_id"], where: "deleted_at IS NULL" },
  ])
