/**
 * A store cart request's scope (AsyncLocalStorage), opened by the plugin's store middleware
 * (src/checkout/store/tax-resync.ts) and read by the cart-refresh hook (cart-refresh.ts)
 * and the tax-line context handler. Importing this file registers nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import { runtimeSlot, type SalesTaxRuntime } from "../../runtime"
import type { TaxedEntity } from "../../medusa/taxed-entity"
import type { CartRow, CartState } from "../../medusa/cart-restore"
import type { TaxRunCart } from "../../medusa/update-tax-lines"

/** What a store cart request's scope holds for the hook (set by the middleware, read and marked here). */
export interface CartRefreshScope {
  cartId: string
  /** true: the cart is known to be US-taxed after this route (read before a route that cannot change its destination). */
  knownUs: boolean
  /**
   * true: the cart is known NOT to be US-taxed after this route (read so before a route that
   * cannot change its destination or region): the hook does not read it again to find out.
   */
  knownNotUs?: boolean
  /**
   * Set by the plugin's handler of updateCartPromotionsWorkflow's `validate` hook (cart-refresh.ts)
   * from the cart Medusa's own refresh (or promotions route) read, region and shipping address
   * included: whether the provider quotes the cart now. The hook and the after-route refresh use
   * it instead of reading the cart themselves.
   */
  destination?: { usTaxed: boolean }
  /** Set with `destination` when that read is Medusa's full one (items, shipping methods, customer): the tax run starts from it. */
  refreshRead?: TaxRunCart & CartRow
  /**
   * The cart's billing address before this request's route, when that route cannot change it (all
   * but `POST /store/carts/:id`) and the cart was remembered: the tax run's restore point takes it
   * from there instead of reading it.
   */
  billingBefore?: { address: Record<string, unknown> | null }
  /** Set by the hook's direct tax run: the cart as that run left it, the restore point of its next change. */
  quoted?: CartState
  /** Set by the hook: it ran for this cart in this request (and whether it computed tax). */
  ran?: { taxed: boolean }
  /**
   * The cart as the refresh hook read it for the tax run it is making (TAXED_FIELDS with Medusa's
   * own tax fields), while that run lasts: the context handler builds the snapshot from it instead
   * of reading the cart again.
   */
  taxCart?: TaxedEntity
}

/** Kept in the plugin's runtime (src/runtime.ts) so that the middleware and the hook agree even if the plugin's files load twice. */
export const cartRefreshStorage = runtimeSlot("cartRefreshScope", () => new AsyncLocalStorage<CartRefreshScope>())

/** The cart the refresh hook read for this tax run, when it is this cart; else undefined (read it). */
export function preparedTaxCart(cartId: string, rt?: SalesTaxRuntime): TaxedEntity | undefined {
  const c = cartRefreshStorage(rt).getStore()?.taxCart
  return c && c.id === cartId ? c : undefined
}
