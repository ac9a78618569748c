import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { syncOrder } from "../../../filing/handlers"

/**
 * order.placed / order.canceled / order.fulfillment_created (and the retry of a whole order):
 * file, complete, cancel as Medusa says.
 *
 * Writes: the order's filing records (ensure, then the outcome of each call) and, at the service,
 * POST orders or carts → order (orderId = the Medusa order id), PATCH completedDate, and on
 * cancellation a void (or, after the cutoff, a refund keyed `cancel:<order id>`).
 * No compensation: this workflow is its one step (Medusa compensates only steps that completed
 * before a later one failed), and undoing it would be wrong: a void would un-file a sale Medusa
 * still holds as placed. Running it again is harmless (ids and keys from Medusa ids; a crash
 * between a call and its record write is reconciled by asking the service first), and a failed
 * call is kept on the record (state failed, next_attempt_at) for the retry job, not thrown.
 */
const step = createStep("sales-tax-sync-order-filing-step", async (input: { orderId: string }, { container }) => {
  return new StepResponse(await syncOrder(container, input.orderId))
})

export const syncOrderFilingWorkflow = createWorkflow("sales-tax-sync-order-filing", (input: { orderId: string }) => {
  return new WorkflowResponse(step(input))
})
