/**
 * The one seed of the development store that the demo and the integration tests both run against,
 * through Medusa's own workflows and modules as a merchant's seed script would. Dev-only: the plugin
 * never ships it (package.json "files"; scripts/pack.test.ts checks it).
 *   demo/app/seed.ts                   `medusa exec` in the demo store: seedStore + the demo's own
 *                                      (store defaults, secret key, tax-inclusive sweater, the
 *                                      wholesale channel shipping from Austin, the admin user)
 *   integration-tests/helpers/seed.ts  seedStore(container) in the specs: seedStore with the tests'
 *                                      product names and the tax region's fallback rate
 * The parts:
 *   seedStore          a sales channel with a publishable key; a USD region "United States" (automatic
 *                      taxes, system payment provider) and a US tax region on the sales-tax provider;
 *                      the Seattle warehouse with a US service zone and a flat "Standard" shipping
 *                      option; the products asked for, each with its TIC at the level the plugin
 *                      resolves it from (product, product type "Apparel", category "Food" > "Groceries")
 *   addSalesChannel    a sales channel (optionally with a fixed id) and its publishable key
 *   addWarehouse       a stock location with its fulfillment set, service zone and shipping option
 *   setTaxInclusiveRegionPrices   the region prefers tax-inclusive prices, and region prices for variants
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
} from "@medusajs/medusa/core-flows"

/** Key of the plugin's TIC-assignment module (SALES_TAX_MODULE). */
const SALES_TAX_MODULE = "salesTax"

/** TICs of the seeded catalogue. */
export const TICS = { general: 0, clothing: 20010, shipping: 11010, groceries: 40030, digital: 31000, giftCard: 10005 } as const

/** Where a product's TIC is assigned: the level the plugin should resolve it from. */
export type TicSource = "product" | "product_type" | "product_category" | "default"

export interface ProductSpec {
  title: string
  handle: string
  /** unit price, USD (the currency price: tax-exclusive) */
  price: number
  /** the TIC the plugin should resolve */
  tic: number
  ticSource: TicSource
  /** what it is, in words (the demo prints it) */
  category: string
}

/**
 * The catalogue. A "product_type" product is an "Apparel" (TIC 20010 on the type), a
 * "product_category" one is in "Groceries" (TIC 40030 on its parent "Food"); the lamp has no TIC.
 */
export const PRODUCTS = {
  lamp: { title: "Desk lamp", handle: "desk-lamp", price: 49.99, tic: TICS.general, ticSource: "default", category: "general goods" },
  tshirt: { title: "T-shirt", handle: "t-shirt", price: 29.95, tic: TICS.clothing, ticSource: "product", category: "clothing" },
  jacket: { title: "Rain jacket", handle: "rain-jacket", price: 120, tic: TICS.clothing, ticSource: "product_type", category: "clothing" },
  coffee: {
    title: "Coffee beans",
    handle: "coffee-beans",
    price: 14.5,
    tic: TICS.groceries,
    ticSource: "product_category",
    category: "groceries",
  },
  giftcard: { title: "Gift card", handle: "gift-card", price: 50, tic: TICS.giftCard, ticSource: "product", category: "gift card" },
  sweater: { title: "Wool sweater", handle: "wool-sweater", price: 112, tic: TICS.clothing, ticSource: "product", category: "clothing" },
} as const satisfies Record<string, ProductSpec>

export interface SeededProduct extends ProductSpec {
  id: string
  variantId: string
}

/** An address of a stock location (Medusa's field names). */
export interface LocationAddress {
  address_1: string
  city: string
  country_code: string
  province: string
  postal_code?: string
}

export const SEATTLE: LocationAddress = {
  address_1: "400 Broad St",
  city: "Seattle",
  country_code: "us",
  province: "WA",
  postal_code: "98109",
}

export interface StoreOptions<K extends string> {
  /** the tax provider's id as Medusa stores it (tp_<identifier>_<id>) */
  providerId: string
  /** names the sales channel and its publishable key */
  channelName: string
  /** the API keys' created_by */
  createdBy: string
  products: Record<K, ProductSpec>
  /** flat shipping price, USD; default 8 */
  shippingPrice?: number
  /**
   * the shipping option has a region price besides the currency's: with the region's tax-inclusive
   * price preference (setTaxInclusiveRegionPrices), shipping becomes tax-inclusive too
   */
  shippingRegionPrice: boolean
  /** a default rate (%) on the US tax region: what failurePolicy "fallback" charges */
  regionDefaultRate?: number
}

