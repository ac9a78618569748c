import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { processDueFilings } from "../../../filing/handlers"

/**
 * The retry job: every record whose next attempt is due.
 *
 * Writes: each due record's pending work, as the retry flow does, one record at a time.
 * No compensation: one step over independent records; one record's failure is kept on it (back-off
 * or left for a person) and must not undo the others' filings, which are real.
 */
const step = createStep("sales-tax-process-due-filings-step", async (input: { limit?: number }, { container }) => {
  return new StepResponse(await processDueFilings(container, input.limit ?? 100))
})

export const processDueFilingsWorkflow = createWorkflow("sales-tax-process-due-filings", (input: { limit?: number }) => {
  return new WorkflowResponse(step(input))
})
