/**
 * Issue 16 in the demo: the second sales channel ("Demo wholesale") is on a connection of its own
 * and ships from the Austin warehouse. One storefront checkout on it; the order is read back from
 * ITS connection at the service (and not found on the default one), with the Austin origin; the
 * sandbox's request counts per connection show which connection did what.
 */
import Medusa from "@medusajs/js-sdk"
import { SalesTaxClient } from "../../src/service/client"
import type { OrderRecord } from "../../packages/contract/src/index"
import type { Ctx, ShopperAddress } from "./scenario"
import { DemoError } from "./ui"

/** The demo's second connection on the sandbox (the sandbox serves both). */
export const WHOLESALE_CONNECTION = { connectionId: "11111111-2222-4333-8444-000000000016", apiKey: "demo-wholesale-key" }

export const WHOLESALE_ADDRESS: ShopperAddress = {
  first_name: "Wes",
  last_name: "Wholesale",
  company: "Corner Store LLC",
  address_1: "600 Main St",
  city: "Houston",
  province: "TX",
  postal_code: "77002",
  country_code: "us",
}

export interface WholesaleOrder {
  orderId: string
  displayId: number
  /** the order as its own connection holds it */
  filed: OrderRecord | null
  /** whether the default connection holds it too (it must not) */
  onDefault: boolean
  chargedTax: number
}

/** A checkout on the wholesale channel (its publishable key, its Austin shipping option), then the filing read back per connection. */
export async function wholesaleCheckout(ctx: Ctx, baseUrl: string): Promise<WholesaleOrder> {
  const w = ctx.seed.wholesale
  const sdk = new Medusa({ baseUrl: ctx.storeUrl, publishableKey: w.publishableKey })
  const email = "buyer@corner-store.example.com"
  const { cart } = await sdk.store.cart.create({ region_id: ctx.seed.regionId, email })
  await sdk.store.cart.createLineItem(cart.id, { variant_id: ctx.seed.products.lamp.variantId, quantity: 4 })
  await sdk.store.cart.createLineItem(cart.id, { variant_id: ctx.seed.products.coffee.variantId, quantity: 10 })
  await sdk.store.cart.update(cart.id, { email, shipping_address: WHOLESALE_ADDRESS, billing_address: WHOLESALE_ADDRESS })
  const { cart: withShipping } = await sdk.store.cart.addShippingMethod(cart.id, { option_id: w.shippingOptionId })
  await sdk.store.payment.initiatePaymentSession(withShipping, { provider_id: "pp_system_default" })
  const res = await sdk.store.cart.complete(cart.id)
  if (res.type !== "order") throw new DemoError(`wholesale checkout: the cart was not completed: ${res.error?.message ?? "unknown reason"}`)
  const own = new SalesTaxClient({ baseUrl, ...WHOLESALE_CONNECTION, retry: false })
  let filed: OrderRecord | null = null
  // a hang guard, as waitForFiling's (scenario.ts)
  const deadline = Date.now() + 180_000
  while (!filed && Date.now() < deadline) {
    filed = await own.getOrder(res.order.id).catch(() => null)
    if (!filed) await new Promise((r) => setTimeout(r, 200))
  }
  const onDefault = (await ctx.service.getOrder(res.order.id).catch(() => null)) !== null
  return {
    orderId: res.order.id,
    displayId: Number(res.order.display_id),
    filed,
    onDefault,
    chargedTax: Number(res.order.tax_total ?? 0),
  }
}

/** Requests per operation and connection, from the sandbox's counts. */
export async function countsByConnection(baseUrl: string, apiKey: string): Promise<Record<string, Record<string, number>>> {
  const r = await fetch(`${baseUrl}/_sandbox/counts`, { headers: { "x-api-key": apiKey } })
  return ((await r.json()) as { byConnection?: Record<string, Record<string, number>> }).byConnection ?? {}
}
