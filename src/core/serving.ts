// Whether this process serves requests (Medusa loads a plugin's API only there, never in `medusa exec`
// nor a worker): src/api/middlewares.ts marks it, so the start-up checks warn once, from there.
import { runtimeSlot, type SalesTaxRuntime } from "../runtime"

const serving = runtimeSlot("servesRequests", () => ({ on: false }))

export function markServesRequests(rt?: SalesTaxRuntime): void {
  serving(rt).on = true
}

export function servesRequests(rt?: SalesTaxRuntime): boolean {
  return serving(rt).on
}
