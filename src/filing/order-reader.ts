/** The one reader of Medusa orders for filing, backfill and reconciliation: an order (or a page) as charged with its returns,
 * claims and exchanges, and one return, claim or exchange by id. The rows are typed in `order-rows.ts`. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { graph } from "../query"
import { withRecordedData } from "../medusa/tax-line-record"
import { groupBy, ownShippingIds, type ClaimRow, type ExchangeRow, type OrderRow, type ReturnRow } from "./order-rows"

/** What is read of an order: Medusa computes line totals only when the order's are asked for too, with tax lines and adjustments. */
const ORDER_FIELDS = [
  "id",
  "display_id",
  "created_at",
  "currency_code",
  "customer_id",
  "sales_channel_id",
  "canceled_at",
  "status",
  "tax_total",
  "total",
  "cart.id",
  "shipping_address.*",
  ...["items", "shipping_methods"].flatMap((l) =>
    ["*", "tax_lines.*", "adjustments.*", "subtotal", "discount_subtotal", "tax_total", "total"].map((f) => `${l}.${f}`),
  ),
  "fulfillments.created_at",
  "payment_collections.payments.captured_at",
  "payment_collections.payments.refunds.id",
] as const

const RETURN_FIELDS = [
  "id",
  "order_id",
  "claim_id",
  "exchange_id",
  "canceled_at",
  "received_at",
  "metadata",
  "items.item_id",
  "items.quantity",
  "items.received_quantity",
] as const

/** What is read of an exchange: its new items (`additional_items.item_id` alone reads none) and its returned items. */
const EXCHANGE_FIELDS = [
  "id",
  "order_id",
  "created_at",
  "canceled_at",
  "additional_items.*",
  "return.items.item_id",
  "return.items.quantity",
]

/** A claim: an exchange's fields, its type and its claimed units. */
const CLAIM_FIELDS = [...EXCHANGE_FIELDS, "type", "claim_items.*"]

/** The returns, claims and exchanges of `orderIds` (the order entity has no relation to them: queried apart). */
export interface OrderParts {
  returns: ReturnRow[]
  claims: ClaimRow[]
  exchanges: ExchangeRow[]
}

/** The order with its claims, exchanges and returns. */
export type LoadedOrder = OrderRow & Partial<OrderParts>

export async function readOrderParts(container: MedusaContainer, orderIds: string[]): Promise<OrderParts> {
  if (!orderIds.length) return { returns: [], claims: [], exchanges: [] }
  const filters = { order_id: orderIds }
  const [returns, claims, exchanges] = await Promise.all([
    graph<ReturnRow>(container, { entity: "return", fields: RETURN_FIELDS, filters }),
    graph<ClaimRow>(container, { entity: "order_claim", fields: CLAIM_FIELDS, filters }),
    graph<ExchangeRow>(container, { entity: "order_exchange", fields: EXCHANGE_FIELDS, filters }),
  ])
  return { returns, claims, exchanges }
}

/** Pure: each order with its own returns, claims and exchanges (in the order of `orders`). */
export function withParts(orders: OrderRow[], parts: OrderParts): LoadedOrder[] {
  const returns = groupBy(parts.returns, (x) => x.order_id)
  const claims = groupBy(parts.claims, (x) => x.order_id)
  const exchanges = groupBy(parts.exchanges, (x) => x.order_id)
  return orders.map((o) => ({
    ...o,
    claims: claims.get(o.id) ?? [],
    exchanges: exchanges.get(o.id) ?? [],
    returns: returns.get(o.id) ?? [],
  }))
}

export async function readOrders(container: MedusaContainer, ids: string[]): Promise<LoadedOrder[]> {
  if (!ids.length) return []
  const [orders, parts] = await Promise.all([
    graph<OrderRow>(container, { entity: "order", fields: ORDER_FIELDS, filters: { id: ids } }),
    readOrderParts(container, ids),
  ])
  // the provider's record per tax line (its data, which Medusa drops before 2.18)
  for (const o of orders) for (const lines of [o.items, o.shipping_methods]) withRecordedData(lines)
  return withParts(orders, parts)
}

export async function readOrder(container: MedusaContainer, orderId: string): Promise<LoadedOrder | null> {
  return (await readOrders(container, [orderId]))[0] ?? null
}

async function readOne<T>(container: MedusaContainer, entity: string, fields: readonly string[], id: string): Promise<T | null> {
  return (await graph<T>(container, { entity, fields, filters: { id } }))[0] ?? null
}

export const readReturn = (c: MedusaContainer, id: string) => readOne<ReturnRow>(c, "return", RETURN_FIELDS, id)
export const readClaim = (c: MedusaContainer, id: string) => readOne<ClaimRow>(c, "order_claim", CLAIM_FIELDS, id)
export const readExchange = (c: MedusaContainer, id: string) => readOne<ExchangeRow>(c, "order_exchange", EXCHANGE_FIELDS, id)

/** The line ids of the order's own shipping methods: the order's less those its returns, claims and exchanges hold, read on
 * each of them (the Order Module fails reading the links on the order's: `shipping_methods.detail`, "reading 'strategy'"). */
export async function readOwnShippingIds(container: MedusaContainer, orderId: string): Promise<string[]> {
  type Held = { shipping_methods?: { id: string }[] | null }
  const fields = ["id", "shipping_methods.id"]
  const [orders, ...parts] = await Promise.all([
    graph<Held>(container, { entity: "order", fields, filters: { id: orderId } }),
    ...["return", "order_claim", "order_exchange"].map((entity) =>
      graph<Held>(container, { entity, fields, filters: { order_id: orderId } }),
    ),
  ])
  const held = new Set(parts.flat().flatMap((p) => (p.shipping_methods ?? []).map((m) => m.id)))
  return ownShippingIds(orders[0]?.shipping_methods?.filter((m) => !held.has(m.id)))
}

/** The orders `filters` match (placed at or after a date, in a range), oldest first, `take` at a time; `fields` read of each. */
export async function* orderPages<T extends { id: string }>(
  container: MedusaContainer,
  filters: Record<string, unknown>,
  take: number,
  fields: readonly (keyof T & string)[] = ["id"],
): AsyncGenerator<T[]> {
  for (let skip = 0; ; skip += take) {
    const order = { created_at: "ASC", id: "ASC" } as const
    const page = await graph<T>(container, { entity: "order", fields, filters, pagination: { skip, take, order } })
    if (page.length) yield page
    if (page.length < take) return
  }
}
