/**
 * BOUNDARY: a workflow run as a child of the step that runs it, from inside a hook handler.
 *
 * Assumes: Medusa's `runAsStep` (@medusajs/workflows-sdk, utils/composer/create-workflow.js) runs a
 * workflow inside a parent step with the execution context built here (the parent's context, a
 * transaction id of its own, `parentStepIdempotencyKey` = the step's idempotency key,
 * `preventReleaseEvents`, the parent's `runId`), and the workflow engine (helper/workflow-export.js)
 * reads `parentStepIdempotencyKey` and `preventReleaseEvents` from it. `runAsStep` itself can only
 * be called while a workflow is being composed, not from a hook's handler, so the context is built
 * here as Medusa builds it.
 *
 * Buys: the refresh hook (src/workflows/hooks/cart-refresh-tax.ts) can run updateTaxLinesWorkflow
 * inside Medusa's cart refresh when the plugin cannot do that work as module calls (a host's own
 * setTaxLineContext handler, or the boot check turned the direct run off): the tax lines are set
 * before Medusa refreshes the payment collection and inside the refresh's lock, as the workflow's
 * nested run does not take the cart's lock again, and its events are released with the parent's.
 * Without it the after-route refresh (src/checkout/store/tax-resync.ts) does the same work: one
 * updateTaxLinesWorkflow run, one payment-collection refresh and one cart read more per store cart
 * mutation, only in those apps.
 *
 * Contract test: nested-workflow.test.ts (the keys runAsStep builds, and that the engine reads them).
 * Boot check: boot-check.ts (`nestedWorkflowContextMatchesInstalled`); when it fails, the refresh
 * hook leaves such carts to the after-route refresh (`nestedRunOn()` false).
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { installedSource } from "./installed"
import { setSwitch, switchOn } from "./switches"

/** The execution context of a nested run, as runAsStep builds it. Pure. */
export function nestedRunContext(step: Pick<StepExecutionContext, "context" | "transactionId" | "idempotencyKey" | "runId">) {
  return {
    ...(step.context ?? {}),
    transactionId: `${step.transactionId}-sales-tax-${randomUUID()}`,
    parentStepIdempotencyKey: step.idempotencyKey,
    preventReleaseEvents: true,
    runId: step.runId,
  }
}

/** The keys nestedRunContext sets, each with how runAsStep (create-workflow.js) writes it. */
export const RUN_AS_STEP_CONTEXT_LINES = [
  "...(sharedContext?.context ?? {})",
  "transactionId: buildTransactionId(step, stepContext)",
  "parentStepIdempotencyKey: stepContext.idempotencyKey",
  "preventReleaseEvents: true",
  "runId: stepContext.runId",
] as const

/** What the workflow engine (workflow-export.js) takes from a run's context. */
export const ENGINE_READS = ["parentStepIdempotencyKey", "preventReleaseEvents"] as const

/**
 * What differs from the assumption in the installed workflows-sdk (create-workflow.js's runAsStep,
 * workflow-export.js's run); empty: it holds. Pure over the two sources.
 */
export function nestedWorkflowContextDifferences(createWorkflow: string | undefined, workflowExport: string | undefined): string[] {
  if (!createWorkflow || !workflowExport) return ["@medusajs/workflows-sdk's create-workflow.js or workflow-export.js not found"]
  const out: string[] = []
  const asStep = createWorkflow.slice(createWorkflow.indexOf("runAsStep"))
  const ctx = /const executionContext = \{([^}]*\}[^}]*)\}/.exec(asStep)?.[1]?.replace(/\s+/g, " ") ?? ""
  for (const line of RUN_AS_STEP_CONTEXT_LINES) if (!ctx.includes(line)) out.push(`runAsStep's context lacks \`${line}\``)
  const keys = [...ctx.matchAll(/(?:^|,)\s*([A-Za-z_$][\w$]*)\s*:/g)].map((m) => m[1]!)
  for (const k of keys) if (!RUN_AS_STEP_CONTEXT_LINES.some((l) => l.startsWith(`${k}:`))) out.push(`runAsStep's context sets ${k} too`)
  const reads = /const \{([^}]*)\} = context;/.exec(workflowExport)?.[1] ?? ""
  for (const k of ENGINE_READS) if (!reads.includes(k)) out.push(`the workflow engine no longer reads ${k}`)
  return out
}

/** nestedWorkflowContextDifferences of the app's installed workflows-sdk. */
export function nestedWorkflowContextMatchesInstalled(): string[] {
  return nestedWorkflowContextDifferences(
    installedSource("@medusajs/workflows-sdk", "utils/composer/create-workflow.js"),
    installedSource("@medusajs/workflows-sdk", "helper/workflow-export.js"),
  )
}

/** Whether the refresh hook may run a workflow nested in its step (false once the boot check found runAsStep changed). */
export const nestedRunOn = (): boolean => switchOn("nestedRun")
export const setNestedRun = (on: boolean): void => setSwitch("nestedRun", on)

interface RunnableWorkflow<I> {
  (container: MedusaContainer): { run(args: { input: I; container: MedusaContainer; context: Record<string, unknown> }): Promise<unknown> }
}

/** Runs `workflow` as a child of the hook's step (see the file's comment). */
export async function runNested<I>(workflow: RunnableWorkflow<I>, step: StepExecutionContext, input: I): Promise<void> {
  await workflow(step.container).run({ input, container: step.container, context: nestedRunContext(step) })
}
