import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onReturnReceived } from "../../../filing/handlers"

/** order.return_received: refunds exactly the received items (and shipping when the return refunds it). One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-return-received-filing-step", async (input: { returnId: string }, { container }) => {
  return new StepResponse(await onReturnReceived(container, input.returnId))
})

export const returnReceivedFilingWorkflow = createWorkflow("sales-tax-return-received-filing", (input: { returnId: string }) => {
  return new WorkflowResponse(step(input))
})
