/**
 * Is this process the one that serves requests? Medusa loads a plugin's API only in a process that
 * serves HTTP (`medusa start`, `develop`'s server, the test runner), never in `medusa exec`,
 * `db:migrate` nor a worker: the plugin's src/api/middlewares.ts marks the process when Medusa loads
 * it, and the start-up checks ask, so their warnings are logged by the serving process only.
 */
import { runtimeSlot, type SalesTaxRuntime } from "../runtime"

const serving = runtimeSlot("servesRequests", () => ({ on: false }))

export function markServesRequests(rt?: SalesTaxRuntime): void {
  serving(rt).on = true
}

export function servesRequests(rt?: SalesTaxRuntime): boolean {
  return serving(rt).on
}
