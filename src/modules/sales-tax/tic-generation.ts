/**
 * A counter of TIC assignment changes in this process: the salesTax module bumps it whenever it
 * writes an assignment (setTic), and whoever keeps TICs (the tax-line hook's product TICs:
 * src/tics/product-tic-cache.ts) drops what it read under an older count. No imports:
 * the module and the hooks both load it without loading each other.
 */
const KEY = Symbol.for("medusa-sales-tax/tic-generation")
type Holder = { [KEY]?: number }

/** The current count (shared through globalThis, in case the plugin's files load twice). */
export function ticGeneration(): number {
  return (globalThis as Holder)[KEY] ?? 0
}

/** A TIC assignment changed. */
export function ticAssignmentsChanged(): void {
  const g = globalThis as Holder
  g[KEY] = (g[KEY] ?? 0) + 1
}
