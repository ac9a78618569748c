/** Medusa's events → their filing handlers: writes keyed by Medusa ids (a redelivery adds nothing), a failed call stays on the
 * record for the retry job, a lost event is made up for by the sweep. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "../../medusa/keys"
import { describeFailure } from "../decisions-retry"
import { secretOf } from "../processor-factory"
import { onOrderEdited, onPaymentCaptured, syncOrder } from "./orders"
import { onClaimCreated, onExchangeCreated, onReturnReceived } from "./changes"
import { onPaymentRefunded } from "./credits"

export type FilingEventData = { id?: string; order_id?: string; return_id?: string; claim_id?: string; exchange_id?: string }

const on = (run: (c: MedusaContainer, id: string) => Promise<unknown>, key: keyof FilingEventData) => ({ run, key })

const FILING_EVENTS: Record<string, ReturnType<typeof on>> = {
  "order.placed": on(syncOrder, "id"),
  "order.canceled": on(syncOrder, "id"),
  "order.fulfillment_created": on(syncOrder, "order_id"),
  "payment.captured": on(onPaymentCaptured, "id"),
  "payment.refunded": on(onPaymentRefunded, "id"),
  "order.return_received": on(onReturnReceived, "return_id"),
  "order.claim_created": on(onClaimCreated, "claim_id"),
  "order.exchange_created": on(onExchangeCreated, "exchange_id"),
  "order-edit.confirmed": on(onOrderEdited, "order_id"),
}

export const FILING_EVENT_NAMES = Object.keys(FILING_EVENTS)

/** Runs the event's handler; anything thrown (not a service failure: those stay on the record) is logged and rethrown. */
export async function onFilingEvent(container: MedusaContainer, name: string, data: FilingEventData): Promise<void> {
  const h = FILING_EVENTS[name]
  const id = h && data[h.key]
  if (!h || !id) return
  try {
    await h.run(container, id)
  } catch (e) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .error(`sales-tax filing: ${name} failed: ${describeFailure(e, [secretOf(container)])}`)
    throw e
  }
}
