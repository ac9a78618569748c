import { dec } from "../../../packages/contract/src/money"
import type { CartOut, CreateOrderRequest, ErrorDetail, LineItemOut, OperationId, OrderRecord } from "../../../packages/contract/src/index"
import { SalesTaxError } from "./errors"

// Creation calls repeated safely: "orderId exists" recognised, and the pure comparisons behind "already created":
// an existing order against what the request asked for (an empty list: it is the order this request would have created).

function sameNumber(a: number, b: number, absolute: boolean): boolean {
  const x = dec(a)
  const y = dec(b)
  return absolute ? x.abs().eq(y.abs()) : x.eq(y)
}

type LineLike = Pick<LineItemOut, "itemId" | "quantity" | "price">

/** Compares lines pairwise by position (the service keeps the caller's order). */
export function diffLines(
  wanted: ReadonlyArray<LineLike>,
  existing: ReadonlyArray<LineLike>,
  location: string,
  opts: { absolute?: boolean } = {},
): ErrorDetail[] {
  const out: ErrorDetail[] = []
  if (wanted.length !== existing.length) {
    out.push({
      location,
      message: `the existing order has ${existing.length} line items, this request ${wanted.length}`,
      value: wanted.length,
    })
    return out
  }
  wanted.forEach((w, i) => {
    const e = existing[i]!
    if (w.itemId !== e.itemId)
      out.push({
        location: `${location}[${i}].itemId`,
        message: `the existing order has itemId ${JSON.stringify(e.itemId)} here`,
        value: w.itemId,
      })
    if (!sameNumber(w.quantity, e.quantity, !!opts.absolute))
      out.push({ location: `${location}[${i}].quantity`, message: `the existing order has quantity ${e.quantity} here`, value: w.quantity })
    if (!sameNumber(w.price, e.price, !!opts.absolute))
      out.push({ location: `${location}[${i}].price`, message: `the existing order has price ${e.price} here`, value: w.price })
  })
  return out
}

/** createOrder: orderId, cartId, customerId, kind and every line's itemId, quantity and price. */
export function diffCreateOrder(req: CreateOrderRequest, existing: OrderRecord): ErrorDetail[] {
  const out: ErrorDetail[] = []
  if (req.orderId !== existing.orderId)
    out.push({ location: "body.orderId", message: `the service returned order ${JSON.stringify(existing.orderId)}`, value: req.orderId })
  if ((req.cartId ?? null) !== (existing.cartId ?? null)) {
    out.push({
      location: "body.cartId",
      message: `the existing order has cartId ${JSON.stringify(existing.cartId ?? null)}`,
      value: req.cartId ?? null,
    })
  }
  if (req.customerId !== existing.customerId)
    out.push({ location: "body.customerId", message: `the existing order belongs to another customerId`, value: req.customerId })
  const kind = req.kind ?? "order"
  if (kind !== existing.kind) out.push({ location: "body.kind", message: `the existing order is of kind ${existing.kind}`, value: kind })
  // a standalone credit may be stored with negative amounts: compare magnitudes there
  out.push(...diffLines(req.lineItems, existing.lineItems, "body.lineItems", { absolute: kind === "credit" || existing.kind === "credit" }))
  return out
}

/** cartToOrder: the order must come from the same cart, and (when the cart is still there) hold its lines. */
export function diffCartToOrder(req: { cartId: string; orderId: string }, existing: OrderRecord, cart: CartOut | undefined): ErrorDetail[] {
  const out: ErrorDetail[] = []
  if (req.orderId !== existing.orderId)
    out.push({ location: "body.orderId", message: `the service returned order ${JSON.stringify(existing.orderId)}`, value: req.orderId })
  if ((existing.cartId ?? null) !== req.cartId) {
    out.push({
      location: "body.cartId",
      message: `the existing order was made from cartId ${JSON.stringify(existing.cartId ?? null)}`,
      value: req.cartId,
    })
  }
  if (cart) {
    out.push(
      ...diffLines(cart.lineItems, existing.lineItems, "cart.lineItems").map((d) => ({
        ...d,
        message: `${d.message} (the cart now differs from the order already made from it)`,
      })),
    )
  }
  return out
}

/** The service's answer to a duplicate orderId on creation: a 400 that names the orderId. */
export function isDuplicateOrder(err: unknown): err is SalesTaxError {
  if (!(err instanceof SalesTaxError) || err.code !== "http" || err.status !== 400) return false
  if (err.errors.some((e) => /(^|\.)orderId$/.test(e.location))) return true
  const text = `${err.title} ${err.detail ?? ""}`
  return /orderId/i.test(text) && /(exist|duplicate|already|in use)/i.test(text)
}

export function conflict(operation: OperationId, orderId: string, errors: ErrorDetail[], redact: <T>(v: T) => T): SalesTaxError {
  return new SalesTaxError({
    operation,
    status: 409,
    code: "http",
    title: "Conflict",
    detail: redact(`an order ${JSON.stringify(orderId)} already exists at the service and differs from this request`),
    errors: redact(errors),
  })
}
