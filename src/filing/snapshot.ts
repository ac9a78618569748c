/** The order (or an exchange's / a claim's new items) as charged: a FilingSnapshot per origin, each line's whole quantity at
 * the tax, TIC and certificate it was charged under; and when the order became complete. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { dec, roundCents, roundTo, sum, type Dec } from "../../packages/contract/src/money"
import { amountString } from "../money/amount"
import type { PluginOptions } from "../options"
import { connectionForChannel } from "../service/connections"
import { SHIPPING_ITEM_PREFIX, TAX_LINE_CODE_FALLBACK } from "../constants"
import { itemTaxable, netUnitPrice, serviceAddress, serviceCustomerId, shippingTaxable } from "../service/cart/build-service-cart"
import { checkoutExemption } from "../service/exemptions/exemption-snapshot"
import { groupByOrigin, originServiceId, type KnownLocations } from "../service/origins/origins"
import type { Address } from "../../packages/contract/src/index"
import type { CompletionMode, DestinationSource, FilingLine, FilingSnapshot } from "../modules/sales-tax-filing/types"
import { recordOf, type BuiltSnapshot, type ChargedOrigin } from "./processor-types"
import { childOrderId } from "./decisions-refunds"
import { decideDestination, fullItemTax, quotedDestination, type DestinationDecision } from "./decisions"
import { ownShipping, shippingLink, type OrderItemRow, type OrderRow, type ShippingMethodRow, type TaxLineRow } from "./order-rows"
import { resolveProductTics } from "../service/tics/product-tics"
import { readOrder, type LoadedOrder } from "./order-reader"
import { quoteDestination, type QuoteDestination } from "../service/address/destination"
import type { MedusaAddressLike } from "../service/cart/build-service-cart"
import { getBackgroundClient } from "../service/client-factory"

/** Gift cards are not goods (taxed at redemption): Medusa leaves them out of the tax context, and filing files them under TIC
 * 10005 ("Gift card", 0 everywhere) so the service's record matches what the shopper paid and their returns route as any line. */
export const GIFT_CARD_TIC = 10005

/** Pure: an item's filed TIC: a gift card's always (never quoted: the default TIC would file a taxable sale at $0); else the TIC
 * charged, else its product's as resolved now, else the default. */
export function filedItemTic(
  item: { is_giftcard?: boolean | null; product_id?: string | null },
  chargedTic: number | null,
  productTics: ReadonlyMap<string, number>,
  defaultTic: number,
): number {
  if (item.is_giftcard) return GIFT_CARD_TIC
  if (chargedTic !== null) return chargedTic
  return (item.product_id ? productTics.get(item.product_id) : undefined) ?? defaultTic
}

/** Pure: the net of a tax-inclusive line, on the cent: its total (the shown price) less its tax, each as charged (to the cent). */
export function inclusiveNet(total: unknown, taxTotal: unknown): Dec {
  return dec(roundCents(amountString(total))).minus(roundCents(amountString(taxTotal)))
}

/** Pure: an order item's net and tax, to the cent, for its WHOLE quantity: Medusa's item totals leave out returned units,
 * and each return is a refund of its own, so they would take a returned unit off twice. */
export function wholeItemCharge(it: Pick<OrderItemRow, "unit_price" | "quantity" | "is_tax_inclusive" | "adjustments" | "tax_lines">): {
  taxable: Dec
  tax: number
} {
  const adjustments = (it.adjustments ?? []).map((a) => amountString(a.amount))
  const tax = roundCents(
    fullItemTax({
      unitPrice: amountString(it.unit_price),
      quantity: amountString(it.quantity),
      adjustments,
      rates: (it.tax_lines ?? []).map((t) => amountString(t.rate)),
      taxInclusive: !!it.is_tax_inclusive,
    }),
  )
  const discount = sum(adjustments.map((a) => dec(a))).toString()
  const gross = itemTaxable({ unit_price: amountString(it.unit_price), quantity: amountString(it.quantity), discount })
  // a tax-inclusive line: the net is what the shopper paid for all units less the tax in it
  return { taxable: it.is_tax_inclusive ? inclusiveNet(gross.toString(), tax) : gross, tax }
}

