/** A store cart request's scope, opened by the store middleware (tax-resync.ts), read by the cart-refresh hook and the context handler. */
import { AsyncLocalStorage } from "node:async_hooks"
import { runtimeSlot, type SalesTaxRuntime } from "../../runtime"
import type { TaxedEntity } from "../../medusa/taxed-entity"
import type { CartRow, CartState } from "../../medusa/cart-restore"
import type { TaxRunCart } from "../../medusa/update-tax-lines"

export interface CartRefreshScope {
  cartId: string
  /** Known US-taxed (or not) after this route: read so before a route that cannot change its destination. */
  knownUs: boolean
  knownNotUs?: boolean
  /** Whether the provider quotes the cart, from Medusa's own read in the refresh (salesTaxCartPromotionsValidate). */
  destination?: { usTaxed: boolean }
  /** Set with `destination` when that read is Medusa's full one: the tax run starts from it. */
  refreshRead?: TaxRunCart & CartRow
  /** The billing address before a route that cannot change it: the restore point takes it from here. */
  billingBefore?: { address: Record<string, unknown> | null }
  /** Set by the hook's direct tax run: the cart as that run left it, the restore point of its next change. */
  quoted?: CartState
  /** Set by the hook: it ran for this cart in this request (and whether it computed tax). */
  ran?: { taxed: boolean }
  /** The cart the refresh hook read for its tax run, while it lasts: the context handler's snapshot reads it. */
  taxCart?: TaxedEntity
}

/** In the runtime: the middleware and the hook agree even if the plugin's files load twice. */
export const cartRefreshStorage = runtimeSlot("cartRefreshScope", () => new AsyncLocalStorage<CartRefreshScope>())

/** The cart the refresh hook read for this tax run, when it is this cart; else undefined (read it). */
export function preparedTaxCart(cartId: string, rt?: SalesTaxRuntime): TaxedEntity | undefined {
  const c = cartRefreshStorage(rt).getStore()?.taxCart
  return c && c.id === cartId ? c : undefined
}
