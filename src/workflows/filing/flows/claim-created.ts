import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onClaimCreated } from "../../../filing/handlers"

/** order.claim_created: a refund claim refunds; a replace claim files what the customer pays for the replacement. One idempotent step (keys from Medusa ids); a failed service call is kept on the filing record for the retry job. */
const step = createStep("sales-tax-claim-created-filing-step", async (input: { claimId: string }, { container }) => {
  return new StepResponse(await onClaimCreated(container, input.claimId))
})

export const claimCreatedFilingWorkflow = createWorkflow("sales-tax-claim-created-filing", (input: { claimId: string }) => {
  return new WorkflowResponse(step(input))
})
