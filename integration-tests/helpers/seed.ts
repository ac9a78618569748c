/**
 * Seeds what a storefront checkout needs, through Medusa's own workflows and modules:
 * a USD region "United States" (automatic taxes, system payment provider), a US tax region on the
 * sales-tax provider (with a default rate used only by failurePolicy "fallback"), a sales channel
 * with a publishable key, a stock location with a US service zone and a flat shipping option,
 * and products whose TICs sit at each level (product, type, category, default).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createProductCategoriesWorkflow,
  createProductTypesWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
} from "@medusajs/core-flows"
import { SALES_TAX_PROVIDER_ID } from "../../src/core/constants"

/** TICs of the seeded catalogue. */
export const TICS = { general: 0, clothing: 20010, shipping: 11010, groceries: 40030, digital: 31000 } as const

export interface SeededProduct {
  id: string
  variantId: string
  title: string
  price: number
  /** TIC the plugin should resolve for it, and from which level. */
  tic: number
  ticSource: "product" | "product_type" | "product_category" | "default"
}

export interface SeededStore {
  regionId: string
  salesChannelId: string
  publishableKey: string
  shippingOptionId: string
  /** Flat shipping price (USD). */
  shippingPrice: number
  stockLocationId: string
  products: {
    /** no TIC anywhere: the default TIC (0, general goods) */
    general: SeededProduct
    /** TIC 20010 on the product itself */
    shirt: SeededProduct
    /** TIC 20010 through its product type "Apparel" */
    jacket: SeededProduct
    /** TIC 40030 through its category "Groceries" (parent category "Food") */
    coffee: SeededProduct
  }
  /** Percentage on the US tax region's default rate (used only by the fallback policy). */
  regionDefaultRate: number
}

export interface SeedOptions {
  shippingPrice?: number
  regionDefaultRate?: number
  /** Prices of the products (USD, tax-exclusive). */
  prices?: Partial<Record<keyof SeededStore["products"], number>>
}

