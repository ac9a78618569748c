/**
 * A store change of a cart, as the plugin's middleware sees it: the plugin's own lock of the change
 * (Medusa's Locking Module, a documented module: not a reach-in), the per-process memory of whether
 * the provider quotes a cart, and which routes may move a cart into the provider's scope. Used by
 * tax-resync.ts (before and after each store route) and by the restore (src/medusa/cart-restore.ts).
 */
import { LRUCache } from "lru-cache"
import type { CartState, LockingLike } from "../../medusa/cart-restore"
import { runtimeSlot } from "../../runtime"
import { CART_ITSELF_RE } from "../../medusa/store-cart-routes"

/**
 * The plugin's own lock of a cart's store change, taken BEFORE the cart is read for its restore
 * (readCartState) and held until the request has answered (its restore, when refused, included):
 * two store requests changing one cart run one after the other through the plugin's middleware,
 * so the state a refused request puts back is never read before another request's change (which
 * the restore would then write over). Not Medusa's key (the cart id): the route's own workflows
 * take that one inside the request.
 */
export const CART_CHANGE_LOCK_PREFIX = "sales-tax:cart-change:"

/**
 * Takes `key` and holds it until `released` settles (the job of Locking's `execute` waits for it).
 * Resolves true once the lock is held; false when it could not be taken within `timeout` seconds
 * (the caller goes on without it). `expire` (seconds) bounds the hold where the provider supports it.
 */
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
 * Whether the provider quotes a cart (automatic taxes, a US shipping address), as this process
 * last saw it at the end of a store change of that cart (Medusa's refresh, the after-route check,
 * or the read before the route): `false` spares the next change of that cart the read for its
 * restore (tax-resync.ts, rememberCartState). In memory, per process, never shared: a cart another
 * instance moved into the provider's scope since is still `false` here; its next change here is
 * not read before the route, and should exactly that change discover an outage, Medusa's own
 * compensation is what puts it back (its tax itself is computed as the cart is: the refresh learns
 * the destination from Medusa's read, never from this). Not seen here: read, as before.
 */
export const cartTaxability = runtimeSlot("cartTaxability", () => new LRUCache<string, boolean>({ max: 10_000 }))

/**
 * The state each cart was left in by its last store change through this process whose tax the
 * refresh hook computed (the run's own read with the lines it wrote: quotedCartState): the restore
 * point of the cart's next store change here, instead of a read before it (tax-resync.ts,
 * rememberCartState). Taken (removed) by that change, whatever its end: a change that does not end
 * in such a run leaves none, and the next one reads. A cart changed since elsewhere (another
 * instance's quoted change) no longer carries the lines written: the restore then leaves it
 * (quotedStateHolds). Bounded (a state is a few kilobytes: the lines and their tax lines): a cart
 * left longer than half an hour, or pushed out by busier ones, is read again, as before.
 */
export const quotedStates = runtimeSlot("quotedStates", () => new LRUCache<string, CartState>({ max: 5_000, ttl: 30 * 60_000 }))

/**
 * Pure: whether a store request on `path` with `body` may move its cart into the provider's scope:
 * `POST /store/carts/:id` naming a region (Medusa gives a new single-country region's country to
 * the address) or a shipping address that is, or may be, in the US (no country named, or an address
 * given by id). Such a cart is read before the route, whatever this process last saw of it.
 */
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
