// A store seeded like Medusa's official starter (medusa-starter-default's src/scripts/seed.ts), the
// store a merchant installs this plugin into (issue 30): EUR and USD, one region "Europe" (GB, DE,
// DK, SE, FR, ES, IT) whose tax regions use Medusa's system provider, a "European Warehouse" in
// Copenhagen serving the default sales channel through a "Europe" service zone with "Standard" and
// "Express" shipping (USD, EUR and region prices), a publishable key, and a T-shirt priced in EUR
// and USD and stocked at the European warehouse only. Nothing for the United States: the setup
// checklist's starting point. Used by the setup spec and the browser test's seed.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createInventoryLevelsWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/core-flows"

export const STARTER_COUNTRIES = ["gb", "de", "dk", "se", "fr", "es", "it"]

export interface StarterStore {
  salesChannelId: string
  publishableKey: string
  regionId: string
  stockLocationId: string
  productId: string
  variantId: string
}

export async function seedStarter(container: MedusaContainer): Promise<StarterStore> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const fulfillment = container.resolve(Modules.FULFILLMENT)

  // the default sales channel (Medusa's defaults create it; the test runner's database may not have it)
  const {
    data: [store],
  } = await query.graph({ entity: "store", fields: ["id", "default_sales_channel_id"] })
  let salesChannelId: string = store?.default_sales_channel_id
  if (!salesChannelId) {
    const {
      result: [channel],
    } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "Default Sales Channel" }] } })
    salesChannelId = channel!.id
  }
  if (store)
    await updateStoresWorkflow(container).run({
      input: {
        selector: { id: store.id },
        update: {
          supported_currencies: [
            { currency_code: "eur", is_default: true },
            { currency_code: "usd", is_default: false },
          ],
          default_sales_channel_id: salesChannelId,
        },
      },
    })

  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: { regions: [{ name: "Europe", currency_code: "eur", countries: STARTER_COUNTRIES, payment_providers: ["pp_system_default"] }] },
  })
  await createTaxRegionsWorkflow(container).run({
    input: STARTER_COUNTRIES.map((country_code) => ({ country_code, provider_id: "tp_system" })),
  })

  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: "European Warehouse", address: { city: "Copenhagen", country_code: "DK", address_1: "" } }] },
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location!.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })
  const profiles = await fulfillment.listShippingProfiles({ type: "default" })
  let profileId = profiles[0]?.id
  if (!profileId) {
    const {
      result: [profile],
    } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default Shipping Profile", type: "default" }] } })
    profileId = profile!.id
  }
  const fset = await fulfillment.createFulfillmentSets({
    name: "European Warehouse delivery",
    type: "shipping",
    service_zones: [{ name: "Europe", geo_zones: STARTER_COUNTRIES.map((country_code) => ({ country_code, type: "country" as const })) }],
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location!.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fset.id },
  })
  const option = (name: string, label: string, description: string, code: string) => ({
    name,
    price_type: "flat" as const,
    provider_id: "manual_manual",
    service_zone_id: fset.service_zones[0]!.id,
    shipping_profile_id: profileId!,
    type: { label, description, code },
    prices: [
      { currency_code: "usd", amount: 10 },
      { currency_code: "eur", amount: 10 },
      { region_id: region!.id, amount: 10 },
    ],
    rules: [
      { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
      { attribute: "is_return", value: "false", operator: "eq" as const },
    ],
  })
  await createShippingOptionsWorkflow(container).run({
    input: [
      option("Standard Shipping", "Standard", "Ship in 2-3 days.", "standard"),
      option("Express Shipping", "Express", "Ship in 24 hours.", "express"),
    ],
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location!.id, add: [salesChannelId] } })

  const {
    result: [key],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Webshop", type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key!.id, add: [salesChannelId] } })

  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Medusa T-Shirt",
          status: "published",
          shipping_profile_id: profileId,
          options: [{ title: "Size", values: ["M"] }],
          variants: [
            {
              title: "M",
              sku: "SHIRT-M",
              options: { Size: "M" },
              prices: [
                { amount: 10, currency_code: "eur" },
                { amount: 15, currency_code: "usd" },
              ],
            },
          ],
          sales_channels: [{ id: salesChannelId }],
        },
      ],
    },
  })
  const {
    data: [variant],
  } = await query.graph({
    entity: "product_variant",
    fields: ["id", "inventory_items.inventory_item_id"],
    filters: { product_id: product!.id },
  })
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: (variant.inventory_items ?? []).map((i: { inventory_item_id: string }) => ({
        location_id: location!.id,
        stocked_quantity: 1_000_000,
        inventory_item_id: i.inventory_item_id,
      })),
    },
  })
  return {
    salesChannelId,
    publishableKey: key!.token,
    regionId: region!.id,
    stockLocationId: location!.id,
    productId: product!.id,
    variantId: variant.id,
  }
}
