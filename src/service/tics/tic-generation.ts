// A counter of TIC assignment changes: the salesTax module bumps it on every write, and caches of TICs
// (src/service/tics/product-tic-cache.ts) drop what they read under an older count. In the runtime: the module
// and the hooks may be different module instances.
import { salesTaxRuntime, type SalesTaxRuntime } from "../../runtime"

export function ticGeneration(rt: SalesTaxRuntime = salesTaxRuntime()): number {
  return rt.ticGeneration
}

export function ticAssignmentsChanged(rt: SalesTaxRuntime = salesTaxRuntime()): void {
  rt.ticGeneration++
}