export async function seedStore(container: MedusaContainer, opts: SeedOptions = {}): Promise<SeededStore> {
  const link = container.resolve(ContainerRegistrationKeys.LINK) as any
  const fulfillment = container.resolve(Modules.FULFILLMENT) as any
  const shippingPrice = opts.shippingPrice ?? 8
  const regionDefaultRate = opts.regionDefaultRate ?? 5
  const prices = { general: 49.99, shirt: 29.95, jacket: 120, coffee: 14.5, ...opts.prices }

  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Webshop" }] },
  })
  const {
    result: [apiKey],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Webshop", type: "publishable", created_by: "test" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: apiKey.id, add: [salesChannel.id] } })

  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "United States", currency_code: "usd", countries: ["us"], automatic_taxes: true, payment_providers: ["pp_system_default"] },
      ],
    },
  })
  await createTaxRegionsWorkflow(container).run({
    input: [
      {
        country_code: "us",
        provider_id: SALES_TAX_PROVIDER_ID,
        default_tax_rate: { rate: regionDefaultRate, code: "US-DEFAULT", name: "US default (fallback)" },
      },
    ],
  })

  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [
        {
          name: "Seattle warehouse",
          address: { address_1: "400 Broad St", city: "Seattle", country_code: "us", province: "WA", postal_code: "98109" },
        },
      ],
    },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [salesChannel.id] } })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })

  const {
    result: [profile],
  } = await createShippingProfilesWorkflow(container).run({
    input: { data: [{ name: "Default", type: "default" }] },
  })
  const fset = await fulfillment.createFulfillmentSets({
    name: "US shipping",
    type: "shipping",
    service_zones: [{ name: "US", geo_zones: [{ type: "country", country_code: "us" }] }],
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fset.id },
  })
  const {
    result: [option],
  } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Standard",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fset.service_zones[0].id,
        shipping_profile_id: profile.id,
        type: { label: "Standard", description: "3-5 days", code: "standard" },
        prices: [
          { currency_code: "usd", amount: shippingPrice },
          { region_id: region.id, amount: shippingPrice },
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  const {
    result: [apparel],
  } = await createProductTypesWorkflow(container).run({ input: { product_types: [{ value: "Apparel" }] } })
  const {
    result: [food],
  } = await createProductCategoriesWorkflow(container).run({ input: { product_categories: [{ name: "Food", is_active: true }] } })
  const {
    result: [groceries],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Groceries", is_active: true, parent_category_id: food.id }] },
  })

  const mk = (title: string, price: number, extra: Record<string, unknown> = {}) => ({
    title,
    status: "published" as const,
    shipping_profile_id: profile.id,
    sales_channels: [{ id: salesChannel.id }],
    options: [{ title: "Size", values: ["One"] }],
    variants: [{ title: "One", options: { Size: "One" }, manage_inventory: false, prices: [{ currency_code: "usd", amount: price }] }],
    ...extra,
  })
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        mk("Desk lamp", prices.general),
        mk("T-shirt", prices.shirt),
        mk("Rain jacket", prices.jacket, { type_id: apparel.id }),
        mk("Coffee beans", prices.coffee, { category_ids: [groceries.id] }),
      ],
    },
  })
  const byTitle = (t: string) => products.find((p: any) => p.title === t) as any

  const ticService = container.resolve("salesTax") as { setTic(t: string, id: string, tic: number | null): Promise<unknown> }
  await ticService.setTic("product", byTitle("T-shirt").id, TICS.clothing)
  await ticService.setTic("product_type", apparel.id, TICS.clothing)
  // on the parent category: the child "Groceries" inherits it
  await ticService.setTic("product_category", food.id, TICS.groceries)

  const sp = (t: string, price: number, tic: number, ticSource: SeededProduct["ticSource"]): SeededProduct => {
    const p = byTitle(t)
    return { id: p.id, variantId: p.variants[0].id, title: t, price, tic, ticSource }
  }
  return {
    regionId: region.id,
    salesChannelId: salesChannel.id,
    publishableKey: apiKey.token,
    shippingOptionId: option.id,
    shippingPrice,
    stockLocationId: location.id,
    regionDefaultRate,
    products: {
      general: sp("Desk lamp", prices.general, TICS.general, "default"),
      shirt: sp("T-shirt", prices.shirt, TICS.clothing, "product"),
      jacket: sp("Rain jacket", prices.jacket, TICS.clothing, "product_type"),
      coffee: sp("Coffee beans", prices.coffee, TICS.groceries, "product_category"),
    },
  }
}

/**
 * Tax-inclusive prices in the store's region (issue 17): a region price preference with
 * `is_tax_inclusive` and, for each variant given, a price with the region rule (Medusa treats a
 * price as tax-inclusive when it carries the region rule and the region prefers inclusive prices).
 * The shipping option's region price becomes tax-inclusive with it; the variants not given keep
 * their currency price, tax-exclusive (a cart of both is a mixed cart).
 */
export async function seedTaxInclusiveRegionPrices(
  container: MedusaContainer,
  store: Pick<SeededStore, "regionId">,
  prices: { variantId: string; amount: number }[],
): Promise<void> {
  const pricing = container.resolve(Modules.PRICING) as any
  const query = container.resolve(ContainerRegistrationKeys.QUERY) as any
  // creating a region makes its preference (tax-exclusive): turn it inclusive
  const [pref] = await pricing.listPricePreferences({ attribute: "region_id", value: store.regionId })
  if (pref) await pricing.updatePricePreferences(pref.id, { is_tax_inclusive: true })
  else await pricing.createPricePreferences([{ attribute: "region_id", value: store.regionId, is_tax_inclusive: true }])
  const { data: variants } = await query.graph({
    entity: "product_variant",
    fields: ["id", "price_set.id"],
    filters: { id: prices.map((p) => p.variantId) },
  })
  await pricing.addPrices(
    prices.map((p) => ({
      priceSetId: variants.find((v: any) => v.id === p.variantId).price_set.id,
      prices: [{ amount: p.amount, currency_code: "usd", rules: { region_id: store.regionId } }],
    })),
  )
}
