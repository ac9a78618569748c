/**
 * Seeds the demo store (run by `npm run demo` as `medusa exec ./seed.ts`, after the migrations),
 * through Medusa's own workflows and modules, as a merchant's seed script would:
 *  - the store in USD; a sales channel "Demo webshop" with a publishable key
 *  - a region "United States" (automatic taxes, system payment provider) and a US tax region whose
 *    provider is the plugin's (tp_sales-tax_sales-tax)
 *  - a Seattle warehouse with a US fulfillment set and a flat "Standard" shipping option
 *  - products whose TICs sit at each level the plugin resolves (product, type, category, default)
 *  - an admin user (for `--serve`) and a secret API key (for the demo's admin calls)
 * and writes what the demo needs to the JSON file named by DEMO_SEED_OUT.
 */
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
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
  createUsersWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkProductsToSalesChannelWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"

/** Medusa stores tax providers as tp_<identifier>_<id>; the plugin's identifier and our id are "sales-tax". */
const PROVIDER_ID = "tp_sales-tax_sales-tax"
/** Key of the plugin's TIC-assignment module (SALES_TAX_MODULE). */
const SALES_TAX_MODULE = "salesTax"

export type ProductKey = "lamp" | "tshirt" | "jacket" | "coffee" | "giftcard" | "sweater"

export interface DemoProduct {
  id: string
  variantId: string
  title: string
  /** unit price, USD, tax-exclusive (the sweater's: tax-inclusive, see taxInclusive) */
  price: number
  /** the price includes tax (the region's tax-inclusive price: issue 17) */
  taxInclusive?: boolean
  /** the TIC the plugin should resolve, and where it is assigned */
  tic: number
  ticSource: "product" | "product_type" | "product_category" | "default"
  category: string
}

/** The second sales channel (fixed id: medusa-config.js routes it to its own connection, option `connections`). */
export const WHOLESALE_CHANNEL_ID = "sc_demo_wholesale"

export interface DemoSeed {
  regionId: string
  salesChannelId: string
  publishableKey: string
  secretKey: string
  shippingOptionId: string
  shippingPrice: number
  admin: { email: string; password: string }
  products: Record<ProductKey, DemoProduct>
  /** issue 16: a second sales channel on its own connection, shipping from a second stock location (Austin, TX) */
  wholesale: { salesChannelId: string; publishableKey: string; shippingOptionId: string; stockLocationId: string }
  seattleLocationId: string
}

interface TicService {
  setTic(targetType: string, targetId: string, tic: number | null): Promise<unknown>
}

