/**
 * The specs' store: the development store's one seed (dev-store/seed.ts, which the demo runs too)
 * with the tests' own names for the products (general, shirt, jacket, coffee), a shipping option
 * with a region price (tax-inclusive once a spec turns the region's prices inclusive) and a default
 * rate on the US tax region (charged only by failurePolicy "fallback").
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PRODUCTS, seedStore as seedDevStore, setTaxInclusiveRegionPrices, type SeededStore as DevStore } from "../../dev-store/seed"
import { SALES_TAX_PROVIDER_ID } from "../../src/constants"

export { TICS, type SeededProduct } from "../../dev-store/seed"

const TEST_PRODUCTS = {
  /** no TIC anywhere: the default TIC (0, general goods) */
  general: PRODUCTS.lamp,
  /** TIC 20010 on the product itself */
  shirt: PRODUCTS.tshirt,
  /** TIC 20010 through its product type "Apparel" */
  jacket: PRODUCTS.jacket,
  /** TIC 40030 through its category "Groceries" (parent category "Food") */
  coffee: PRODUCTS.coffee,
}

export interface SeededStore extends DevStore<keyof typeof TEST_PRODUCTS> {
  /** Percentage on the US tax region's default rate (used only by the fallback policy). */
  regionDefaultRate: number
}

export async function seedStore(container: MedusaContainer): Promise<SeededStore> {
  const regionDefaultRate = 5
  const store = await seedDevStore(container, {
    providerId: SALES_TAX_PROVIDER_ID,
    channelName: "Webshop",
    createdBy: "test",
    products: TEST_PRODUCTS,
    shippingRegionPrice: true,
    regionDefaultRate,
  })
  return { ...store, regionDefaultRate }
}

/** Tax-inclusive prices in the store's region for the variants given (dev-store/seed.ts: setTaxInclusiveRegionPrices). */
export async function seedTaxInclusiveRegionPrices(
  container: MedusaContainer,
  store: Pick<SeededStore, "regionId">,
  prices: { variantId: string; amount: number }[],
): Promise<void> {
  await setTaxInclusiveRegionPrices(container, store.regionId, prices)
}
