import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { processDueFilings } from "../../../filing/handlers"

/** The retry job: every record whose next attempt is due. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-process-due-filings-step", async (input: { limit?: number }, { container }) => {
  return new StepResponse(await processDueFilings(container, input.limit ?? 100))
})

export const processDueFilingsWorkflow = createWorkflow("sales-tax-process-due-filings", (input: { limit?: number }) => {
  return new WorkflowResponse(step(input))
})
