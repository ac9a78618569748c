import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  onClaimCreated, onExchangeCreated, onPaymentCaptured, onReturnReceived, processDueFilings, retryFiling, syncOrder,
} from "./handlers"

/**
 * The filing workflows. Each is one step that is safe to run any number of times (keys and ids
 * derive from Medusa ids; the record is reconciled with the service), so no compensation is
 * needed: a failed service call is recorded on the filing record and retried by the job.
 */

export type FilingWorkflowInput =
  | { action: "order"; orderId: string }
  | { action: "payment_captured"; paymentId: string }
  | { action: "return_received"; returnId: string }
  | { action: "claim_created"; claimId: string }
  | { action: "exchange_created"; exchangeId: string }
  | { action: "retry"; orderId: string }
  | { action: "process_due"; limit?: number }

export const runFilingStep = createStep("sales-tax-filing-run", async (input: FilingWorkflowInput, { container }) => {
  switch (input.action) {
    case "order": return new StepResponse<unknown>(await syncOrder(container, input.orderId))
    case "payment_captured": return new StepResponse<unknown>(await onPaymentCaptured(container, input.paymentId))
    case "return_received": return new StepResponse<unknown>(await onReturnReceived(container, input.returnId))
    case "claim_created": return new StepResponse<unknown>(await onClaimCreated(container, input.claimId))
    case "exchange_created": return new StepResponse<unknown>(await onExchangeCreated(container, input.exchangeId))
    case "retry": return new StepResponse<unknown>(await retryFiling(container, input.orderId))
    case "process_due": return new StepResponse<unknown>(await processDueFilings(container, input.limit ?? 100))
  }
})

/** order.placed / order.canceled / order.fulfillment_created: file, complete, cancel as Medusa says. */
export const syncOrderFilingWorkflow = createWorkflow("sales-tax-sync-order-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(runFilingStep({ action: "order", orderId: input.orderId }))
})

export const paymentCapturedFilingWorkflow = createWorkflow("sales-tax-payment-captured-filing", (input: { paymentId: string }) => {
  return new WorkflowResponse(runFilingStep({ action: "payment_captured", paymentId: input.paymentId }))
})

export const returnReceivedFilingWorkflow = createWorkflow("sales-tax-return-received-filing", (input: { returnId: string }) => {
  return new WorkflowResponse(runFilingStep({ action: "return_received", returnId: input.returnId }))
})

export const claimCreatedFilingWorkflow = createWorkflow("sales-tax-claim-created-filing", (input: { claimId: string }) => {
  return new WorkflowResponse(runFilingStep({ action: "claim_created", claimId: input.claimId }))
})

export const exchangeCreatedFilingWorkflow = createWorkflow("sales-tax-exchange-created-filing", (input: { exchangeId: string }) => {
  return new WorkflowResponse(runFilingStep({ action: "exchange_created", exchangeId: input.exchangeId }))
})

export const retryFilingWorkflow = createWorkflow("sales-tax-retry-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(runFilingStep({ action: "retry", orderId: input.orderId }))
})

export const processDueFilingsWorkflow = createWorkflow("sales-tax-process-due-filings", (input: { limit?: number }) => {
  return new WorkflowResponse(runFilingStep({ action: "process_due", limit: input.limit }))
})
