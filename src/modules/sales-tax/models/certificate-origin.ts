import { model } from "@medusajs/framework/utils"

/**
 * Who created an exemption certificate through this store (the customer, through the
 * storefront's certificate routes, authenticated as that customer; or staff, through the admin
 * routes, with the admin user's id), its review and its use. The certificate itself lives at the
 * service; certificates made elsewhere have no row.
 *
 * Review (issue 27): a certificate a customer submits is `pending` until staff approve it
 * (`approved`) or reject it (`rejected`, with `rejection_reason`, which the shopper sees; a
 * rejected certificate is also disabled at the service). Only approved certificates exempt; staff
 * certificates are approved when created. A row whose `certificate_id` starts with `reserved:` is
 * a customer's submission in flight (made before the service call, so that no instant exists in
 * which the customer has an unreviewed certificate without a row); `lost:`, one whose answer was
 * lost (adopted by the certificate when the customer's list shows one without a row).
 *
 * Use: a single-purchase certificate is claimed by one cart at completion (`claimed_cart_id`,
 * `claimed_at`); `used_at` is set when that cart is an order, `used_order_id` when it is filed.
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

export default CertificateOrigin
