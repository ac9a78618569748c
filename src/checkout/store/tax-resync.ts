/**
 * Keeps Medusa's tax lines on the service's amounts after each store cart change (in Medusa's refresh: cart-refresh.ts,
 * else by a run after the route) and before completion. A refusal answers 400, never stale lines: the request that
 * discovers an outage puts the cart back as remembered before its route (cart-restore.ts). A store change of a cart, as
 * the middleware sees it: the plugin's own lock of the change, the per-process memory of whether the provider quotes a
 * cart, and which routes may move a cart into the provider's scope.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"
import type { CartWorkflowDTO, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { LRUCache } from "lru-cache"
import {
  CART_ITSELF_RE,
  CART_RE,
  PROMOTIONS_RE,
  STORE_CART_MUTATIONS,
  interceptAnswer,
  routeFields,
  unwrapWorkflowError,
} from "../../medusa/store-cart-routes"
import { httpResponseFromError } from "../../medusa/error-handler"
import { refreshPaymentCollectionForCartWorkflow, updateTaxLinesWorkflow } from "@medusajs/medusa/core-flows"
import { BLOCK_ERROR_CODE, BLOCK_ERROR_MESSAGE } from "../../constants"
import { graph } from "../../query"
import { isDegraded, quoteHealth } from "../quote/health"
import { cartRefreshStorage, recordRequestActor, requestActorMiddlewares, type CartRefreshScope } from "../hooks/request-actor"
import { lockingOf, readCartState, restoreCartState, withPromotionLinks, type CartState, type LockingLike } from "../../medusa/cart-restore"
import { isUsTaxedCart, storeCartSpan, usTaxedInScope, type StoreCartSpan } from "./cart-refresh"
import { cartChangedError, completionStorage, readCartFingerprint } from "../hooks/complete-cart-guard"
import { refuseUnresolvedAddressStep } from "./address-step"
import { UPDATE_TAX_LINES_CART_FIELDS } from "../../medusa/update-tax-lines"
import { runtimeSlot } from "../../runtime"

const CART_ITSELF_MATCHER = "/store/carts/:id"

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

const cartIdOf = (req: MedusaRequest): string | undefined =>
  (req.params as Record<string, string> | undefined)?.id || CART_RE.exec(req.path ?? req.originalUrl ?? "")?.[1]

/** updateTaxLinesWorkflow on the cart read with its 2.16+ fields: 2.15's read lacks `items.is_giftcard` and would tax a gift card. */
async function runUpdateTaxLines(scope: MedusaContainer, cartId: string): Promise<void> {
  const [cart] = await graph<CartWorkflowDTO>(scope, { entity: "cart", fields: [...UPDATE_TAX_LINES_CART_FIELDS], filters: { id: cartId } })
  await updateTaxLinesWorkflow(scope).run({ input: cart ? { cart_id: cartId, cart } : { cart_id: cartId } })
}

/** Per request, read before its route: the cart as it was (put back when refused), or the id of a cart read as not US-taxed. */
const cartBefore = runtimeSlot("storeCartBefore", () => new WeakMap<object, CartState>())
const notUsBefore = runtimeSlot("storeCartNotUsBefore", () => new WeakMap<object, string>())

/** Seconds a store change of a cart waits for another change of it, and after which a hold lapses. */
const RESTORE_LOCK_S = { timeout: 15, expire: 120 }

/**
 * Before a route that changes the cart: the plugin's lock of the cart's change, then the cart remembered (its last
 * quoted state here, else read); not read when last seen outside the provider's scope and the route cannot move it in.
 */
export async function rememberCartState(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  const cartId = cartIdOf(req)
  if (!cartId) return next()
  const span: StoreCartSpan = { phase: "remember", cartId, read: false }
  try {
    await storeCartSpan(span, async () => {
      await lockCartChange(req, res, cartId)
      const entering = mayEnterScope(pathOf(req), req.body)
      // taken in the lock: the state the cart's last quoted change here left it in
      const quoted = quotedStates().get(cartId)
      quotedStates().delete(cartId)
      if (cartTaxability().get(cartId) === false && !entering) return
      if (quoted && !entering) {
        // a promotions route changes the links outside Medusa's refresh: read them first
        cartBefore().set(req, PROMOTIONS_RE.test(pathOf(req)) ? await withPromotionLinks(req.scope, quoted) : quoted)
        return
      }
      span.read = true
      const state = await readCartState(req.scope, cartId)
      if (!state) return
      if (!entering) cartTaxability().set(cartId, state.usTaxed)
      if (state.usTaxed || entering) cartBefore().set(req, state)
      else notUsBefore().set(req, state.id)
    })
    next()
  } catch (e) {
    next(e)
  }
}

