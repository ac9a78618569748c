/**
 * Is this process the one that serves requests? (issue 30: the start-up warnings are logged by
 * `medusa start` / `medusa develop`, not by every CLI command.)
 *
 * Medusa loads a plugin's API routes and middlewares only in a process that serves HTTP: `medusa
 * start`, `develop`'s server, the integration-test runner; never in `medusa exec`, `db:migrate`,
 * `user`, nor in an instance in `worker` mode. The plugin's src/api/middlewares.ts marks the
 * process when Medusa loads it (before the modules' onApplicationStart hooks run), and the
 * start-up checks ask. Kept in the plugin's runtime (src/runtime.ts): the API's and the modules'
 * copies of this file may be two module instances, and the middlewares file has no container.
 */
import { salesTaxRuntime, type SalesTaxRuntime } from "../runtime"

export function markServesRequests(rt: SalesTaxRuntime = salesTaxRuntime()): void {
  rt.servesRequests = true
}

export function servesRequests(rt: SalesTaxRuntime = salesTaxRuntime()): boolean {
  return rt.servesRequests
}