/** Pure: a line's tax lines' combined rate (a fraction), the service's own rate the provider kept in their data, whether one
 * carries the fallback code, and the TIC charged (null: none recorded). */
export function taxLineFacts(taxLines: TaxLineRow[] | null | undefined) {
  const data = (taxLines ?? []).map((t) => t.data ?? {})
  const serviceRates = data.map((d) => d.service_rate).filter((r): r is number => typeof r === "number" && Number.isFinite(r))
  const tic = data.map((d) => d.tic).find((x): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0)
  return {
    chargedRate: roundTo(sum((taxLines ?? []).map((t) => dec(amountString(t.rate)))).div(100), 4),
    serviceRate: serviceRates.length ? roundTo(sum(serviceRates), 6) : null,
    fallback: (taxLines ?? []).some((t) => t.code === TAX_LINE_CODE_FALLBACK),
    tic: tic ?? null,
  }
}
/** Where the provider quoted the line from (its tax lines' `data.origin_location_id` / `data.origin`), if recorded. */
function chargedOrigin(taxLines: TaxLineRow[] | null | undefined): ChargedOrigin {
  for (const t of taxLines ?? []) {
    const o = t.data?.origin as Address | undefined
    if (o && typeof o === "object" && typeof o.state === "string" && typeof o.zip === "string")
      return { locationId: typeof t.data?.origin_location_id === "string" ? (t.data.origin_location_id as string) : null, address: o }
  }
  return null
}

/** Pure: a snapshot split per recorded origin; the primary keeps the Medusa ids, the others derive theirs (origins.ts). */
export function splitByOrigin(s: FilingSnapshot, originOf: (itemId: string) => ChargedOrigin): FilingSnapshot[] {
  const locations: KnownLocations = {}
  const keyed = s.lines.map((l) => {
    const o = originOf(l.itemId)
    if (o?.locationId)
      locations[o.locationId] = {
        address_1: o.address.line1,
        address_2: o.address.line2 ?? null,
        city: o.address.city,
        country_code: "us",
        province: o.address.state,
        postal_code: o.address.zip,
      }
    return { line: l, loc: o?.locationId ?? null, address: o?.address ?? null }
  })
  // a fallback line keeps the origin it was quoted with (the option's at that time)
  const fallbackOrigin = keyed.find((k) => !k.loc && k.address)?.address ?? s.origin
  // a line never quoted (a gift card: no tax line, no origin) ships with the quoted lines: it joins
  // the group that keeps the Medusa ids, never a service order of its own under them
  const quoted = keyed.filter((k) => k.address)
  const join = quoted.some((k) => !k.loc) ? null : (quoted.map((k) => k.loc!).sort()[0] ?? null)
  const groups = groupByOrigin(keyed, (k) => k.loc ?? (k.address ? null : join), locations, fallbackOrigin, s.orderId)
  if (groups.length === 1) return [{ ...s, origin: groups[0]!.origin }]
  return groups.map((g) => ({
    ...s,
    orderId: g.serviceId,
    // the Medusa order is every group's parent (an exchange's or a claim's already names it)
    parentOrderId: s.parentOrderId ?? (g.primary ? null : s.orderId),
    cartId: s.cartId ? originServiceId(s.cartId, g.key, g.primary) : null,
    origin: g.origin,
    lines: g.lines.map((k, index) => ({ ...k.line, index })),
  }))
}

/** The Medusa order itself, or the new items of one of its exchanges or claims (filed as orders of their own). */
export type SnapshotScope =
  { kind: "order" } | { kind: "exchange"; exchangeId: string; itemIds: string[] } | { kind: "claim"; claimId: string; itemIds: string[] }

/** The destination rule (the ZIP decides the state) when nothing was quoted; an outage throws so the order is tried again,
 * never filed under the typed state. */
