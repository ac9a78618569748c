/**
 * What a return, a claim or an exchange refunds, read from Medusa: the received (or claimed, or
 * returned-in-exchange) items of one Medusa order, as the refund intent the processor routes line
 * by line to the service orders holding them.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { amountString, dec, roundCents, sum } from "../money"
import { SHIPPING_ITEM_PREFIX } from "../constants"
import type { RefundItem } from "../modules/sales-tax-filing/types"
import type { RefundIntent } from "./processor-types"
import { taxShare } from "./decisions-refunds"
import { wholeItemCharge } from "./snapshot"
import type { ChangeItemRow, ExchangeRow, OrderRow } from "./order-rows"
import { readClaim, readExchange, readReturn, readShippingLinks } from "./order-reader"

export interface RefundTarget {
  orderId: string
  intent: RefundIntent
}

function items(list: ChangeItemRow[] | null | undefined, qty: (i: ChangeItemRow) => unknown): RefundItem[] {
  return (list ?? []).map((i) => ({ itemId: i.item_id, quantity: dec(amountString(qty(i))).toNumber() })).filter((i) => i.quantity > 0)
}

/** A received return: its received quantities. A return that belongs to a claim or an exchange
 *  maps to that claim's / exchange's refund (same key), so it is refunded once. */
export async function returnRefund(container: MedusaContainer, returnId: string): Promise<RefundTarget | null> {
  const r = await readReturn(container, returnId)
  if (!r) return null
  if (r.claim_id) return claimRefund(container, r.claim_id)
  if (r.exchange_id) return exchangeRefund(container, r.exchange_id)
  const received = items(r.items, (i) => i.received_quantity)
  // a return that refunds shipping (metadata refund_shipping: true) refunds the shipping lines' tax too
  if (refundsShipping(r.metadata)) {
    for (const sm of await readShippingLinks(container, r.order_id)) {
      if (sm.detail?.return_id || sm.detail?.claim_id || sm.detail?.exchange_id) continue
      received.push({ itemId: `${SHIPPING_ITEM_PREFIX}${sm.id}`, quantity: 1 })
    }
  }
  return {
    orderId: r.order_id,
    intent: { source: "return", sourceId: r.id, items: received, returnedAt: r.received_at ? new Date(r.received_at) : new Date() },
  }
}

/** Pure: a return refunds the order's shipping when its metadata says so (`refund_shipping: true`). */
export function refundsShipping(metadata: unknown): boolean {
  const m = metadata as Record<string, unknown> | null | undefined
  return m?.refund_shipping === true || m?.refund_shipping === "true"
}

export interface LoadedClaim {
  id: string
  order_id: string
  type: "refund" | "replace"
  created_at: string | Date
  /** the claimed units: the claim's return items, else its claim items */
  claimed: RefundItem[]
  /** the replacement (outbound) items */
  additionalItemIds: string[]
}

export async function loadClaim(container: MedusaContainer, claimId: string): Promise<LoadedClaim | null> {
  const c = await readClaim(container, claimId)
  if (!c || c.canceled_at) return null
  const returned = items(c.return?.items, (i) => i.quantity)
  return {
    id: c.id,
    order_id: c.order_id,
    type: c.type === "replace" ? "replace" : "refund",
    created_at: c.created_at,
    claimed: returned.length ? returned : items(c.claim_items, (i) => i.quantity),
    additionalItemIds: (c.additional_items ?? []).map((i) => i.item_id),
  }
}

/** A refund claim refunds the claimed units (key = claim id); a replace claim refunds nothing. */
export async function claimRefund(container: MedusaContainer, claimId: string): Promise<RefundTarget | null> {
  const c = await loadClaim(container, claimId)
  if (!c || c.type === "replace") return null
  return { orderId: c.order_id, intent: { source: "claim", sourceId: c.id, items: c.claimed, returnedAt: new Date(c.created_at) } }
}

/** The tax of the claimed units as Medusa charged them (each line's whole-quantity tax's share, rounded half-up to the cent). */
export function claimedTax(order: Pick<OrderRow, "items">, claimed: RefundItem[]): number {
  return roundCents(
    sum(
      claimed.map((c) => {
        const it = (order.items ?? []).find((i) => i.id === c.itemId)
        return it ? taxShare(wholeItemCharge(it).tax, c.quantity, dec(amountString(it.quantity)).toNumber()) : 0
      }),
    ),
  )
}

export async function exchangeRefund(container: MedusaContainer, exchangeId: string): Promise<RefundTarget | null> {
  const x = await loadExchange(container, exchangeId)
  if (!x) return null
  return {
    orderId: x.order_id,
    intent: { source: "exchange", sourceId: x.id, items: items(x.return?.items, (i) => i.quantity), returnedAt: new Date(x.created_at) },
  }
}

export type LoadedExchange = ExchangeRow

export async function loadExchange(container: MedusaContainer, exchangeId: string): Promise<LoadedExchange | null> {
  const x = await readExchange(container, exchangeId)
  return x && !x.canceled_at ? x : null
}
