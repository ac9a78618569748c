/**
 * The fix of a needs_attention order (issue 26): re-quote its lines at the service for a
 * corrected destination and file them. No tax was collected from the shopper; what is filed is
 * the tax the service computes, which the merchant owes (the record's snapshot says so:
 * `requote`). Through the filing processor (its lock, its cart / direct paths, keys from Medusa
 * ids): a record no longer in needs_attention is not touched, so a second call files nothing.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { FilingRecordDTO } from "../modules/sales-tax-filing/types"
import { buildSnapshot, filingProcessor, getPluginOptions, readOrder } from "./medusa"
import { currencyReason } from "./decisions"
import type { FilingClient } from "./processor"

/** Why a re-quote cannot be done (the admin route answers `status`). */
export class RequoteRefused extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    message: string,
  ) {
    super(message)
  }
}

export async function requoteFiling(
  container: MedusaContainer,
  orderId: string,
  corrected: { state: string; zip: string },
  deps: { client?: FilingClient } = {},
): Promise<{ record: FilingRecordDTO | null; requoted: boolean }> {
  const options = getPluginOptions(container)
  return filingProcessor(container, deps).requote(orderId, async (rec) => {
    if (rec.kind !== "order") throw new RequoteRefused(422, `only an order's own filing can be re-quoted (this one is ${rec.kind})`)
    const order = await readOrder(container, rec.order_id)
    if (!order) throw new RequoteRefused(404, `order ${rec.order_id} not found`)
    const currency = String(order.currency_code).toUpperCase()
    if (currency !== "USD") throw new RequoteRefused(422, `${currencyReason(currency)}: file this order at the service by hand`)
    const { snapshot, siblings } = await buildSnapshot(container, order, options, { kind: "order" }, corrected)
    if (!snapshot) throw new RequoteRefused(422, "the order has no lines to file")
    if (siblings?.length) throw new RequoteRefused(422, "the order's lines were quoted from several origins: file it by hand")
    return snapshot
  })
}
