import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { FILING_EVENT_NAMES, onFilingEvent, type FilingEventData } from "../filing/events/by-event"

export default async function salesTaxFilingSubscriber({ event, container }: SubscriberArgs<FilingEventData>) {
  await onFilingEvent(container, event.name, event.data ?? {})
}

export const config: SubscriberConfig = {
  event: FILING_EVENT_NAMES,
  context: { subscriberId: "sales-tax-filing" },
}
