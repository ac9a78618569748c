// The tax-line hook's product → TIC answers, kept briefly across cart changes. Dropped when a TIC is
// written in this process (a count of changes, in the runtime: the salesTax module and the hooks may be
// different module instances); the time bound covers another instance's change and a product moved.
import { LRUCache } from "lru-cache"
import { resolveProductTics } from "./product-tics"
import type { QueryScope } from "../../query"
import type { ProductTic } from "./tic-resolution"
import { runtimeOf, runtimeSlot, salesTaxRuntime, type SalesTaxRuntime } from "../../runtime"

export const PRODUCT_TIC_TTL_MS = 60_000

/** Read under one default TIC and one count of TIC assignment changes; `null`: Medusa has no such product. */
type Entry = { defaultTic: number; generation: number; value: ProductTic | null }

const cacheOf = runtimeSlot("productTics", () => new LRUCache<string, Entry>({ max: 5000, ttl: PRODUCT_TIC_TTL_MS }))

export function ticGeneration(rt: SalesTaxRuntime = salesTaxRuntime()): number {
  return rt.ticGeneration
}

export function ticAssignmentsChanged(rt: SalesTaxRuntime = salesTaxRuntime()): void {
  rt.ticGeneration++
}

/** resolveProductTics through the cache: only products not known are read. */
export async function cachedProductTics(
  scope: QueryScope,
  productIds: readonly string[],
  defaultTic: number,
): Promise<Map<string, ProductTic>> {
  const out = new Map<string, ProductTic>()
  const missing: string[] = []
  const rt = runtimeOf(scope)
  const generation = ticGeneration(rt)
  const cache = cacheOf(rt)
  for (const id of new Set(productIds)) {
    if (!id) continue
    const hit = cache.get(id)
    if (hit && hit.defaultTic === defaultTic && hit.generation === generation) {
      if (hit.value) out.set(id, hit.value)
    } else missing.push(id)
  }
  if (!missing.length) return out
  const read = await resolveProductTics(scope, missing, defaultTic)
  // a TIC assignment written while this read ran: the read is used once, not kept
  const keep = ticGeneration(rt) === generation
  for (const id of missing) {
    const value = read.get(id) ?? null
    if (value) out.set(id, value)
    if (keep) cache.set(id, { defaultTic, generation, value })
  }
  return out
}
