import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onPaymentRefunded } from "../../../filing/handlers"

/** payment.refunded: with manualRefunds "credit", files each refund without a return as a credit. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-payment-refunded-filing-step", async (input: { paymentId: string }, { container }) => {
  return new StepResponse(await onPaymentRefunded(container, input.paymentId))
})

export const paymentRefundedFilingWorkflow = createWorkflow("sales-tax-payment-refunded-filing", (input: { paymentId: string }) => {
  return new WorkflowResponse(step(input))
})
