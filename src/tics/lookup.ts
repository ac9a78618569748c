// TIC lookups of the admin routes: a TIC is known when the service's search for its number, or an
// admin's search here, returned it. Cached per (base URL, connection, TIC), concurrent lookups share
// one call, failures are not cached; the checkout client's short timeout, since an admin waits.
import { LRUCache } from "lru-cache"
import type { TicResult } from "../../packages/contract/src/index"
import { SalesTaxError, type SalesTaxClient } from "../service/client"
import { getCheckoutClient } from "../service/client-factory"
import type { MedusaContainer } from "@medusajs/framework/types"
import { getPluginOptions, type PluginOptions } from "../options"
import { runtimeSlot } from "../runtime"

export interface TicInfo {
  ticId: number
  /** null when the service does not know the code or cannot be asked */
  label: string | null
}

type Answer = { known: true; label: string } | { known: false }

/** `unverified`: the service could not be asked; the caller accepts the TIC and says so (TIC_UNVERIFIED_WARNING). */
export type TicLookup =
  | { status: "known"; ticId: number; label: string }
  | { status: "unknown"; ticId: number }
  | { status: "unverified"; ticId: number; reason: string }

export const TIC_UNVERIFIED_WARNING =
  "The Sales Tax Service could not be reached to check this TIC; it was saved unverified. Check it with the TIC search when the service is back."

const cacheOf = runtimeSlot(
  "ticLookups",
  () =>
    new LRUCache<string, Answer, SalesTaxClient>({
      max: 2000,
      ttl: 60 * 60 * 1000,
      fetchMethod: async (key, _stale, { context }) => {
        const ticId = Number(key.slice(key.lastIndexOf("|") + 1))
        const r = await context.searchTics({ query: String(ticId), limit: 10 })
        const hit = r.results.find((x) => x.ticId === ticId)
        return hit ? { known: true, label: hit.label } : { known: false }
      },
    }),
)

const keyOf = (o: PluginOptions, ticId: number) => `${o.baseUrl}|${o.connectionId}|${ticId}`

/** Looks one TIC up at the service (cached); other service failures throw as SalesTaxError. */
export async function lookupTic(options: PluginOptions, ticId: number): Promise<TicLookup> {
  let answer: Answer | undefined
  const key = keyOf(options, ticId)
  try {
    answer = await cacheOf().fetch(key, { context: getCheckoutClient(options) })
  } catch (e) {
    // the service could not answer (network, timeout, 429, 5xx): not a verdict on the TIC
    const down = e instanceof SalesTaxError && (e.code === "timeout" || e.code === "network" || e.status === 429 || (e.status ?? 0) >= 500)
    if (down) return { status: "unverified", ticId, reason: e.code === "http" ? `status ${e.status}` : e.code }
    // a search remembered this TIC while the lookup was in flight: lru-cache aborts the fetch it
    // replaces (Error "replaced"); the search's answer stands
    answer = cacheOf().get(key)
    if (!answer) throw e
  }
  if (!answer) return { status: "unverified", ticId, reason: "no answer" }
  return answer.known ? { status: "known", ticId, label: answer.label } : { status: "unknown", ticId }
}

/** Remembers the TICs a service search returned (an admin picks from them). */
export function rememberTics(options: PluginOptions, results: readonly TicResult[]): void {
  for (const r of results) cacheOf().set(keyOf(options, r.ticId), { known: true, label: r.label })
}

export async function ticInfo(scope: MedusaContainer, ticId: number): Promise<TicInfo> {
  const r = await lookupTic(getPluginOptions(scope), ticId).catch(() => null) // a display label never fails a page
  return { ticId, label: r?.status === "known" ? r.label : null }
}

/** For tests: forgets every cached answer. */
export function clearTicCache(): void {
  cacheOf().clear()
}
