/** The fix of a needs_attention order: its lines re-quoted for a corrected destination and filed, owed by the merchant (no tax
 * was collected: snapshot `requote`). A record no longer in needs_attention is not touched: a second call files nothing. */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { DestinationSource } from "../modules/sales-tax-filing/types"
import type { ErrorDetail } from "../../packages/contract/src/index"
import { dec } from "../../packages/contract/src/money"
import { zipText } from "../service/address/us-address"
import { filingStore, filingProcessor } from "./processor-factory"
import { type PluginOptions, getPluginOptions } from "../options"
import type { AddressRow } from "./order-rows"
import { buildSnapshot, ruledDestination } from "./snapshot"
import { readOrder } from "./order-reader"
import { currencyReason } from "./decisions"

/** Why a re-quote cannot be done (the admin route answers `status`, with `errors` located in its body). */
export class RequoteRefused extends Error {
  constructor(
    readonly status: 404 | 409 | 422 | 503,
    message: string,
    readonly errors: ErrorDetail[] = [],
  ) {
    super(message)
  }
}

/** The corrected state and ZIP through the destination rule, with the order's street and city; a pair it cannot reconcile,
 * or a territory's ZIP, refused at `body.zip`. */
export async function requoteDestination(
  options: PluginOptions,
  a: AddressRow | null | undefined,
  corrected: { state: string; zip: string },
): Promise<{ state: string; zip: string; source: DestinationSource }> {
  const ruled = await ruledDestination(options, {
    ...a,
    country_code: "us",
    province_code: corrected.state,
    postal_code: corrected.zip,
  }).catch((e: unknown) => {
    throw new RequoteRefused(503, `${e instanceof Error ? e.message : String(e)}: try again later`)
  })
  if (ruled.address) return { state: ruled.destination.state, zip: zipText(ruled.destination), source: ruled.destination.source }
  const why =
    ruled.reason === "territory"
      ? `ZIP ${corrected.zip} is in a US territory or APO/FPO area the service does not tax`
      : `state ${corrected.state} and ZIP ${corrected.zip} do not resolve to one US state (${ruled.detail ?? ruled.reason})`
  throw new RequoteRefused(422, why, [{ location: "body.zip", message: why, value: corrected.zip }])
}

export async function requoteFiling(container: MedusaContainer, orderId: string, corrected: { state: string; zip: string }) {
  const rec = await filingStore(container).findRecord(orderId)
  if (!rec) throw new RequoteRefused(404, `No filing record for ${orderId}`)
  if (rec.state !== "needs_attention" && !rec.snapshot?.requote)
    throw new RequoteRefused(409, `The filing of ${orderId} does not need attention (state ${rec.state})`)
  const options = getPluginOptions(container)
  return filingProcessor(container).requote(orderId, async (rec) => {
    if (rec.kind !== "order") throw new RequoteRefused(422, `only an order's own filing can be re-quoted (this one is ${rec.kind})`)
    const order = await readOrder(container, rec.order_id)
    if (!order) throw new RequoteRefused(404, `order ${rec.order_id} not found`)
    const currency = String(order.currency_code).toUpperCase()
    if (currency !== "USD") throw new RequoteRefused(422, `${currencyReason(currency)}: file this order at the service by hand`)
    const destination = await requoteDestination(options, order.shipping_address, corrected)
    const { snapshot, siblings } = await buildSnapshot(container, order, options, { kind: "order" }, destination)
    if (!snapshot) throw new RequoteRefused(422, "the order has no lines to file")
    if (siblings?.length) throw new RequoteRefused(422, "the order's lines were quoted from several origins: file it by hand")
    return snapshot
  })
}

/** The re-quote's figures as the admin route answers them. */
export function requoteAnswer(out: Awaited<ReturnType<typeof requoteFiling>>) {
  const rq = out.record?.snapshot?.requote
  return {
    requoted: out.requoted,
    ...(rq
      ? {
          destination: { state: rq.state, zip: rq.zip },
          collected_tax: dec(rq.collectedTax).toFixed(2),
          owed_tax: dec(rq.owedTax).toFixed(2),
        }
      : {}),
  }
}
