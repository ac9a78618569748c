/**
 * Who the current HTTP request is authenticated as, for the tax-line hooks (Medusa hands them only `{ cart }` /
 * `{ order }`, and a cart's `customer_id` proves nothing: Medusa attaches a customer by e-mail alone). Outside a
 * request there is no actor, and no exemption applies. Also the store cart request's scope: opened by the store
 * middleware (tax-resync.ts), read by the cart-refresh hook and the context handler.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import type { MedusaContainer } from "@medusajs/framework/types"
import type {
  AuthenticatedMedusaRequest,
  MedusaNextFunction,
  MedusaRequest,
  MedusaResponse,
  MiddlewareRoute,
} from "@medusajs/framework/http"
import { runtimeOf, runtimeSlot, type SalesTaxRuntime } from "../../runtime"
import type { TaxedEntity } from "../../medusa/taxed-entity"
import type { CartRow, CartState } from "../../medusa/cart-restore"
import type { TaxRunCart } from "../../medusa/update-tax-lines"

export interface RequestActor {
  /** "customer" (store), "user" (admin), or another Medusa actor type. */
  actorType: string
  actorId: string
}

/** What the scope holds: a getter, read when the hook runs (after Medusa's authentication), and the request's container. */
export interface RequestScope {
  actor(): RequestActor | null
  /** Medusa's `req.scope`: what the provider reads the cart through on a Medusa without the tax-line hooks */
  container?: MedusaContainer
  /** the request's path (`req.originalUrl`): an admin order route names the order whose new lines are taxed */
  path?: string
}

export const actorStorage = runtimeSlot("requestActor", () => new AsyncLocalStorage<RequestScope>())

/** The scope of the request being served (its actor, container and path), or undefined outside a request. */
export function requestScope(rt?: SalesTaxRuntime): RequestScope | undefined {
  return actorStorage(rt).getStore()
}

/** Runs `fn` as if inside a request authenticated as `actor` (tests and host code). */
export function runAsActor<T>(actor: RequestActor | null, fn: () => T, rt?: SalesTaxRuntime): T {
  return actorStorage(rt).run({ actor: () => actor }, fn)
}

/** The middleware: the request runs in a scope holding its `auth_context`, read lazily (after every authentication step). */
export function recordRequestActor(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): void {
  actorStorage(runtimeOf(req.scope)).run(
    {
      actor: () => actorOf((req as MedusaRequest & Partial<Pick<AuthenticatedMedusaRequest, "auth_context">>).auth_context),
      container: req.scope,
      path: req.originalUrl,
    },
    () => next(),
  )
}

/** Every store cart route (tax is computed there) and every admin route (orders, edits, draft orders). */
export const requestActorMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/carts*", middlewares: [recordRequestActor] },
  { matcher: "/admin*", middlewares: [recordRequestActor] },
]

/** Pure: the actor of a Medusa `auth_context` (null when anonymous or incomplete). */
export function actorOf(authContext: unknown): RequestActor | null {
  const a = authContext as { actor_type?: unknown; actor_id?: unknown } | null | undefined
  if (!a || typeof a.actor_type !== "string" || typeof a.actor_id !== "string" || !a.actor_id) return null
  return { actorType: a.actor_type, actorId: a.actor_id }
}

/** Why a certificate may be applied to a cart or an order: recorded on the tax lines. */
export type ExemptionBasis = "authenticated_customer" | "admin_order" | "admin_draft_order"

/**
 * Pure: the customer a certificate may be looked up for, and why (null: taxed as a guest's). A cart: the request is
 * that customer's. An order (admin routes): the request is an admin's, the customer has an account, and the order is
 * a draft or was itself checked out under a verified exemption.
 */
export function exemptionIdentity(
  kind: "cart" | "order",
  entity: Pick<TaxedEntity, "customer_id" | "is_draft_order" | "customer"> & { checkedOutExempt?: boolean },
  actor: RequestActor | null | undefined,
): { customerId: string; basis: ExemptionBasis } | null {
  const customerId = entity.customer_id
  if (!customerId || !actor) return null
  if (kind === "cart") {
    return actor.actorType === "customer" && actor.actorId === customerId ? { customerId, basis: "authenticated_customer" } : null
  }
  // admin: a logged-in user or a secret API key
  if ((actor.actorType !== "user" && actor.actorType !== "api-key") || entity.customer?.has_account !== true) return null
  if (entity.is_draft_order) return { customerId, basis: "admin_draft_order" }
  if (entity.checkedOutExempt) return { customerId, basis: "admin_order" }
  return null
}

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
