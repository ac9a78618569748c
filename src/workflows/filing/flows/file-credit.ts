import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { fileRefundAsCredit } from "../../../filing/handlers"

/** Admin: files one refund without a return as a standalone credit. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-file-refund-as-credit-step", async (input: { orderId: string; refundId: string }, { container }) => {
  return new StepResponse(await fileRefundAsCredit(container, input.orderId, input.refundId))
})

export const fileRefundAsCreditWorkflow = createWorkflow(
  "sales-tax-file-refund-as-credit",
  (input: { orderId: string; refundId: string }) => {
    return new WorkflowResponse(step(input))
  },
)
