import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onExchangeCreated } from "../../../filing/handlers"

/**
 * order.exchange_created: returned items refunded, new items filed as an order of their own.
 *
 * Writes: refund rows and POST orders/refunds keyed by the exchange id; a record and a service
 * order for the new items (orderId = the exchange id, one per origin).
 * No compensation: one step; the two writes are not a pair to undo together (each stands for a
 * fact Medusa holds: items returned, items sold), a refund has no reversal at the service, and
 * both are keyed by the exchange id, so a rerun after a partial failure completes the missing one.
 */
const step = createStep("sales-tax-exchange-created-filing-step", async (input: { exchangeId: string }, { container }) => {
  return new StepResponse(await onExchangeCreated(container, input.exchangeId))
})

export const exchangeCreatedFilingWorkflow = createWorkflow("sales-tax-exchange-created-filing", (input: { exchangeId: string }) => {
  return new WorkflowResponse(step(input))
})