/** The plugin's lock of the cart's change, held until the request has answered (see rememberCartState). */
async function lockCartChange(req: MedusaRequest, res: MedusaResponse, cartId: string): Promise<void> {
  const locking = lockingOf(req.scope)
  if (!locking) return
  const answered = new Promise<void>((r) => {
    res.once("finish", () => r())
    res.once("close", () => r())
  })
  const held = await holdLock(locking, `${CART_CHANGE_LOCK_PREFIX}${cartId}`, answered, RESTORE_LOCK_S)
  if (!held) {
    req.scope
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(
        `sales-tax: cart ${cartId}: another change held it for ${RESTORE_LOCK_S.timeout} s; this change goes on without the restore lock`,
      )
  }
}

/** Puts the cart back as it was before this request (when remembered); never throws. */
async function putBack(req: MedusaRequest): Promise<void> {
  const before = cartBefore().get(req)
  if (!before) return
  cartBefore().delete(req)
  try {
    await storeCartSpan({ phase: "restore", cartId: before.id }, () => restoreCartState(req.scope, before))
  } catch (e) {
    const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
    logger.error(`sales-tax: cart ${before.id} could not be restored after a refused change: ${(e as Error)?.message ?? e}`)
  }
}

/** After the route answered `{ cart }` (`{ parent }`): the tax lines refreshed, in the answer too; a refusal puts the cart back first. */
export function resyncTaxLinesAfter(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const cartId = cartIdOf(req)
  if (!cartId) return next()
  interceptAnswer(res as { json: (body: unknown) => MedusaResponse }, (body, original) => {
    const b = body as { cart?: { id?: string }; parent?: { id?: string }; code?: unknown } | undefined
    if (res.statusCode >= 400) {
      if (b?.code !== BLOCK_ERROR_CODE) return original(body)
      cartTaxability().delete(cartId)
      void putBack(req).then(() => original(body))
      return res
    }
    const key = b?.cart?.id ? "cart" : b?.parent?.id ? "parent" : undefined
    if (!key) return original(body)
    const id = b![key]!.id!
    const fields = routeFields(req)
    const ran = scope.cartId === id ? scope.ran : undefined
    if (ran) {
      // Medusa's refresh ran the plugin's hook: the tax lines were computed before the route read its answer
      cartTaxability().set(id, ran.taxed)
      if (scope.quoted) quotedStates().set(id, scope.quoted)
      return original(body)
    }
    const span: StoreCartSpan = { phase: "after-route", cartId: id }
    storeCartSpan(span, async () => {
      // the tax lines refreshed when the provider quotes the cart: the request's cart as its scope knows it, another read now
      const taxed = scope.cartId === id ? await usTaxedInScope(scope, req.scope) : await isUsTaxedCart(req.scope, id)
      if (taxed) await retaxWithPayment(req, id)
      span.taxed = taxed
      cartTaxability().set(id, taxed)
      if (!taxed || !fields?.length) return undefined
      // read with the route's own fields, as Medusa's route answers it
      const [cart] = await graph<unknown>(req.scope, { entity: "cart", fields, filters: { id } })
      return cart
    }).then(
      (cart) => original(cart ? { ...b, [key]: cart } : body),
      async (err: unknown) => {
        cartTaxability().delete(id)
        const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
        logger.warn(
          `sales-tax: tax lines of cart ${id} could not be refreshed after ${req.method} ${req.path}: ${(err as Error)?.message ?? err}`,
        )
        // never a 200 with stale tax lines: the cart as it was, and the refusal (or the address error)
        await putBack(req)
        const { statusCode, body: errBody } = httpResponseFromError(unwrapWorkflowError(err))
        res.status(statusCode)
        original(errBody)
      },
    )
    return res
  })
  // read as US-taxed (or not) before a route that cannot give the cart another shipping address or region: still so after it
  const before = cartBefore().get(req)
  const stays = !CART_ITSELF_RE.test(pathOf(req))
  const scope: CartRefreshScope = {
    cartId,
    knownUs: stays && before?.usTaxed === true && before.id === cartId,
    knownNotUs: stays && notUsBefore().get(req) === cartId,
  }
  // only POST /store/carts/:id changes the billing address
  if (before?.id === cartId && stays) scope.billingBefore = { address: before.addresses.billing_address }
  cartRefreshStorage().run(scope, () => next())
}

