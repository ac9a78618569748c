import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import {
  claimCreatedFilingWorkflow,
  exchangeCreatedFilingWorkflow,
  orderEditedFilingWorkflow,
  paymentCapturedFilingWorkflow,
  paymentRefundedFilingWorkflow,
  returnReceivedFilingWorkflow,
  syncOrderFilingWorkflow,
} from "../workflows/filing/workflows"
import { describeFailure } from "../filing/decisions"
import { getPluginOptions } from "../options"

type Payload = { id?: string; order_id?: string; return_id?: string; claim_id?: string; exchange_id?: string }

/** Starts the event's workflow with the id it needs (none when the payload lacks it). */
type Start = (container: MedusaContainer, d: Payload) => Promise<unknown> | undefined

const byId =
  (run: (c: MedusaContainer, id: string) => Promise<unknown>, pick: (d: Payload) => string | undefined): Start =>
  (c, d) => {
    const id = pick(d)
    return id ? run(c, id) : undefined
  }

/**
 * One Medusa event → one filing workflow. The workflows are idempotent (every service write is
 * keyed by Medusa ids); a failure is kept on the filing record and retried by the retry job; an
 * event that never arrives is made up for by the sweep job.
 */
export const FILING_EVENTS: Record<string, Start> = {
  "order.placed": byId(
    (c, orderId) => syncOrderFilingWorkflow(c).run({ input: { orderId } }),
    (d) => d.id,
  ),
  "order.canceled": byId(
    (c, orderId) => syncOrderFilingWorkflow(c).run({ input: { orderId } }),
    (d) => d.id,
  ),
  "order.fulfillment_created": byId(
    (c, orderId) => syncOrderFilingWorkflow(c).run({ input: { orderId } }),
    (d) => d.order_id,
  ),
  "payment.captured": byId(
    (c, paymentId) => paymentCapturedFilingWorkflow(c).run({ input: { paymentId } }),
    (d) => d.id,
  ),
  "payment.refunded": byId(
    (c, paymentId) => paymentRefundedFilingWorkflow(c).run({ input: { paymentId } }),
    (d) => d.id,
  ),
  "order.return_received": byId(
    (c, returnId) => returnReceivedFilingWorkflow(c).run({ input: { returnId } }),
    (d) => d.return_id,
  ),
  "order.claim_created": byId(
    (c, claimId) => claimCreatedFilingWorkflow(c).run({ input: { claimId } }),
    (d) => d.claim_id,
  ),
  "order.exchange_created": byId(
    (c, exchangeId) => exchangeCreatedFilingWorkflow(c).run({ input: { exchangeId } }),
    (d) => d.exchange_id,
  ),
  "order-edit.confirmed": byId(
    (c, orderId) => orderEditedFilingWorkflow(c).run({ input: { orderId } }),
    (d) => d.order_id,
  ),
}

export default async function salesTaxFilingSubscriber({ event, container }: SubscriberArgs<Payload>) {
  try {
    await FILING_EVENTS[event.name]?.(container, event.data ?? {})
  } catch (e) {
    // service failures are kept on the filing record; anything else is a bug worth a log line (the sweep retries)
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    let apiKey: string | undefined
    try {
      apiKey = getPluginOptions(container).apiKey
    } catch {
      apiKey = undefined
    }
    logger.error(`sales-tax filing: ${event.name} failed: ${describeFailure(e, [apiKey])}`)
    throw e
  }
}

export const config: SubscriberConfig = {
  event: Object.keys(FILING_EVENTS),
  context: { subscriberId: "sales-tax-filing" },
}