export default async function seedDemoStore({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const storeModule = container.resolve(Modules.STORE)
  const auth = container.resolve(Modules.AUTH)
  const out = process.env.DEMO_SEED_OUT
  if (!out) throw new Error("DEMO_SEED_OUT is not set (this script is run by `npm run demo`)")
  const adminEmail = process.env.DEMO_ADMIN_EMAIL || "admin@example.com"
  const adminPassword = process.env.DEMO_ADMIN_PASSWORD || "supersecret"
  const shippingPrice = 8

  logger.info("demo seed: store, sales channel, keys")
  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Demo webshop" }] },
  })
  const [store] = await storeModule.listStores({}, { take: 1 })
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        supported_currencies: [{ currency_code: "usd", is_default: true }],
        default_sales_channel_id: salesChannel.id,
      },
    },
  })
  const {
    result: [publishable],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Demo webshop", type: "publishable", created_by: "demo" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: publishable.id, add: [salesChannel.id] } })
  const {
    result: [secret],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "npm run demo", type: "secret", created_by: "demo" }] },
  })

  logger.info("demo seed: region and tax region on the sales-tax provider")
  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: "United States",
          currency_code: "usd",
          countries: ["us"],
          automatic_taxes: true,
          payment_providers: ["pp_system_default"],
        },
      ],
    },
  })
  await createTaxRegionsWorkflow(container).run({
    input: [{ country_code: "us", provider_id: PROVIDER_ID }],
  })
  await updateStoresWorkflow(container).run({
    input: { selector: { id: store.id }, update: { default_region_id: region.id } },
  })

  logger.info("demo seed: warehouse, fulfillment and shipping option")
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
    service_zones: [{ name: "United States", geo_zones: [{ type: "country", country_code: "us" }] }],
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
        // the currency price only: the region's prices are tax-inclusive (the sweater's), shipping stays tax-exclusive
        prices: [{ currency_code: "usd", amount: shippingPrice }],
        rules: [
          { attribute: "enabled_in_store", value: "true", operator: "eq" },
          { attribute: "is_return", value: "false", operator: "eq" },
        ],
      },
    ],
  })

  logger.info("demo seed: catalogue with TICs")
  const {
    result: [apparel],
  } = await createProductTypesWorkflow(container).run({
    input: { product_types: [{ value: "Apparel" }] },
  })
  const {
    result: [food],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Food", is_active: true }] },
  })
  const {
    result: [groceries],
  } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: [{ name: "Groceries", is_active: true, parent_category_id: food.id }] },
  })
  const product = (title: string, handle: string, price: number, extra: Record<string, unknown> = {}) => ({
    title,
    handle,
    status: "published" as const,
    shipping_profile_id: profile.id,
    sales_channels: [{ id: salesChannel.id }],
    options: [{ title: "Size", values: ["One size"] }],
    variants: [
      {
        title: "One size",
        sku: handle.toUpperCase(),
        options: { Size: "One size" },
        manage_inventory: false,
        prices: [{ currency_code: "usd", amount: price }],
      },
    ],
    ...extra,
  })
  const prices: Record<ProductKey, number> = { lamp: 49.99, tshirt: 29.95, jacket: 120, coffee: 14.5, giftcard: 50, sweater: 112 }
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        product("Desk lamp", "desk-lamp", prices.lamp),
        product("T-shirt", "t-shirt", prices.tshirt),
        product("Rain jacket", "rain-jacket", prices.jacket, { type_id: apparel.id }),
        product("Coffee beans", "coffee-beans", prices.coffee, { category_ids: [groceries.id] }),
        product("Gift card", "gift-card", prices.giftcard),
        product("Wool sweater", "wool-sweater", prices.sweater),
      ],
    },
  })
  const byHandle = (h: string) => {
    const p = products.find((x) => x.handle === h)
    if (!p || !p.variants?.[0]) throw new Error(`seeded product ${h} not found`)
    return { id: p.id, variantId: p.variants[0].id, title: p.title }
  }

  // TIC assignments (what the admin's TIC widgets do): product, type, category; the lamp has none
  const tics = container.resolve<TicService>(SALES_TAX_MODULE)
  await tics.setTic("product", byHandle("t-shirt").id, 20010) // Clothing
  await tics.setTic("product", byHandle("gift-card").id, 10005) // Gift cards
  await tics.setTic("product_type", apparel.id, 20010) // every "Apparel" product is clothing
  await tics.setTic("product_category", food.id, 40030) // Food for home consumption; "Groceries" inherits it
  await tics.setTic("product", byHandle("wool-sweater").id, 20010) // Clothing

  // tax-inclusive prices (issue 17): the region prefers tax-inclusive prices, and the sweater has a
  // region price ($112, tax included); every other price is the currency's, tax-exclusive
  const pricing = container.resolve(Modules.PRICING)
  const [pref] = await pricing.listPricePreferences({ attribute: "region_id", value: region.id })
  if (pref) await pricing.updatePricePreferences(pref.id, { is_tax_inclusive: true })
  else await pricing.createPricePreferences([{ attribute: "region_id", value: region.id, is_tax_inclusive: true }])
  const {
    data: [sweaterVariant],
  } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "product_variant",
    fields: ["id", "price_set.id"],
    filters: { id: byHandle("wool-sweater").variantId },
  })
  await pricing.addPrices({
    priceSetId: sweaterVariant.price_set!.id,
    prices: [{ amount: prices.sweater, currency_code: "usd", rules: { region_id: region.id } }],
  })

  logger.info("demo seed: a second sales channel (its own connection) shipping from a second warehouse in Texas")
  // a fixed id: medusa-config.js names it in option `connections` (the module keeps a given id)
  const channels = container.resolve(Modules.SALES_CHANNEL) as unknown as {
    createSalesChannels(d: { id: string; name: string }): Promise<unknown>
  }
  await channels.createSalesChannels({ id: WHOLESALE_CHANNEL_ID, name: "Demo wholesale" })
  const {
    result: [wholesaleKey],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Demo wholesale", type: "publishable", created_by: "demo" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: wholesaleKey.id, add: [WHOLESALE_CHANNEL_ID] } })
  const {
    result: [austin],
  } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [
        {
          name: "Austin warehouse",
          address: { address_1: "500 Congress Ave", city: "Austin", country_code: "us", province: "TX", postal_code: "78701" },
        },
      ],
    },
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: austin.id, add: [WHOLESALE_CHANNEL_ID] } })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: austin.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })
  const austinSet = await fulfillment.createFulfillmentSets({
    name: "US shipping from Austin",
    type: "shipping",
    service_zones: [{ name: "United States (Austin)", geo_zones: [{ type: "country", country_code: "us" }] }],
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: austin.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: austinSet.id },
  })
  const {
    result: [austinOption],
  } = await createShippingOptionsWorkflow(container).run({
    input: [
      {
        name: "Freight from Austin",
        price_type: "flat",
        provider_id: "manual_manual",
        service_zone_id: austinSet.service_zones[0].id,
        shipping_profile_id: profile.id,
        type: { label: "Freight", description: "from Texas", code: "freight" },
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
  await linkProductsToSalesChannelWorkflow(container).run({
    input: { id: WHOLESALE_CHANNEL_ID, add: products.map((p) => p.id) },
  })

  logger.info("demo seed: admin user")
  const {
    result: [user],
  } = await createUsersWorkflow(container).run({ input: { users: [{ email: adminEmail }] } })
  const { authIdentity, error } = await auth.register("emailpass", { body: { email: adminEmail, password: adminPassword } })
  if (error || !authIdentity) throw new Error(`could not register the admin user: ${error ?? "no identity"}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: user.id } })

  const seed: DemoSeed = {
    regionId: region.id,
    salesChannelId: salesChannel.id,
    publishableKey: publishable.token,
    secretKey: secret.token,
    shippingOptionId: option.id,
    shippingPrice,
    admin: { email: adminEmail, password: adminPassword },
    products: {
      lamp: { ...byHandle("desk-lamp"), price: prices.lamp, tic: 0, ticSource: "default", category: "general goods" },
      tshirt: { ...byHandle("t-shirt"), price: prices.tshirt, tic: 20010, ticSource: "product", category: "clothing" },
      jacket: { ...byHandle("rain-jacket"), price: prices.jacket, tic: 20010, ticSource: "product_type", category: "clothing" },
      coffee: { ...byHandle("coffee-beans"), price: prices.coffee, tic: 40030, ticSource: "product_category", category: "groceries" },
      giftcard: { ...byHandle("gift-card"), price: prices.giftcard, tic: 10005, ticSource: "product", category: "gift card" },
      sweater: {
        ...byHandle("wool-sweater"),
        price: prices.sweater,
        tic: 20010,
        ticSource: "product",
        category: "clothing",
        taxInclusive: true,
      },
    },
    wholesale: {
      salesChannelId: WHOLESALE_CHANNEL_ID,
      publishableKey: wholesaleKey.token,
      shippingOptionId: austinOption.id,
      stockLocationId: austin.id,
    },
    seattleLocationId: location.id,
  }
  writeFileSync(out, JSON.stringify(seed, null, 2))
  logger.info(`demo seed: done (${out})`)
}
