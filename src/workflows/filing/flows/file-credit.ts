import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { fileRefundAsCredit } from "../../../filing/handlers"

/**
 * Admin: files one refund without a return as a standalone credit.
 *
 * Writes: the credit's record (orderId `credit_<refund id>`) and its service order.
 * No compensation: one step, and the refund it files is real; un-filing it is the admin's own
 * decision, not a rollback. Keyed by the Medusa refund id (a second click files nothing); a failed
 * call stays on the credit's record for the retry job.
 */
const step = createStep("sales-tax-file-refund-as-credit-step", async (input: { orderId: string; refundId: string }, { container }) => {
  return new StepResponse(await fileRefundAsCredit(container, input.orderId, input.refundId))
})

export const fileRefundAsCreditWorkflow = createWorkflow(
  "sales-tax-file-refund-as-credit",
  (input: { orderId: string; refundId: string }) => {
    return new WorkflowResponse(step(input))
  },
)
