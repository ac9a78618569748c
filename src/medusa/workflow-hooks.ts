/**
 * Registering a handler on a Medusa workflow hook without trusting that the workflow or the hook
 * exists: core-flows of older minors export fewer workflows (`upsertTaxLinesWorkflow` is not
 * exported in 2.15) and fewer hooks (`setTaxLineContext` ships in 2.16), and `X.hooks.Y` of
 * a missing one is a TypeError at import that stops Medusa's boot. Here a missing one is "absent"
 * (the boot check names it, and the plugin's fallback takes over); a refusal by Medusa (a host's
 * handler was there first) is "failed". Contract test: workflow-hooks.test.ts.
 */

export type HookRegistration = "registered" | "absent" | "failed"

/** Pure: whether `workflow` (anything an import of core-flows gave) has the hook `hook`. */
export function hasHook(workflow: unknown, hook: string): boolean {
  const hooks = (workflow as { hooks?: unknown } | null | undefined)?.hooks
  return typeof hooks === "object" && hooks !== null && typeof (hooks as Record<string, unknown>)[hook] === "function"
}

/**
 * Registers `handler` on `workflow.hooks[hook]` when both exist; never throws. `onFailed` hears
 * Medusa's error when it refused the handler.
 */
export function registerHook(
  workflow: unknown,
  hook: string,
  handler: (...args: never[]) => unknown,
  onFailed?: (e: Error) => void,
): HookRegistration {
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
