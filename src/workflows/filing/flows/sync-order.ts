import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { syncOrder } from "../../../filing/handlers"

/** order.placed / order.canceled / order.fulfillment_created (and the retry of a whole order): file, complete, cancel as Medusa says. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-sync-order-filing-step", async (input: { orderId: string }, { container }) => {
  return new StepResponse(await syncOrder(container, input.orderId))
})

export const syncOrderFilingWorkflow = createWorkflow("sales-tax-sync-order-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(step(input))
})
