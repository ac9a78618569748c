/**
 * The scripted storefront checkout of `npm run bench:provider` (and of its count test,
 * bench/provider-checkout.test.ts): the getTaxLines calls Medusa 2.21 makes during a checkout
 * (items and shipping asked separately at each recalculation, plus the plugin's own refresh after
 * each cart mutation and before completion), with the cart snapshot built as the plugin's hook
 * builds it: the certificate identity comes from the request's authenticated actor
 * (src/checkout/hooks/request-actor.ts), never from the cart's customer_id alone.
 */
import type { SalesTaxProviderService } from "../src/checkout/quote/provider"
import { CONTEXT_KEY } from "../src/constants"
import type { CartSnapshotInput } from "../src/service/cart/context"
import { exemptionIdentity, requestScope, runAsActor, type RequestActor } from "../src/checkout/hooks/request-actor"

export const CHECKOUT_ADDRESS = {
  country_code: "us",
  province_code: "NY",
  postal_code: "10118",
  city: "New York",
  address_1: "350 5th Ave",
}

/**
 * A cart of `nItems` lines (5 lines + shipping is the bench's miss cart). `inclusive`: the even
 * lines (TIC 0) and the shipping method at tax-inclusive prices (a mixed cart, as a region whose
 * prices include tax gives: its variants' region prices and its shipping option's).
 */
export function benchSnapshot(
  cartId: string,
  nItems: number,
  withShipping = true,
  qtyBump = 0,
  customerId: string | null = null,
  inclusive = false,
): CartSnapshotInput {
  return {
    v: 1,
    cart_id: cartId,
    customer_id: customerId,
    currency_code: "usd",
    items: Array.from({ length: nItems }, (_, i) => ({
      id: `item_${i}`,
      product_id: `prod_${i}`,
      quantity: String(1 + (i % 3) + qtyBump),
      unit_price: (9.99 + i).toFixed(2),
      discount: i === 1 ? "1.5" : "0",
      tic: i % 2 ? 20010 : 0,
      ...(inclusive && i % 2 === 0 ? { is_tax_inclusive: true } : {}),
    })),
    shipping_methods: withShipping ? [{ id: "sm_1", amount: "8", discount: "0", ...(inclusive ? { is_tax_inclusive: true } : {}) }] : [],
  }
}
export const itemLines = (s: CartSnapshotInput) =>
  s.items.map((i) => ({
    line_item: { id: i.id, product_id: i.product_id, quantity: Number(i.quantity), unit_price: Number(i.unit_price), currency_code: "usd" },
    rates: [],
  })) as never
export const shipLines = (s: CartSnapshotInput) =>
  (s.shipping_methods ?? []).map((m) => ({
    shipping_line: { id: m.id, shipping_option_id: "so_1", unit_price: Number(m.amount), currency_code: "usd" },
    rates: [],
  })) as never
export const taxContext = (s: CartSnapshotInput) => ({ address: CHECKOUT_ADDRESS, additional_context: { [CONTEXT_KEY]: s } }) as never

/** What the hook adds for the request's actor (cart rule of exemptionIdentity). */
function asHookBuildsIt(s: CartSnapshotInput): CartSnapshotInput {
  const id = exemptionIdentity("cart", { customer_id: s.customer_id }, requestScope()?.actor())
  return id ? { ...s, exemption_customer_id: id.customerId, exemption_basis: id.basis } : s
}

export interface CheckoutRun {
  steps: number
  getTaxLinesCalls: number
  distinctStates: number
  postCarts: number
  certificateLists: number
}

/**
 * One checkout of cart `cartId` for `customerId` (null: a guest cart) by a request authenticated
 * as `actor` (null: anonymous). `counts` reads the service's request counts (calculateCarts,
 * listCertificates); the run reports the difference.
 */
export async function scriptedCheckout(
  provider: SalesTaxProviderService,
  opts: {
    cartId: string
    customerId: string | null
    actor: RequestActor | null
    counts: () => Promise<Record<string, number>>
    /** tax-inclusive prices for the even lines and shipping (benchSnapshot) */
    inclusive?: boolean
  },
): Promise<CheckoutRun> {
  const { cartId: id, customerId: cus } = opts
  const snap = (nItems: number, withShipping: boolean, qtyBump: number) =>
    benchSnapshot(id, nItems, withShipping, qtyBump, cus, opts.inclusive ?? false)
  const steps: Array<[string, CartSnapshotInput, number]> = [
    // [step, cart state, how many tax recalculations Medusa + the plugin's refresh make]
    ["set shipping address (1 item)", snap(1, false, 0), 2],
    ["add 2nd item", snap(2, false, 0), 2],
    ["add 3rd item", snap(3, false, 0), 2],
    ["add shipping method", snap(3, true, 0), 2],
    ["change a quantity", snap(3, true, 1), 1],
    ["POST /taxes (storefront recalc)", snap(3, true, 1), 1],
    ["update email (same taxable state)", snap(3, true, 1), 2],
    ["complete (refresh before placing)", snap(3, true, 1), 1],
  ]
  const before = await opts.counts()
  let getTaxLinesCalls = 0
  for (const [, s, times] of steps) {
    for (let k = 0; k < times; k++) {
      // each recalculation is its own request: the hook reads the actor, then Medusa asks for items and shipping
      await runAsActor(opts.actor, async () => {
        const snap = asHookBuildsIt(s)
        getTaxLinesCalls++
        await provider.getTaxLines(itemLines(snap), [], taxContext(snap))
        if (snap.shipping_methods?.length) {
          getTaxLinesCalls++
          await provider.getTaxLines([], shipLines(snap), taxContext(snap))
        }
      })
    }
  }
  const after = await opts.counts()
  const diff = (k: string) => (after[k] ?? 0) - (before[k] ?? 0)
  return {
    steps: steps.length,
    getTaxLinesCalls,
    distinctStates: new Set(steps.map(([, s]) => JSON.stringify(s))).size,
    postCarts: diff("calculateCarts"),
    certificateLists: diff("listCertificates"),
  }
}
