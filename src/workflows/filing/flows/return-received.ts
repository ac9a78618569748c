import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onReturnReceived } from "../../../filing/handlers"

/**
 * order.return_received: refunds exactly the received items (and shipping when the return
 * refunds it).
 *
 * Writes: a refund row on each record holding a returned line, then POST orders/refunds under
 * the return id (`<return id>:<record order id>` on another origin's or an edit's order).
 * No compensation: one step, and the service has no reversal of a refund (the client has none);
 * the goods came back, so the refund stands. The key makes a rerun a replay at the service, and
 * a failed call stays on the refund row and record for the retry job.
 */
const step = createStep("sales-tax-return-received-filing-step", async (input: { returnId: string }, { container }) => {
  return new StepResponse(await onReturnReceived(container, input.returnId))
})

export const returnReceivedFilingWorkflow = createWorkflow("sales-tax-return-received-filing", (input: { returnId: string }) => {
  return new WorkflowResponse(step(input))
})
