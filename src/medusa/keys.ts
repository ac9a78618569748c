/** Medusa's container and module keys as its literals (keys.test.ts), so resolving a service does not load Medusa's utils. */
import type { ContainerRegistrationKeys as MedusaKeys, Modules as MedusaModules } from "@medusajs/framework/utils"

export const ContainerRegistrationKeys: Pick<typeof MedusaKeys, "LOGGER"> = {
  LOGGER: "logger",
}

export const Modules: Pick<
  typeof MedusaModules,
  "CART" | "FULFILLMENT" | "LOCKING" | "ORDER" | "PROMOTION" | "SALES_CHANNEL" | "STOCK_LOCATION" | "TAX"
> = {
  CART: "cart",
  FULFILLMENT: "fulfillment",
  LOCKING: "locking",
  ORDER: "order",
  PROMOTION: "promotion",
  SALES_CHANNEL: "sales_channel",
  STOCK_LOCATION: "stock_location",
  TAX: "tax",
}
