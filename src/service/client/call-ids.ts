import type { CallIds } from "./types"

/** Pure: the Medusa ids in a call's path parameters and body. */
export function callIds(params: Record<string, string>, body: unknown): CallIds {
  const b = (body && typeof body === "object" ? body : {}) as {
    cartId?: unknown
    orderId?: unknown
    idempotencyKey?: unknown
    items?: unknown
  }
  // POST carts: { items: [cart, …] } (a cart per origin of one Medusa cart: the first names it)
  const firstCart = Array.isArray(b.items) ? (b.items[0] as { cartId?: unknown } | undefined)?.cartId : undefined
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined)
  const ids: CallIds = {}
  const cartId = str(params.cartId) ?? str(b.cartId) ?? str(firstCart)
  const orderId = str(params.orderId) ?? str(b.orderId)
  const refundKey = str(b.idempotencyKey)
  if (cartId) ids.cartId = cartId
  if (orderId) ids.orderId = orderId
  if (refundKey) ids.refundKey = refundKey
  return ids
}
