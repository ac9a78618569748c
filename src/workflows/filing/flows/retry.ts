import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { retryFiling } from "../../../filing/handlers"

/** Admin retry: forgets the attempt count and runs the record's pending work now. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-retry-filing-step", async (input: { orderId: string }, { container }) => {
  return new StepResponse(await retryFiling(container, input.orderId))
})

export const retryFilingWorkflow = createWorkflow("sales-tax-retry-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(step(input))
})