export async function ruledDestination(options: PluginOptions, a: MedusaAddressLike): Promise<QuoteDestination> {
  const ruled = await quoteDestination(a, undefined, { options, client: () => getBackgroundClient(options) })
  if (!ruled.address && ruled.reason === "unavailable")
    throw new Error(`the destination could not be checked: ${ruled.detail ?? "verify-address"}`)
  return ruled
}

/** What the shopper was charged: the scope's items (the order's leave out those claims and exchanges added); `corrected`: an
 * admin's destination for a re-quote, as the destination rule resolved it. Null without a US destination. */
export async function buildSnapshot(
  container: MedusaContainer,
  order: LoadedOrder,
  options: PluginOptions,
  scope: SnapshotScope,
  corrected?: { state: string; zip: string; source?: DestinationSource },
): Promise<BuiltSnapshot> {
  const a = order.shipping_address
  if (!corrected && (a?.country_code ?? "").toLowerCase() !== "us") return { snapshot: null, reason: "not filed: destination not_us" }
  const added = new Set<string>(
    [...(order.claims ?? []), ...(order.exchanges ?? [])].flatMap((c) => (c.additional_items ?? []).map((i) => i.item_id)),
  )
  const items: OrderItemRow[] = (order.items ?? [])
    .filter((it) => (scope.kind === "order" ? !added.has(it.id) : scope.itemIds.includes(it.id)))
    .filter((it) => dec(amountString(it.quantity)).gt(0))
  // a line without a charged TIC: its product's as the checkout resolves it now
  const unresolved = items.filter((i) => !i.is_giftcard && taxLineFacts(i.tax_lines).tic === null).map((i) => i.product_id ?? "")
  const resolved = await resolveProductTics(container, unresolved, options.defaultTic)
  const tics = new Map([...resolved].map(([id, t]) => [id, t.tic]))
  const lines: FilingLine[] = []
  const origins = new Map<string, ChargedOrigin>()
  for (const it of items) {
    origins.set(it.id, chargedOrigin(it.tax_lines))
    const { taxable, tax } = wholeItemCharge(it)
    const { tic, ...charged } = taxLineFacts(it.tax_lines)
    lines.push({
      index: lines.length,
      itemId: it.id,
      kind: "item",
      price: netUnitPrice(taxable, amountString(it.quantity)),
      quantity: dec(amountString(it.quantity)).toNumber(),
      tic: filedItemTic(it, tic, tics, options.defaultTic),
      productId: it.product_id ?? null,
      chargedTax: tax,
      ...charged,
    })
  }
  const shipping: ShippingMethodRow[] = (order.shipping_methods ?? []).filter((sm) =>
    scope.kind === "exchange"
      ? shippingLink(sm, "exchange_id") === scope.exchangeId
      : scope.kind === "claim"
        ? shippingLink(sm, "claim_id") === scope.claimId
        : ownShipping(sm),
  )
  for (const sm of shipping) {
    origins.set(`${SHIPPING_ITEM_PREFIX}${sm.id}`, chargedOrigin(sm.tax_lines))
    lines.push({
      index: lines.length,
      itemId: `${SHIPPING_ITEM_PREFIX}${sm.id}`,
      kind: "shipping",
      price: (sm.is_tax_inclusive
        ? inclusiveNet(sm.total, sm.tax_total)
        : shippingTaxable({ amount: amountString(sm.amount), discount: amountString(sm.discount_subtotal) })
      ).toNumber(),
      quantity: 1,
      chargedTax: roundCents(amountString(sm.tax_total)),
      ...taxLineFacts(sm.tax_lines),
      tic: options.shippingTic,
    })
  }
  if (!lines.length) return { snapshot: null, reason: "not filed: no lines" }
  const taxed = [...items.filter((i) => !i.is_giftcard), ...shipping]
  const quoted = corrected ? null : quotedDestination([...items, ...shipping].flatMap((l) => l.tax_lines ?? []))
  const province = a?.province_code || a?.province
  // nothing quoted: the destination rule on the address (the ZIP decides the state), never the typed state alone
  const ruled = corrected || quoted || !a ? undefined : await ruledDestination(options, { ...a, province_code: province })
  const decision: DestinationDecision = corrected
    ? { outcome: "file", state: corrected.state, zip: corrected.zip, source: corrected.source ?? "typed" }
    : decideDestination({
        countryCode: a?.country_code,
        province,
        postalCode: a?.postal_code,
        currencyCode: order.currency_code,
        quoted,
        // an exchange's or a claim's new items are charged by Medusa's order change, not at checkout
        charged: scope.kind !== "order" || !taxed.length || taxed.some((l) => (l.tax_lines ?? []).length > 0),
        ruled,
      })
  if (decision.outcome === "skip") return { snapshot: null, reason: decision.reason }
  const destination = decision.state && decision.zip ? serviceAddress(a ?? {}, { state: decision.state, zip: decision.zip }) : null
  const exemptionId = checkoutExemption([...items, ...shipping])?.exemptionId ?? null
  const cartId: string | null = scope.kind === "order" ? (order.cart?.id ?? null) : null
  const orderId = scope.kind === "order" ? order.id : scope.kind === "exchange" ? scope.exchangeId : childOrderId(scope.claimId)
  const conn = connectionForChannel(options, order.sales_channel_id)
  const whole: FilingSnapshot = {
    orderId,
    kind: scope.kind,
    parentOrderId: scope.kind === "order" ? null : order.id,
    cartId,
    customerId: serviceCustomerId(order.customer_id, cartId ?? order.id),
    currencyCode: String(order.currency_code).toUpperCase(),
    placedAt: new Date(order.created_at).toISOString(),
    origin: options.origin,
    destination: destination!,
    destinationSource: decision.outcome === "file" ? decision.source : "order_address",
    exemptionId,
    ...(conn.isDefault ? {} : { connectionId: conn.connectionId }),
    lines,
  }
  const originOf = (id: string): ChargedOrigin => origins.get(id) ?? null
  // left for a person: one record, unsplit (a re-quote files it whole), with its snapshot when the destination resolved
  if (decision.outcome === "attention") return { snapshot: destination ? whole : null, reason: decision.reason, attention: true }
  if (scope.kind === "claim") return { snapshot: whole, originOf }
  const [primary, ...others] = splitByOrigin(whole, originOf)
  return { snapshot: primary!, originOf, ...(others.length ? { siblings: others } : {}) }
}

