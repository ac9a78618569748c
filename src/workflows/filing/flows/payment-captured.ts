import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onPaymentCaptured } from "../../../filing/handlers"

/**
 * payment.captured: completes the order at the service (completionMode "captured").
 *
 * Writes: completion_requested_at on the order's records, then PATCH completedDate at the service
 * (files the order first if it was not yet, as sync-order does).
 * No compensation: one step (nothing after it can fail and roll it back), and the capture it
 * records happened; un-completing the order would misstate when the sale was complete. The
 * completion is idempotent (the record notes it once; the same date is sent again on a rerun) and
 * a failed call stays on the record for the retry job.
 */
const step = createStep("sales-tax-payment-captured-filing-step", async (input: { paymentId: string }, { container }) => {
  return new StepResponse(await onPaymentCaptured(container, input.paymentId))
})

export const paymentCapturedFilingWorkflow = createWorkflow("sales-tax-payment-captured-filing", (input: { paymentId: string }) => {
  return new WorkflowResponse(step(input))
})
