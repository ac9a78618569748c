/**
 * Registering a workflow hook handler without trusting the workflow or hook exists (older core-flows lack
 * some, and `X.hooks.Y` of a missing one is a TypeError at import): missing is "absent" (the boot check
 * names it), refused by Medusa is "failed". Contract test: workflow-hooks.test.ts.
 */

/** Pure: whether `workflow` (anything an import of core-flows gave) has the hook `hook`. */
export function hasHook(workflow: unknown, hook: string): boolean {
  const hooks = (workflow as { hooks?: unknown } | null | undefined)?.hooks
  return typeof hooks === "object" && hooks !== null && typeof (hooks as Record<string, unknown>)[hook] === "function"
}

/** Registers `handler` on `workflow.hooks[hook]` when both exist; never throws (`onFailed` hears a refusal). */
export function registerHook(
  workflow: unknown,
  hook: string,
  handler: (...args: never[]) => unknown,
  onFailed?: (e: Error) => void,
): "registered" | "absent" | "failed" {
  if (!hasHook(workflow, hook)) return "absent"
  try {
    const hooks = (workflow as { hooks: Record<string, (h: unknown) => unknown> }).hooks
    hooks[hook]!(handler)
    return "registered"
  } catch (e) {
    onFailed?.(e instanceof Error ? e : new Error(String(e)))
    return "failed"
  }
}