export async function orderRecordInput(container: MedusaContainer, orderId: string, options: PluginOptions) {
  const order = await readOrder(container, orderId)
  if (!order) throw new Error(`order ${orderId} not found`)
  const built = await buildSnapshot(container, order, options, { kind: "order" })
  const { snapshot, siblings, originOf, attention } = built
  const record = recordOf(orderId, built, options.completionMode as CompletionMode, new Date())
  const parts = snapshot && !attention ? [snapshot, ...(siblings ?? [])] : []
  // every origin's lines as Medusa charges them now, and where each ships from (an edit moves a line whose origin changed)
  const origins: Record<string, Address> = {}
  for (const p of parts) for (const l of p.lines) if (originOf?.(l.itemId)) origins[l.itemId] = p.origin
  return { record, order, lines: parts.flatMap((p) => p.lines), origins }
}

/** When the order became complete for the service under the configured mode (null: not yet). */
export function completionInstant(order: Pick<OrderRow, "payment_collections" | "fulfillments">, mode: CompletionMode): Date | null {
  const at =
    mode === "captured"
      ? (order.payment_collections ?? []).flatMap((pc) => pc.payments ?? []).map((p) => p.captured_at)
      : mode === "fulfilled"
        ? (order.fulfillments ?? []).map((f) => f.created_at)
        : []
  const times = at.map((x) => (x ? new Date(x).getTime() : NaN)).filter(Number.isFinite)
  return times.length ? new Date(Math.min(...times)) : null
}
