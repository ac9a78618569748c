/**
 * A counter of TIC assignment changes in this process: the salesTax module bumps it whenever it
 * writes an assignment (setTic), and whoever keeps TICs (the tax-line hook's product TICs:
 * src/tics/product-tic-cache.ts) drops what it read under an older count. The count lives in the
 * plugin's runtime (src/runtime.ts): the module and the hooks may be different module instances.
 */
import { salesTaxRuntime, type SalesTaxRuntime } from "../../runtime"

/** The current count. */
export function ticGeneration(rt: SalesTaxRuntime = salesTaxRuntime()): number {
  return rt.ticGeneration
}

/** A TIC assignment changed. */
export function ticAssignmentsChanged(rt: SalesTaxRuntime = salesTaxRuntime()): void {
  rt.ticGeneration++
}
