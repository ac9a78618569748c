/** Snapshot → service carts (one per origin), the quote of the service's answer, and the origins it refused. */
import type { Address, CalculateCartsResponse, CartOut } from "../../../packages/contract/src/index"
import { isSalesTaxError } from "../../service/client"
import type { PluginOptions } from "../../options"
import { buildServiceCart } from "../../service/cart/build-service-cart"
import type { CartSnapshot } from "../../service/cart/context"
import { groupByOrigin, refusedLocations, stillRefused, type RefusedLocation } from "../../service/origins/origins"
import { isOutage } from "./health"
import type { Quote, ServiceCart } from "./quote-types"

/** The service carts of a snapshot, one per origin, all sent in ONE POST carts; a cart without lines (quantity 0) is not sent. */
export function serviceCarts(
  snapshot: CartSnapshot,
  destination: Address,
  exemptionId: string | null,
  o: Pick<PluginOptions, "origin" | "shippingTic" | "defaultTic">,
): ServiceCart[] {
  const build = (part: CartSnapshot, origin: Address, serviceCartId?: string) =>
    buildServiceCart({
      snapshot: part,
      origin,
      destination,
      shippingTic: o.shippingTic,
      defaultTic: o.defaultTic,
      exemptionId,
      serviceCartId,
    })
  if (!snapshot.locations) {
    const cart = build(snapshot, o.origin)
    return cart.lineItems.length ? [{ cart, key: "" }] : []
  }
  const lines = [...snapshot.items, ...snapshot.shipping_methods]
  const refused = refusedLocations().size ? stillRefused(snapshot.locations) : new Set<string>()
  const groups = groupByOrigin(lines, (l) => l.origin_location_id, snapshot.locations, o.origin, snapshot.cart_id, refused)
  const carts: ServiceCart[] = []
  for (const g of groups) {
    // one origin (the usual cart): every line, the snapshot as it is
    let part = snapshot
    if (groups.length > 1) {
      const inGroup = new Set(g.lines)
      part = {
        ...snapshot,
        items: snapshot.items.filter((i) => inGroup.has(i)),
        shipping_methods: snapshot.shipping_methods.filter((sm) => inGroup.has(sm)),
      }
    }
    const cart = build(part, g.origin, g.serviceId)
    if (cart.lineItems.length) carts.push({ cart, key: g.key })
  }
  return carts
}

/** Pure: the quote of the service's answer: each line's tax, rate, TIC and origin (carts matched by id, else by position). */
export function quoteOfAnswer(
  carts: readonly ServiceCart[],
  answer: Pick<CalculateCartsResponse, "items">,
  hash: string,
  exemptionId: string | null,
): Quote {
  const lines: Quote["lines"] = {}
  carts.forEach(({ cart, key }, k) => {
    const out: CartOut | undefined = answer.items.find((x) => x.cartId === cart.cartId) ?? answer.items[k]
    const origin = { locationId: key || null, address: cart.origin }
    for (const li of out?.lineItems ?? []) lines[li.itemId] = { amount: li.tax.amount, rate: li.tax.rate, tic: li.tic, origin }
  })
  return { hash, exemptionId, lines }
}

/** Pure: the stock locations newly refused as an origin (a 422 at `body.items[k].origin`), each once; not the `origin` option's. */
export function originRefusals(
  err: unknown,
  carts: readonly ServiceCart[],
  snapshot: Pick<CartSnapshot, "locations">,
  known: ReadonlyMap<string, unknown>,
  now: Date,
): { refusal: RefusedLocation; message: string }[] {
  if (!isSalesTaxError(err) || isOutage(err)) return []
  const out: ReturnType<typeof originRefusals> = []
  const seen = new Set<string>()
  for (const e of err.errors) {
    const m = /^body\.items\[(\d+)\]\.origin(\.|$)/.exec(e.location)
    const c = m ? carts[Number(m[1])] : undefined
    if (!c || !c.key || known.has(c.key) || seen.has(c.key)) continue
    seen.add(c.key)
    out.push({
      refusal: {
        locationId: c.key,
        name: snapshot.locations?.[c.key]?.name ?? null,
        address: c.cart.origin,
        reason: `${e.location.replace(/^body\.items\[\d+\]\./, "")}: ${e.message}`,
        at: now.toISOString(),
      },
      message: e.message,
    })
  }
  return out
}
