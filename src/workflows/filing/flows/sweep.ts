import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { sweepOrders } from "../../../filing/handlers"

/** The lost-event sweep: orders of the last days with no record, or a Medusa fact their records miss. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-sweep-filings-step", async (input: { days?: number }, { container }) => {
  return new StepResponse(await sweepOrders(container, { days: input.days }))
})

export const sweepFilingsWorkflow = createWorkflow("sales-tax-sweep-filings", (input: { days?: number }) => {
  return new WorkflowResponse(step(input))
})
