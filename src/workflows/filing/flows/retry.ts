import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { retryFiling } from "../../../filing/handlers"

/**
 * Admin retry: forgets the attempt count and runs the record's pending work now.
 *
 * Writes: attempts = 0 and next_attempt_at on the record, then whatever work is pending (file,
 * complete, cancel, refunds, edits), each as in the other flows.
 * No compensation: one step that only resumes work already decided by earlier events; each call
 * is keyed by Medusa ids, and a failure is recorded again (back-off), not rolled back.
 */
const step = createStep("sales-tax-retry-filing-step", async (input: { orderId: string }, { container }) => {
  return new StepResponse(await retryFiling(container, input.orderId))
})

export const retryFilingWorkflow = createWorkflow("sales-tax-retry-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(step(input))
})
