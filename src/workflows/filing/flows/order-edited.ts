import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { onOrderEdited } from "../../../filing/handlers"

/**
 * order-edit.confirmed: void and refile before the cutoff, else refunds + an order of its own
 * (key = edit id).
 *
 * Writes: the edit on the order's record, then either a void and a new POST orders with the
 * order's lines now (before the cutoff), or refunds keyed by the edit id and the edit's own
 * record and service order.
 * No compensation: one step. The void-and-refile is itself made safe without one: the edit stays
 * pending (mode refile) until the new order is filed, so a failure between the void and the
 * refile is finished by the retry job (filing what Medusa charges now), never left voided.
 */
const step = createStep("sales-tax-order-edited-filing-step", async (input: { orderId: string }, { container }) => {
  return new StepResponse(await onOrderEdited(container, input.orderId))
})

export const orderEditedFilingWorkflow = createWorkflow("sales-tax-order-edited-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(step(input))
})
