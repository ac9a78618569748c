/**
 * BOUNDARY: a workflow run from a hook handler as a child of its step (runAsStep only works while
 * composing). Assumes: runAsStep builds the child's context as nestedRunContext and the engine reads
 * ENGINE_READS. Buys: with a host's setTaxLineContext handler, tax inside the cart refresh's lock.
 * Contract test: nested-workflow.test.ts. Boot check: off (`nestedRunOn()`) when it differs.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { StepExecutionContext } from "@medusajs/framework/workflows-sdk"
import { installedSource } from "./installed"
import { setSwitch, switchOn } from "./switches"

/** Pure: the execution context of a nested run, as runAsStep builds it. */
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

export function nestedWorkflowContextDifferences(
  createWorkflow: string | undefined = installedSource("@medusajs/workflows-sdk", "utils/composer/create-workflow.js"),
  workflowExport: string | undefined = installedSource("@medusajs/workflows-sdk", "helper/workflow-export.js"),
): string[] {
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

export const nestedRunOn = (): boolean => switchOn("nestedRun")
export const setNestedRun = (on: boolean): void => setSwitch("nestedRun", on)

interface RunnableWorkflow<I> {
  (container: MedusaContainer): { run(args: { input: I; container: MedusaContainer; context: Record<string, unknown> }): Promise<unknown> }
}

export async function runNested<I>(workflow: RunnableWorkflow<I>, step: StepExecutionContext, input: I): Promise<void> {
  await workflow(step.container).run({ input, container: step.container, context: nestedRunContext(step) })
}
