import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onPaymentCaptured } from "../../../filing/handlers"

/** payment.captured: completes the order at the service (completionMode "captured"). One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-payment-captured-filing-step", async (input: { paymentId: string }, { container }) => {
  return new StepResponse(await onPaymentCaptured(container, input.paymentId))
})

export const paymentCapturedFilingWorkflow = createWorkflow("sales-tax-payment-captured-filing", (input: { paymentId: string }) => {
  return new WorkflowResponse(step(input))
})
