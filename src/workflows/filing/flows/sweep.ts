import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { sweepOrders } from "../../../filing/handlers"

/**
 * The lost-event sweep: orders of the last days with no record, or a Medusa fact their records
 * miss.
 *
 * Writes: for each such order, what the lost events would have written (sync-order, order-edited,
 * return-received, claim-created, exchange-created, file-credit).
 * No compensation: one step over independent orders, each brought in line through the same keyed
 * handlers (a sweep racing a late event files nothing twice); undoing one order's filing because
 * another failed would un-file real sales.
 */
const step = createStep("sales-tax-sweep-filings-step", async (input: { days?: number }, { container }) => {
  return new StepResponse(await sweepOrders(container, { days: input.days }))
})

export const sweepFilingsWorkflow = createWorkflow("sales-tax-sweep-filings", (input: { days?: number }) => {
  return new WorkflowResponse(step(input))
})