export interface SeededStore<K extends string> {
  regionId: string
  salesChannelId: string
  publishableKey: string
  shippingProfileId: string
  shippingOptionId: string
  /** flat shipping price (USD) */
  shippingPrice: number
  stockLocationId: string
  products: Record<K, SeededProduct>
}

export async function seedStore<K extends string>(container: MedusaContainer, o: StoreOptions<K>): Promise<SeededStore<K>> {
  const shippingPrice = o.shippingPrice ?? 8
  const channel = await addSalesChannel(container, {
    name: o.channelName,
    publishableKey: { title: o.channelName, createdBy: o.createdBy },
  })

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
        provider_id: o.providerId,
        ...(o.regionDefaultRate === undefined
          ? {}
          : { default_tax_rate: { rate: o.regionDefaultRate, code: "US-DEFAULT", name: "US default (fallback)" } }),
      },
    ],
  })

  const {
    result: [profile],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })
  const seattle = await addWarehouse(container, {
    name: "Seattle warehouse",
    address: SEATTLE,
    salesChannelIds: [channel.salesChannelId],
    shippingProfileId: profile.id,
    zone: "United States",
    option: {
      name: "Standard",
      type: { label: "Standard", description: "3-5 days", code: "standard" },
      price: shippingPrice,
      regionId: o.shippingRegionPrice ? region.id : undefined,
    },
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
  const specs = Object.entries(o.products) as [K, ProductSpec][]
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: specs.map(([, p]) => ({
        title: p.title,
        handle: p.handle,
        status: "published" as const,
        shipping_profile_id: profile.id,
        sales_channels: [{ id: channel.salesChannelId }],
        options: [{ title: "Size", values: ["One size"] }],
        variants: [
          {
            title: "One size",
            sku: p.handle.toUpperCase(),
            options: { Size: "One size" },
            manage_inventory: false,
            prices: [{ currency_code: "usd", amount: p.price }],
          },
        ],
        ...(p.ticSource === "product_type" ? { type_id: apparel.id } : {}),
        ...(p.ticSource === "product_category" ? { category_ids: [groceries.id] } : {}),
      })),
    },
  })

  // the TIC assignments (what the admin's TIC widgets do): on the product, its type or its category
  const tics = container.resolve<{ setTic(targetType: string, targetId: string, tic: number | null): Promise<unknown> }>(SALES_TAX_MODULE)
  const seeded = {} as Record<K, SeededProduct>
  for (const [key, spec] of specs) {
    const p = products.find((x) => x.handle === spec.handle)
    const variant = p?.variants?.[0]
    if (!p || !variant) throw new Error(`seeded product ${spec.handle} not found`)
    seeded[key] = { ...spec, id: p.id, variantId: variant.id }
    if (spec.ticSource === "product") await tics.setTic("product", p.id, spec.tic)
  }
  const byLevel = (level: TicSource) => specs.find(([, s]) => s.ticSource === level)?.[1].tic
  const typeTic = byLevel("product_type")
  if (typeTic !== undefined) await tics.setTic("product_type", apparel.id, typeTic)
  // on the parent category: the child "Groceries" inherits it
  const categoryTic = byLevel("product_category")
  if (categoryTic !== undefined) await tics.setTic("product_category", food.id, categoryTic)

  return {
    regionId: region.id,
    salesChannelId: channel.salesChannelId,
    publishableKey: channel.publishableKey,
    shippingProfileId: profile.id,
    shippingOptionId: seattle.shippingOptionId,
    shippingPrice,
    stockLocationId: seattle.stockLocationId,
    products: seeded,
  }
}

export interface ChannelOptions {
  /** a fixed id (a medusa-config's option `connections` can name it before the seed runs) */
  id?: string
  name: string
  publishableKey?: { title: string; createdBy: string }
}

