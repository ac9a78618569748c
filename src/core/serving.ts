// Whether this process serves requests: Medusa loads a plugin's API only there (never in `medusa
// exec`, `db:migrate` nor a worker), so src/api/middlewares.ts marks it and the start-up checks
// log their warnings once, from that process.
import { runtimeSlot, type SalesTaxRuntime } from "../runtime"

const serving = runtimeSlot("servesRequests", () => ({ on: false }))

export function markServesRequests(rt?: SalesTaxRuntime): void {
  serving(rt).on = true
}

export function servesRequests(rt?: SalesTaxRuntime): boolean {
  return serving(rt).on
}
