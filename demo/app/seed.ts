/**
 * Seeds the demo store (run by `npm run demo` as `medusa exec`, after the migrations): the
 * development store's one seed (dev-store/seed.ts, which the integration tests run too: a sales
 * channel "Demo webshop" with a publishable key, the US region and its tax region on the plugin's
 * provider, the Seattle warehouse and its "Standard" shipping, products with TICs at each level the
 * plugin resolves), and what is the demo's own:
 *  - the store in USD, with that channel and region as its defaults
 *  - a secret API key (for the demo's admin calls) and an admin user (for `--serve`)
 *  - tax-inclusive prices in the region: the sweater at $112 tax included (issue 17)
 *  - a second sales channel on its own connection, shipping from a warehouse in Austin, TX (issue 16)
 * and writes what the demo needs to the JSON file named by DEMO_SEED_OUT.
 */
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createUsersWorkflow,
  linkProductsToSalesChannelWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"
import { PRODUCTS, addSalesChannel, addWarehouse, seedStore, setTaxInclusiveRegionPrices, type SeededProduct } from "../../dev-store/seed"

/** Medusa stores tax providers as tp_<identifier>_<id>; the plugin's identifier and our id are "sales-tax". */
const PROVIDER_ID = "tp_sales-tax_sales-tax"

export type ProductKey = keyof typeof PRODUCTS

export interface DemoProduct extends SeededProduct {
  /** the price includes tax (the region's tax-inclusive price: issue 17) */
  taxInclusive?: boolean
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

export default async function seedDemoStore({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const out = process.env.DEMO_SEED_OUT
  if (!out) throw new Error("DEMO_SEED_OUT is not set (this script is run by `npm run demo`)")
  const adminEmail = process.env.DEMO_ADMIN_EMAIL || "admin@example.com"
  const adminPassword = process.env.DEMO_ADMIN_PASSWORD || "supersecret"

  logger.info("demo seed: the development store (dev-store/seed.ts): channel, region on the sales-tax provider, warehouse, products")
  const store = await seedStore(container, {
    providerId: PROVIDER_ID,
    channelName: "Demo webshop",
    createdBy: "demo",
    // the lamp's general-goods TIC 0 set on it: a product left on the default is "unclassified" in
    // the setup checklist, and the demo store passes its own checklist
    products: { ...PRODUCTS, lamp: { ...PRODUCTS.lamp, ticSource: "product" } },
    // the currency price only: the region's prices are tax-inclusive (the sweater's), shipping stays tax-exclusive
    shippingRegionPrice: false,
  })

  logger.info("demo seed: store defaults, secret key")
  const [defaultStore] = await container.resolve(Modules.STORE).listStores({}, { take: 1 })
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: defaultStore.id },
      update: {
        supported_currencies: [{ currency_code: "usd", is_default: true }],
        default_sales_channel_id: store.salesChannelId,
        default_region_id: store.regionId,
      },
    },
  })
  const {
    result: [secret],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "npm run demo", type: "secret", created_by: "demo" }] },
  })

  // tax-inclusive prices (issue 17): the region prefers tax-inclusive prices, and the sweater has a
  // region price ($112, tax included); every other price is the currency's, tax-exclusive
  await setTaxInclusiveRegionPrices(container, store.regionId, [
    { variantId: store.products.sweater.variantId, amount: PRODUCTS.sweater.price },
  ])

  logger.info("demo seed: a second sales channel (its own connection) shipping from a second warehouse in Texas")
  // a fixed id: medusa-config.js names it in option `connections`
  const wholesale = await addSalesChannel(container, {
    id: WHOLESALE_CHANNEL_ID,
    name: "Demo wholesale",
    publishableKey: { title: "Demo wholesale", createdBy: "demo" },
  })
  const austin = await addWarehouse(container, {
    name: "Austin warehouse",
    address: { address_1: "500 Congress Ave", city: "Austin", country_code: "us", province: "TX", postal_code: "78701" },
    salesChannelIds: [WHOLESALE_CHANNEL_ID],
    shippingProfileId: store.shippingProfileId,
    zone: "United States (Austin)",
    option: {
      name: "Freight from Austin",
      type: { label: "Freight", description: "from Texas", code: "freight" },
      price: store.shippingPrice,
      regionId: store.regionId,
    },
  })
  await linkProductsToSalesChannelWorkflow(container).run({
    input: { id: WHOLESALE_CHANNEL_ID, add: Object.values(store.products).map((p) => p.id) },
  })

  logger.info("demo seed: admin user")
  const auth = container.resolve(Modules.AUTH)
  const {
    result: [user],
  } = await createUsersWorkflow(container).run({ input: { users: [{ email: adminEmail }] } })
  const { authIdentity, error } = await auth.register("emailpass", { body: { email: adminEmail, password: adminPassword } })
  if (error || !authIdentity) throw new Error(`could not register the admin user: ${error ?? "no identity"}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: user.id } })

  const seed: DemoSeed = {
    regionId: store.regionId,
    salesChannelId: store.salesChannelId,
    publishableKey: store.publishableKey,
    secretKey: secret.token,
    shippingOptionId: store.shippingOptionId,
    shippingPrice: store.shippingPrice,
    admin: { email: adminEmail, password: adminPassword },
    products: { ...store.products, sweater: { ...store.products.sweater, taxInclusive: true } },
    wholesale: {
      salesChannelId: wholesale.salesChannelId,
      publishableKey: wholesale.publishableKey,
      shippingOptionId: austin.shippingOptionId,
      stockLocationId: austin.stockLocationId,
    },
    seattleLocationId: store.stockLocationId,
  }
  writeFileSync(out, JSON.stringify(seed, null, 2))
  logger.info(`demo seed: done (${out})`)
}
