/**
 * Set-ups the provider and filing specs share: a store seeded once per spec and reset per test, an
 * exempt shopper with a certificate in the sandbox, and a placed order (storefront checkout through
 * completion).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { SALES_TAX_PROVIDER_ID } from "../../src/constants"
import type { SalesTaxProviderService } from "../../src/checkout/quote/provider"
import { adminAuth } from "../filing-helpers/medusa"
import type { TestSandbox } from "./sandbox"
import { seedStore, type SeededStore } from "./seed"
import { Checkout, createShopper, type ShopperAddress } from "./storefront"
import { ticAssignmentsChanged } from "../../src/service/tics/product-tic-cache"
import { clearOriginLocationMemo } from "../../src/checkout/origins/origin-locations"

type Api = ConstructorParameters<typeof Checkout>[0]

/** The plugin's tax provider as the Tax module holds it. */
export function salesTaxProvider(container: MedusaContainer): SalesTaxProviderService {
  return (container.resolve(Modules.TAX) as any).getProvider(SALES_TAX_PROVIDER_ID) as SalesTaxProviderService
}

/*
 * Seed once per spec, start every test from it: a spec seeds in a beforeAll of its testSuite
 * (`seedCheckoutStore` / `seedFilingStore`); Medusa's runner copies the database after the suite's
 * beforeAll hooks and restores that copy before every further test, so each test starts from the
 * same seeded store (same ids) instead of seeding its own (a dozen workflows per test). The
 * per-test part is the spec's beforeEach (`resetCheckout` / `resetFiling`): the sandbox emptied,
 * the provider's breaker closed and its memory of the last-known rates it wrote cleared (the rows
 * went with the restored database). Carts, orders and customers are each test's own, so the
 * provider's caches (keyed by cart and customer ids) carry nothing from one test into the next.
 */

/** beforeAll of a checkout spec: the seeded store every test starts from. */
export async function seedCheckoutStore(container: MedusaContainer): Promise<SeededStore> {
  return seedStore(container)
}

/** beforeEach of a checkout spec: an empty sandbox and a closed breaker (the runner restored the database). */
export async function resetCheckout(container: MedusaContainer, sandbox: TestSandbox): Promise<void> {
  await sandbox.reset()
  const provider = salesTaxProvider(container)
  provider.breaker.reset()
  // the rates it wrote are gone with the restored database: it must write them again
  provider.writtenRates.clear()
  // so are the TIC assignments a test wrote: the tax-line hook's product TICs are read again
  ticAssignmentsChanged()
  // and the stock locations, fulfillment sets and channel links a test made: read again
  clearOriginLocationMemo()
}

/** beforeAll of a filing spec: the seeded store and an admin secret key every test starts from. */
export async function seedFilingStore(
  container: MedusaContainer,
): Promise<{ store: SeededStore; auth: { headers: Record<string, string> } }> {
  const store = await seedStore(container)
  const auth = await adminAuth(container)
  return { store, auth }
}

/** beforeEach of a filing spec: an empty sandbox (the runner restored the database). */
export async function resetFiling(sandbox: TestSandbox): Promise<void> {
  await sandbox.reset()
  // the TIC assignments and locations a test wrote went with the restored database (see resetCheckout)
  ticAssignmentsChanged()
  clearOriginLocationMemo()
}

/** A spec with one test (or a bench): the sandbox emptied, then a store seeded and an admin key (resetFiling, seedFilingStore). */
export async function freshFilingStore(
  container: MedusaContainer,
  sandbox: TestSandbox,
): Promise<{ store: SeededStore; auth: { headers: Record<string, string> } }> {
  await resetFiling(sandbox)
  return seedFilingStore(container)
}

/** A registered shopper with an active Resale certificate for Minnesota in the sandbox. */
export async function createExemptShopper(api: Api, store: SeededStore, sandbox: TestSandbox, email: string) {
  const shopper = await createShopper(api, store, email)
  const cert = await sandbox.client.createCertificate({
    customerId: shopper.customerId,
    customerName: "Buyer Inc",
    address: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
    reason: "Resale",
    customerBusinessType: "RetailTrade",
    states: [{ abbreviation: "MN" }],
  })
  return { shopper, cert }
}

/**
 * A storefront checkout to an order: address, then the `lines` ([variantId, quantity]), the
 * store's shipping option, payment and completion.
 */
export async function placeOrder(
  api: Api,
  store: SeededStore,
  address: ShopperAddress,
  lines: [variantId: string, quantity: number][],
): Promise<{ order: any; cartId: string }> {
  const co = new Checkout(api, store)
  await co.create()
  await co.setAddress(address)
  for (const [variantId, quantity] of lines) await co.addItem(variantId, quantity)
  await co.addShipping()
  const order = await co.complete()
  return { order, cartId: co.cartId }
}
