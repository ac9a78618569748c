import { model } from "@medusajs/framework/utils"

/**
 * Who created an exemption certificate through this store: the customer (the storefront's
 * certificate routes, authenticated as that customer) or staff (the admin routes, with the admin
 * user's id). The certificate itself lives at the service; certificates made elsewhere have no row.
 */
export const CertificateOrigin = model
  .define("sales_tax_certificate_origin", {
    id: model.id({ prefix: "stco" }).primaryKey(),
    certificate_id: model.text(),
    customer_id: model.text(),
    created_by: model.enum(["customer", "staff"]),
    actor_id: model.text().nullable(),
  })
  .indexes([
    { on: ["certificate_id"], unique: true, where: "deleted_at IS NULL" },
    { on: ["customer_id"], where: "deleted_at IS NULL" },
  ])

export default CertificateOrigin
