import type { CallIds } from "./types"

/** Pure: the Medusa ids in a call's path parameters and body. */
export function callIds(params: Record<string, string>, body: unknown): CallIds {
  const b = (body && typeof body === "object" ? body : {}) as Partial<Record<"cartId" | "orderId" | "idempotencyKey" | "items", unknown>>
  // POST carts: { items: [cart, …] } (a cart per origin of one Medusa cart: the first names it)
  const firstCart = Array.isArray(b.items) ? (b.items[0] as { cartId?: unknown } | undefined)?.cartId : undefined
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined)
  const ids = {
    cartId: str(params.cartId) ?? str(b.cartId) ?? str(firstCart),
    orderId: str(params.orderId) ?? str(b.orderId),
    refundKey: str(b.idempotencyKey),
  }
  return Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined))
}
