/**
 * Shared integration-test helpers (provider, filing and admin specs):
 * - sandbox.ts     startTestSandbox(): the sandbox in-process on an ephemeral port + /_sandbox controls
 * - config.ts      useSalesTaxSandbox(overrides) / salesTaxEnv(): point medusa-config.ts at it
 * - seed.ts        seedStore(container): region + tax region on the provider, channel, key,
 *                  shipping, products with TICs at each level
 * - storefront.ts  Checkout (store-API steps), createShopper, ADDRESSES, CART_FIELDS, cents()
 * - scenarios.ts   seedCheckoutStore / seedFilingStore (beforeAll) with resetCheckout / resetFiling
 *                  (beforeEach), freshFilingStore (one-test specs), createExemptShopper,
 *                  placeOrder (checkout to an order), salesTaxProvider(container)
 */
export * from "./sandbox"
export * from "./config"
export * from "./seed"
export * from "./storefront"
export * from "./scenarios"
