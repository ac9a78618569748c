import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onPaymentRefunded } from "../../../filing/handlers"

/**
 * payment.refunded: with manualRefunds "credit", files each refund without a return as a credit.
 *
 * Writes: a credit record per Medusa refund (orderId `credit_<refund id>`) and its service order.
 * No compensation: one step, and the Medusa refund it files is real money returned; removing the
 * credit would overstate the tax owed. Keyed by the Medusa refund id (a rerun files nothing
 * twice); a failed call stays on the credit's record for the retry job.
 */
const step = createStep("sales-tax-payment-refunded-filing-step", async (input: { paymentId: string }, { container }) => {
  return new StepResponse(await onPaymentRefunded(container, input.paymentId))
})

export const paymentRefundedFilingWorkflow = createWorkflow("sales-tax-payment-refunded-filing", (input: { paymentId: string }) => {
  return new WorkflowResponse(step(input))
})
