/**
 * Is this process the one that serves requests? (issue 30: the start-up warnings are logged by
 * `medusa start` / `medusa develop`, not by every CLI command.)
 *
 * Medusa loads a plugin's API routes and middlewares only in a process that serves HTTP: `medusa
 * start`, `develop`'s server, the integration-test runner; never in `medusa exec`, `db:migrate`,
 * `user`, nor in an instance in `worker` mode. The plugin's src/api/middlewares.ts marks the
 * process when Medusa loads it (before the modules' onApplicationStart hooks run), and the
 * start-up checks ask. Kept on globalThis: the API's and the modules' copies of this file may be
 * two module instances.
 */
const KEY = Symbol.for("medusa-sales-tax/serves-requests")
const G = globalThis as { [k: symbol]: unknown }

export function markServesRequests(): void {
  G[KEY] = true
}

export function servesRequests(): boolean {
  return G[KEY] === true
}
