/**
 * A store change of a cart, as the plugin's middleware sees it: the plugin's own lock of the change, the per-process
 * memory of whether the provider quotes a cart, and which routes may move a cart into the provider's scope.
 */
import { LRUCache } from "lru-cache"
import type { CartState, LockingLike } from "../../medusa/cart-restore"
import { runtimeSlot } from "../../runtime"
import { CART_ITSELF_RE } from "../../medusa/store-cart-routes"

/**
 * The lock of a cart's store change, held from the restore read until the request answered: a refused request never
 * puts back a state read before another's change. Not Medusa's key (the cart id): the route's workflows take that one.
 */
export const CART_CHANGE_LOCK_PREFIX = "sales-tax:cart-change:"

/** Takes `key` and holds it until `released` settles; false when not taken within `timeout` seconds. */
export function holdLock(
  locking: LockingLike,
  key: string,
  released: Promise<unknown>,
  o: { timeout: number; expire: number },
): Promise<boolean> {
  let taken!: () => void
  const got = new Promise<boolean>((r) => (taken = () => r(true)))
  const held = locking.execute(
    key,
    async () => {
      taken()
      await released.catch(() => undefined)
    },
    { timeout: o.timeout, expire: o.expire },
  )
  return Promise.race([
    got,
    held.then(
      () => true,
      () => false,
    ),
  ])
}

/**
 * Whether the provider quotes a cart, as this process last saw it: `false` spares the next change the restore read. A
 * cart another instance moved into scope is still `false` here: Medusa's compensation puts it back after an outage, and
 * its tax is computed from Medusa's read, never from this cache.
 */
export const cartTaxability = runtimeSlot("cartTaxability", () => new LRUCache<string, boolean>({ max: 10_000 }))

/**
 * The state each cart's last quoted store change here left it in: the next change's restore point instead of a read, taken
 * by that change however it ends; a cart changed elsewhere since is left alone by the restore (quotedStateHolds).
 */
export const quotedStates = runtimeSlot("quotedStates", () => new LRUCache<string, CartState>({ max: 5_000, ttl: 30 * 60_000 }))

/** Pure: whether a request may move its cart into the provider's scope: `POST /store/carts/:id` naming a region or a maybe-US address. */
export function mayEnterScope(path: string, body: unknown): boolean {
  if (!CART_ITSELF_RE.test(path)) return false
  const b = (body ?? {}) as { region_id?: unknown; shipping_address?: unknown }
  if (b.region_id !== undefined && b.region_id !== null) return true
  const a = b.shipping_address
  if (a === undefined || a === null) return false
  if (typeof a !== "object") return true
  const country = (a as { country_code?: unknown }).country_code
  return country === undefined || country === null || String(country).toLowerCase() === "us"
}
