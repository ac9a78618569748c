/**
 * Contract: nestedRunContext builds the context Medusa's runAsStep builds (the installed
 * @medusajs/workflows-sdk), and the engine still reads the keys that make the run nested.
 */
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { installedSource } from "./installed"
import { nestedRunContext, nestedWorkflowContextDifferences, runNested } from "./nested-workflow"

const createWorkflow = installedSource("@medusajs/workflows-sdk", "utils/composer/create-workflow.js")
const workflowExport = installedSource("@medusajs/workflows-sdk", "helper/workflow-export.js")

describe("contract: a workflow nested in a hook's step, as runAsStep nests it", () => {
  it("the installed runAsStep builds the same keys, and the engine reads parentStepIdempotencyKey and preventReleaseEvents", () => {
    expect(nestedWorkflowContextDifferences(createWorkflow, workflowExport)).toEqual([])
    expect(nestedWorkflowContextDifferences()).toEqual([])
  })

  it("a key added to runAsStep's context, or one the engine stops reading, is named", () => {
    const added = createWorkflow!.replace(
      "runId: stepContext.runId,",
      "runId: stepContext.runId,\n                lockOwner: stepContext.runId,",
    )
    expect(nestedWorkflowContextDifferences(added, workflowExport)).toEqual(["runAsStep's context sets lockOwner too"])
    const dropped = createWorkflow!.replace("preventReleaseEvents: true,\n                runId", "runId")
    expect(nestedWorkflowContextDifferences(dropped, workflowExport)).toEqual(["runAsStep's context lacks `preventReleaseEvents: true`"])
    const engine = workflowExport!.replace("parentStepIdempotencyKey, preventReleaseEvents,", "preventReleaseEvents,")
    expect(nestedWorkflowContextDifferences(createWorkflow, engine)).toEqual([
      "the workflow engine no longer reads parentStepIdempotencyKey",
    ])
  })

  it("nestedRunContext: the parent's context, a transaction id of its own, the step's idempotency key, the run id", () => {
    const step = { context: { eventGroupId: "eg_1" }, transactionId: "tx_1", idempotencyKey: "tx_1:step:invoke", runId: "run_1" }
    const ctx = nestedRunContext(step as unknown as StepExecutionContext)
    expect(ctx).toEqual({
      eventGroupId: "eg_1",
      transactionId: expect.stringMatching(/^tx_1-sales-tax-[0-9a-f-]{36}$/),
      parentStepIdempotencyKey: "tx_1:step:invoke",
      preventReleaseEvents: true,
      runId: "run_1",
    })
    expect(nestedRunContext(step as unknown as StepExecutionContext).transactionId).not.toBe(ctx.transactionId)
  })

  it("runNested runs the workflow on the step's container with that context", async () => {
    const runs: unknown[] = []
    const container = { id: "c" }
    const wf = (c: unknown) => ({ run: async (args: unknown) => void runs.push({ c, args }) })
    const step = { container, context: {}, transactionId: "tx", idempotencyKey: "k", runId: "r" } as unknown as StepExecutionContext
    await runNested(wf as never, step, { cart_id: "cart_1" })
    expect(runs).toEqual([
      {
        c: container,
        args: {
          input: { cart_id: "cart_1" },
          container,
          context: {
            transactionId: expect.stringMatching(/^tx-sales-tax-/),
            parentStepIdempotencyKey: "k",
            preventReleaseEvents: true,
            runId: "r",
          },
        },
      },
    ])
  })
})
