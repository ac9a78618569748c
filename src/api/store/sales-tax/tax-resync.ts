/**
 * Keeps Medusa's tax lines on the service's amounts when Medusa itself does not recompute them.
 *
 * Medusa 2.21 recomputes tax lines only when it thinks RATES may change: not when a line's
 * quantity changes (POST/DELETE /store/carts/:id/line-items/:line_id), not when promotions change
 * (POST/DELETE /store/carts/:id/promotions), and before (not after) re-applying promotions in its
 * cart refresh. Medusa's rates do not depend on those, but the service's AMOUNTS (which we turn
 * into rates) do. So after each store cart mutation we run updateTaxLinesWorkflow once more and
 * answer with the refreshed cart: when nothing that moves tax changed, the quote comes from the
 * cache (no service call); when it did, that new cart state gets its one POST carts.
 * Before POST /store/carts/:id/complete the same refresh runs, so an order is never placed on a
 * stale quote (and under failurePolicy "block" a down service refuses the completion).
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { updateTaxLinesWorkflow } from "@medusajs/core-flows"

const CART_RE = /^\/store\/carts\/([^/?#]+)/

function cartIdOf(req: MedusaRequest): string | undefined {
  const fromParams = (req.params as Record<string, string> | undefined)?.id
  if (fromParams) return fromParams
  const m = CART_RE.exec(req.path ?? req.originalUrl ?? "")
  return m?.[1]
}

/** Only carts the provider quotes: automatic taxes and a US shipping address. */
async function isUsTaxedCart(scope: MedusaContainer, cartId: string): Promise<boolean> {
  const query = scope.resolve(ContainerRegistrationKeys.QUERY) as { graph(a: unknown): Promise<{ data: any[] }> }
  const { data } = await query.graph({ entity: "cart", fields: ["id", "region.automatic_taxes", "shipping_address.country_code"], filters: { id: cartId } })
  const c = data[0]
  return !!c && c.region?.automatic_taxes !== false && (c.shipping_address?.country_code ?? "").toLowerCase() === "us"
}

async function refreshTaxLines(scope: MedusaContainer, cartId: string): Promise<boolean> {
  if (!(await isUsTaxedCart(scope, cartId))) return false
  await updateTaxLinesWorkflow(scope).run({ input: { cart_id: cartId } })
  return true
}

async function refetchCart(scope: MedusaContainer, cartId: string, fields: string[] | undefined): Promise<unknown | undefined> {
  if (!fields?.length) return undefined
  const query = scope.resolve(ContainerRegistrationKeys.QUERY) as { graph(a: unknown): Promise<{ data: unknown[] }> }
  const { data } = await query.graph({ entity: "cart", fields, filters: { id: cartId } })
  return data[0]
}

/** After the route answered `{ cart }`: refresh the tax lines and answer with the refreshed cart. */
export function resyncTaxLinesAfter(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const cartId = cartIdOf(req)
  if (!cartId) return next()
  const original = res.json.bind(res)
  let handled = false
  ;(res as { json: (body: unknown) => MedusaResponse }).json = (body: unknown) => {
    const b = body as { cart?: { id?: string } } | undefined
    if (handled || res.statusCode >= 400 || !b?.cart?.id) {
      handled = true
      return original(body)
    }
    handled = true
    const fields = (req as unknown as { queryConfig?: { fields?: string[] } }).queryConfig?.fields
    refreshTaxLines(req.scope, b.cart.id)
      .then((refreshed) => (refreshed ? refetchCart(req.scope, b.cart!.id!, fields) : undefined))
      .then(
        (cart) => original(cart ? { ...b, cart } : body),
        (err: unknown) => {
          const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER) as { warn(m: string): void }
          logger.warn(`sales-tax: tax lines of cart ${b.cart!.id} could not be refreshed after ${req.method} ${req.path}: ${(err as Error)?.message ?? err}`)
          original(body)
        },
      )
    return res
  }
  next()
}

/** Before completion: the tax lines are made to match the cart as it is now. */
export async function refreshTaxLinesBeforeComplete(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): Promise<void> {
  const cartId = cartIdOf(req)
  if (!cartId) return next()
  try {
    await refreshTaxLines(req.scope, cartId)
    next()
  } catch (e) {
    next(e)
  }
}

export const storeSalesTaxMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/carts/:id", method: ["POST"], middlewares: [resyncTaxLinesAfter] },
  { matcher: "/store/carts/:id/line-items", method: ["POST"], middlewares: [resyncTaxLinesAfter] },
  { matcher: "/store/carts/:id/line-items/:line_id", method: ["POST", "DELETE"], middlewares: [resyncTaxLinesAfter] },
  { matcher: "/store/carts/:id/promotions", method: ["POST", "DELETE"], middlewares: [resyncTaxLinesAfter] },
  { matcher: "/store/carts/:id/shipping-methods", method: ["POST"], middlewares: [resyncTaxLinesAfter] },
  { matcher: "/store/carts/:id/customer", method: ["POST"], middlewares: [resyncTaxLinesAfter] },
  { matcher: "/store/carts/:id/complete", method: ["POST"], middlewares: [refreshTaxLinesBeforeComplete] },
]