const pathOf = (req: MedusaRequest): string => (req.originalUrl ?? req.path ?? "").split("?")[0]

/** The tax lines rewritten, and the payment collection (if any) refreshed after them: its amount follows the new tax. */
async function retaxWithPayment(req: MedusaRequest, cartId: string): Promise<void> {
  await runUpdateTaxLines(req.scope, cartId)
  if (await hasPaymentCollection(req, cartId)) {
    await refreshPaymentCollectionForCartWorkflow(req.scope).run({ input: { cart_id: cartId } })
  }
}

/** Whether the cart has a payment collection: as read before the route (cart routes make none), else read now. */
async function hasPaymentCollection(req: MedusaRequest, cartId: string): Promise<boolean> {
  const before = cartBefore().get(req)
  if (before?.id === cartId && !before.quotedLines) return before.hasPaymentCollection
  const [cart] = await graph<{ id: string; payment_collection: { id: string } | null }>(req.scope, {
    entity: "cart",
    fields: ["id", "payment_collection.id"],
    filters: { id: cartId },
  })
  return !!cart?.payment_collection?.id
}

/** During an outage: a GET refreshes the tax lines first (never stale lines); a change under "block" probes, refused if still down. */
export async function refuseWhileTaxUnavailable(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  const cartId = cartIdOf(req)
  if (!cartId || !isDegraded()) return next()
  try {
    if (req.method === "GET") {
      // its tax lines rewritten: the last quoted state no longer holds (quotedStateHolds)
      quotedStates().delete(cartId)
      if (await isUsTaxedCart(req.scope, cartId)) await runUpdateTaxLines(req.scope, cartId)
      return next()
    }
    const health = quoteHealth()
    const body = req.body as { shipping_address?: { country_code?: unknown } } | undefined
    const toUs = String(body?.shipping_address?.country_code ?? "").toLowerCase() === "us"
    if (health.policy !== "block" || !health.probe || !(toUs || (await isUsTaxedCart(req.scope, cartId)))) return next()
    try {
      await health.probe()
    } catch {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, BLOCK_ERROR_MESSAGE, BLOCK_ERROR_CODE)
    }
    next()
  } catch (e) {
    next(unwrapWorkflowError(e))
  }
}

/**
 * Before completion: the tax lines and the payment collection made to match the cart. Medusa authorizes the session's
 * own amount without comparing it with the total: the payment refresh drops sessions made for the old total.
 */
export async function refreshTaxLinesBeforeComplete(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  const cartId = cartIdOf(req)
  if (!cartId) return next()
  try {
    // a change during the refresh (another request's promotion) is refused below, not completed on stale tax
    quotedStates().delete(cartId)
    const before = await readCartFingerprint(req.scope, cartId)
    if (!(await isUsTaxedCart(req.scope, cartId))) return next()
    await retaxWithPayment(req, cartId)
    const after = await readCartFingerprint(req.scope, cartId)
    if (!before || !after || before.state !== after.state) throw cartChangedError()
    // completeCartWorkflow's validate hook (in the completion's lock) compares the cart with this
    completionStorage().run({ cartId, fingerprint: after }, () => next())
  } catch (e) {
    next(e)
  }
}

/** Before a route that rewrites the cart's tax lines outside the plugin's refresh: its last quoted state no longer holds. */
function forgetQuotedState(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): void {
  const cartId = cartIdOf(req)
  if (cartId) quotedStates().delete(cartId)
  next()
}

export const storeSalesTaxMiddlewares: MiddlewareRoute[] = [
  // who is shopping (store carts) or working on an order (admin): for exemptions
  ...requestActorMiddlewares,
  { matcher: "/store/carts/:id", method: ["GET"], middlewares: [recordRequestActor, refuseWhileTaxUnavailable] },
  ...STORE_CART_MUTATIONS.map((r) => ({
    matcher: r.matcher,
    method: [...r.methods],
    middlewares: [
      recordRequestActor,
      refuseWhileTaxUnavailable,
      // the address step refuses what completion would, before the cart is locked or changed (address-step.ts)
      ...(r.matcher === CART_ITSELF_MATCHER ? [refuseUnresolvedAddressStep] : []),
      rememberCartState,
      resyncTaxLinesAfter,
    ],
  })),
  { matcher: "/store/carts/:id/taxes", method: ["POST"], middlewares: [recordRequestActor, refuseWhileTaxUnavailable, forgetQuotedState] },
  { matcher: "/store/carts/:id/complete", method: ["POST"], middlewares: [recordRequestActor, refreshTaxLinesBeforeComplete] },
]
