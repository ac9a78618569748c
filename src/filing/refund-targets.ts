/** What a return, a claim or an exchange refunds, read from Medusa: its items as the refund intent the processor routes to the
 * service orders holding them. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { roundCents, sum } from "../../packages/contract/src/money"
import type { RefundItem } from "../modules/sales-tax-filing/types"
import type { RefundIntent } from "./processor-types"
import { taxShare } from "./decisions-refunds"
import { wholeItemCharge } from "./snapshot"
import { claimedItems, quantityOf, refundItems, refundsShipping, returnedItems, type ExchangeRow, type OrderRow } from "./order-rows"
import { readClaim, readExchange, readOwnShippingIds, readReturn } from "./order-reader"

export interface RefundTarget {
  orderId: string
  intent: RefundIntent
}

/** A received return: its received quantities; a claim's or an exchange's return is that one's refund (same key: once). */
export async function returnRefund(container: MedusaContainer, returnId: string): Promise<RefundTarget | null> {
  const r = await readReturn(container, returnId)
  if (!r) return null
  if (r.claim_id) return claimRefund(await loadClaim(container, r.claim_id))
  if (r.exchange_id) return exchangeRefund(await loadExchange(container, r.exchange_id))
  const shipping = refundsShipping(r.metadata) ? await readOwnShippingIds(container, r.order_id) : []
  const returnedAt = r.received_at ? new Date(r.received_at) : new Date()
  return { orderId: r.order_id, intent: { source: "return", sourceId: r.id, items: returnedItems(r, shipping), returnedAt } }
}

/** A claim not canceled, with its claimed units and its replacement (outbound) items. */
export async function loadClaim(container: MedusaContainer, claimId: string) {
  const c = await readClaim(container, claimId)
  if (!c || c.canceled_at) return null
  const additionalItemIds = (c.additional_items ?? []).map((i) => i.item_id)
  return { ...c, type: c.type === "replace" ? ("replace" as const) : ("refund" as const), claimed: claimedItems(c), additionalItemIds }
}

/** Pure: a refund claim refunds the claimed units (key = claim id); a replace claim refunds nothing. */
export function claimRefund(c: Awaited<ReturnType<typeof loadClaim>>): RefundTarget | null {
  if (!c || c.type === "replace") return null
  return { orderId: c.order_id, intent: { source: "claim", sourceId: c.id, items: c.claimed, returnedAt: new Date(c.created_at) } }
}

/** The tax of the claimed units as Medusa charged them (each line's whole-quantity tax's share, rounded half-up to the cent). */
export function claimedTax(order: Pick<OrderRow, "items">, claimed: RefundItem[]): number {
  const share = (c: RefundItem) => {
    const it = (order.items ?? []).find((i) => i.id === c.itemId)
    return it ? taxShare(wholeItemCharge(it).tax, c.quantity, quantityOf(it.quantity)) : 0
  }
  return roundCents(sum(claimed.map(share)))
}

/** Pure: an exchange refunds its returned items (key = exchange id). */
export function exchangeRefund(x: ExchangeRow | null): RefundTarget | null {
  if (!x) return null
  return {
    orderId: x.order_id,
    intent: { source: "exchange", sourceId: x.id, items: refundItems(x.return?.items), returnedAt: new Date(x.created_at) },
  }
}

export async function loadExchange(container: MedusaContainer, exchangeId: string) {
  const x = await readExchange(container, exchangeId)
  return x && !x.canceled_at ? x : null
}
