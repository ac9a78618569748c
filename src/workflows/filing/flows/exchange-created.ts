import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onExchangeCreated } from "../../../filing/handlers"

/** order.exchange_created: returned items refunded, new items filed as an order of their own. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-exchange-created-filing-step", async (input: { exchangeId: string }, { container }) => {
  return new StepResponse(await onExchangeCreated(container, input.exchangeId))
})

export const exchangeCreatedFilingWorkflow = createWorkflow("sales-tax-exchange-created-filing", (input: { exchangeId: string }) => {
  return new WorkflowResponse(step(input))
})
