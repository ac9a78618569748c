import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onClaimCreated } from "../../../filing/handlers"

/**
 * order.claim_created: a refund claim refunds; a replace claim files what the customer pays for
 * the replacement.
 *
 * Writes: a refund claim: refund rows and POST orders/refunds keyed by the claim id; a replace
 * claim: a record and a service order of its own (orderId from the claim id).
 * No compensation: one step; a refund has no reversal at the service, and voiding the
 * replacement's order would un-file a charge Medusa holds. Keys and ids come from the claim id
 * (a rerun adds nothing) and a failed call stays on the record for the retry job.
 */
const step = createStep("sales-tax-claim-created-filing-step", async (input: { claimId: string }, { container }) => {
  return new StepResponse(await onClaimCreated(container, input.claimId))
})

export const claimCreatedFilingWorkflow = createWorkflow("sales-tax-claim-created-filing", (input: { claimId: string }) => {
  return new WorkflowResponse(step(input))
})