/** A sales channel and, when asked, a publishable key for it. */
export async function addSalesChannel<O extends ChannelOptions>(
  container: MedusaContainer,
  o: O,
): Promise<{ salesChannelId: string; publishableKey: O["publishableKey"] extends object ? string : undefined }> {
  let salesChannelId: string
  if (o.id) {
    // the module keeps a given id; Medusa's CreateSalesChannelDTO (and so its workflow) has no id field
    const channels = container.resolve(Modules.SALES_CHANNEL) as unknown as {
      createSalesChannels(d: { id: string; name: string }): Promise<{ id: string }>
    }
    salesChannelId = (await channels.createSalesChannels({ id: o.id, name: o.name })).id
  } else {
    const {
      result: [channel],
    } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: o.name }] } })
    salesChannelId = channel.id
  }
  let token: string | undefined
  if (o.publishableKey) {
    const {
      result: [key],
    } = await createApiKeysWorkflow(container).run({
      input: { api_keys: [{ title: o.publishableKey.title, type: "publishable", created_by: o.publishableKey.createdBy }] },
    })
    await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [salesChannelId] } })
    token = key.token
  }
  return { salesChannelId, publishableKey: token as O["publishableKey"] extends object ? string : undefined }
}

export interface WarehouseOptions {
  name: string
  address: LocationAddress
  /** the sales channels it serves */
  salesChannelIds: string[]
  shippingProfileId: string
  /** names its service zone (the whole US) */
  zone: string
  option: {
    name: string
    type: { label: string; description: string; code: string }
    /** flat, USD */
    price: number
    /** also a price for this region (tax-inclusive when the region prefers tax-inclusive prices) */
    regionId?: string
  }
}

/** A stock location with the manual fulfillment provider, a US service zone and a flat shipping option. */
export async function addWarehouse(
  container: MedusaContainer,
  o: WarehouseOptions,
): Promise<{ stockLocationId: string; shippingOptionId: string }> {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: o.name, address: o.address }] } })
  if (o.salesChannelIds.length)
    await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: o.salesChannelIds } })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })
  const fset = await fulfillment.createFulfillmentSets({
    name: `US shipping from the ${o.name}`,
    type: "shipping",
    service_zones: [{ name: o.zone, geo_zones: [{ type: "country", country_code: "us" }] }],
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
        name: o.option.name,
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: fset.service_zones[0].id,
        shipping_profile_id: o.shippingProfileId,
        type: o.option.type,
        prices: [
          { currency_code: "usd", amount: o.option.price },
          ...(o.option.regionId ? [{ region_id: o.option.regionId, amount: o.option.price }] : []),
        ],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })
  return { stockLocationId: location.id, shippingOptionId: option.id }
}

/**
 * Tax-inclusive prices in a region (issue 17): the region's price preference turns
 * `is_tax_inclusive`, and each variant given gets a price with the region rule (Medusa treats a
 * price as tax-inclusive when it carries the region rule and the region prefers inclusive prices).
 * A shipping option's region price turns tax-inclusive with it; the variants not given keep their
 * currency price, tax-exclusive (a cart of both is a mixed cart).
 */
export async function setTaxInclusiveRegionPrices(
  container: MedusaContainer,
  regionId: string,
  prices: { variantId: string; amount: number }[],
): Promise<void> {
  const pricing = container.resolve(Modules.PRICING)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  // creating a region makes its preference (tax-exclusive): turn it inclusive
  const [pref] = await pricing.listPricePreferences({ attribute: "region_id", value: regionId })
  if (pref) await pricing.updatePricePreferences(pref.id, { is_tax_inclusive: true })
  else await pricing.createPricePreferences([{ attribute: "region_id", value: regionId, is_tax_inclusive: true }])
  const { data: variants } = await query.graph({
    entity: "product_variant",
    fields: ["id", "price_set.id"],
    filters: { id: prices.map((p) => p.variantId) },
  })
  await pricing.addPrices(
    prices.map((p) => {
      const priceSetId = variants.find((v) => v.id === p.variantId)?.price_set?.id
      if (!priceSetId) throw new Error(`variant ${p.variantId} has no price set`)
      return { priceSetId, prices: [{ amount: p.amount, currency_code: "usd", rules: { region_id: regionId } }] }
    }),
  )
}

/** Canada on Medusa's system tax provider at 13 %: the control region the plugin must not tax (its id). */
export async function seedCanadaRegion(container: MedusaContainer): Promise<string> {
  const {
    result: [canada],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "Canada", currency_code: "usd", countries: ["ca"], automatic_taxes: true, payment_providers: ["pp_system_default"] },
      ],
    },
  })
  await createTaxRegionsWorkflow(container).run({
    input: [{ country_code: "ca", provider_id: "tp_system", default_tax_rate: { rate: 13, code: "CA-DEFAULT", name: "Canada" } }],
  })
  return canada.id
}
