import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import {
  claimCreatedFilingWorkflow, exchangeCreatedFilingWorkflow, paymentCapturedFilingWorkflow,
  returnReceivedFilingWorkflow, syncOrderFilingWorkflow,
} from "../workflows/filing/workflows"

type Payload = { id?: string; order_id?: string; return_id?: string; claim_id?: string; exchange_id?: string }

/**
 * Filing subscriber: only starts the filing workflows (they are idempotent; a failure is recorded
 * on the filing record and retried by the sales-tax-filing-retry job).
 */
export default async function salesTaxFilingSubscriber({ event, container }: SubscriberArgs<Payload>) {
  const d = event.data ?? {}
  switch (event.name) {
    case "order.placed":
    case "order.canceled":
    case "order.fulfillment_created": {
      const orderId = event.name === "order.fulfillment_created" ? d.order_id : d.id
      if (orderId) await syncOrderFilingWorkflow(container).run({ input: { orderId } })
      return
    }
    case "payment.captured":
      if (d.id) await paymentCapturedFilingWorkflow(container).run({ input: { paymentId: d.id } })
      return
    case "order.return_received":
      if (d.return_id) await returnReceivedFilingWorkflow(container).run({ input: { returnId: d.return_id } })
      return
    case "order.claim_created":
      if (d.claim_id) await claimCreatedFilingWorkflow(container).run({ input: { claimId: d.claim_id } })
      return
    case "order.exchange_created":
      if (d.exchange_id) await exchangeCreatedFilingWorkflow(container).run({ input: { exchangeId: d.exchange_id } })
      return
  }
}

export const config: SubscriberConfig = {
  event: [
    "order.placed",
    "order.canceled",
    "order.fulfillment_created",
    "payment.captured",
    "order.return_received",
    "order.claim_created",
    "order.exchange_created",
  ],
  context: { subscriberId: "sales-tax-filing" },
}
