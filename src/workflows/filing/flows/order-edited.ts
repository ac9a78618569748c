import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onOrderEdited } from "../../../filing/handlers"

/** order-edit.confirmed: void and refile before the cutoff, else refunds + an order of its own (key = edit id). One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-order-edited-filing-step", async (input: { orderId: string }, { container }) => {
  return new StepResponse(await onOrderEdited(container, input.orderId))
})

export const orderEditedFilingWorkflow = createWorkflow("sales-tax-order-edited-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(step(input))
})
