// Unclassified products, Medusa side: those on the default TIC, their listings, a suggested TIC for
// each through the service's search, and the apply through the bulk import's job. The searches of
// one run: each distinct query once, from the cache or through `search` (four at a time), at most
// `ceiling` paid searches; the rest wait for a later run. A failure is not cached.
import { LRUCache } from "lru-cache"
import pLimit from "p-limit"
import { graph, type QueryScope } from "../../query"
import { getBackgroundClient } from "../../service/client-factory"
import type { PluginOptions } from "../../options"
import { runtimeSlot } from "../../runtime"
import { readProductTics, type ProductTicFields } from "../../service/tics/product-tics"
import { ancestry } from "../../service/tics/tic-resolution"
import { verdictsOf } from "../medusa"
import type { PlannedChange } from "../bulk"
import { productEvidence, type ProductListing } from "./evidence"
import { combineEvidence, HITS, type SearchHit, type Suggestion } from "./combine"

/** The products on the default TIC, oldest first. */
export async function unclassifiedIds(scope: QueryScope, defaultTic: number): Promise<{ ids: string[]; truncated: boolean }> {
  const { rows, truncated, tics } = await readProductTics<ProductTicFields>(scope, defaultTic)
  return { ids: rows.filter((r) => tics.get(r.id)?.source === "default").map((r) => r.id), truncated }
}

interface ListingRow {
  id: string
  title?: string | null
  handle?: string | null
  subtitle?: string | null
  description?: string | null
  type?: { value?: string | null } | null
  categories?: { id: string; name?: string | null; mpath?: string | null }[] | null
  collection?: { title?: string | null } | null
  tags?: { value?: string | null }[] | null
}

const CATEGORY_FIELDS = ["categories.id", "categories.name", "categories.mpath"]

/** The listings of `ids` in that order, each category as its path of names. */
async function readListings(scope: QueryScope, ids: readonly string[]): Promise<(ProductListing & { handle: string | null })[]> {
  if (!ids.length) return []
  const rows = await graph<ListingRow>(scope, {
    entity: "product",
    fields: ["id", "title", "handle", "subtitle", "description", "type.value", "collection.title", "tags.value", ...CATEGORY_FIELDS],
    filters: { id: [...ids] },
  })
  const wanted = [...new Set(rows.flatMap((r) => (r.categories ?? []).flatMap((c) => ancestry(c))))]
  const ancestors = { entity: "product_category", fields: ["id", "name"], filters: { id: wanted } }
  const found = wanted.length ? await graph<{ id: string; name?: string | null }>(scope, ancestors) : []
  const names = new Map(found.map((c) => [c.id, c.name ?? ""]))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids
    .flatMap((id) => byId.get(id) ?? [])
    .map((r) => ({
      id: r.id,
      title: r.title ?? null,
      handle: r.handle ?? null,
      subtitle: r.subtitle ?? null,
      description: r.description ?? null,
      type: r.type?.value ?? null,
      categories: (r.categories ?? []).map((c) => ancestry(c).map((a) => names.get(a) ?? (a === c.id ? (c.name ?? "") : ""))),
      collection: r.collection?.title ?? null,
      tags: (r.tags ?? []).flatMap((t) => (t.value ? [t.value] : [])),
    }))
}

/** Paid searches per run (a page of the list, or one "accept all"). */
export const SEARCH_CEILING = 100
const CONCURRENCY = 4

export type QueryCache = LRUCache<string, SearchHit[]>
export const queryCache = (max = 5000): QueryCache => new LRUCache({ max })

/** `notSearched`: past the ceiling. */
export type SearchRun = Awaited<ReturnType<typeof runSearches>>["run"]

export async function runSearches(
  queries: readonly string[],
  search: (query: string) => Promise<SearchHit[]>,
  cache: QueryCache,
  ceiling = SEARCH_CEILING,
) {
  const hits = new Map<string, SearchHit[]>()
  const run = { ceiling, searched: 0, cached: 0, notSearched: 0, failed: 0 }
  const toSearch: string[] = []
  for (const q of new Set(queries)) {
    const c = cache.get(q)
    if (c) {
      hits.set(q, c)
      run.cached++
    } else if (toSearch.length < ceiling) toSearch.push(q)
    else run.notSearched++
  }
  const limit = pLimit(CONCURRENCY)
  await Promise.all(
    toSearch.map((q) =>
      limit(async () => {
        run.searched++
        try {
          const found = await search(q)
          cache.set(q, found)
          hits.set(q, found)
        } catch {
          run.failed++
        }
      }),
    ),
  )
  return { hits, run }
}

const cachesOf = runtimeSlot("ticSearchCaches", () => new Map<string, QueryCache>())
/** One cache of search hits per service connection. */
function cacheFor(options: PluginOptions): QueryCache {
  const key = `${options.baseUrl}|${options.connectionId}`
  const caches = cachesOf()
  let c = caches.get(key)
  if (!c) caches.set(key, (c = queryCache()))
  return c
}

/** Suggestions for the products `ids` (one run of searches). */
export async function suggestFor(scope: QueryScope, options: PluginOptions, ids: readonly string[], ceiling = SEARCH_CEILING) {
  const listings = await readListings(scope, ids)
  const evidence = listings.map(productEvidence)
  const client = getBackgroundClient(options)
  const search = async (query: string): Promise<SearchHit[]> =>
    (await client.searchTics({ query, limit: HITS })).results.map((r) => ({ ticId: r.ticId, label: r.label, score: r.score }))
  const queries = evidence.flatMap((e) => e.map((x) => x.query))
  const { hits, run } = await runSearches(queries, search, cacheFor(options), ceiling)
  const unsearched = `not searched yet: this run's ceiling of ${ceiling} searches was reached, or a search failed; open the list again`
  const products = listings.map((l, i) => {
    const ev = evidence[i]!
    const base = { id: l.id, title: l.title, handle: l.handle, suggestion: null as Suggestion | null }
    if (!ev.length) return { ...base, note: "nothing to search: no title, type, category, collection or tags" }
    if (ev.some((e) => !hits.has(e.query))) return { ...base, note: unsearched }
    const suggestion = combineEvidence(ev, hits)
    return { ...base, suggestion, note: suggestion ? null : "the search found no TIC for its title, type or categories" }
  })
  return { products, searches: run }
}

export async function listUnclassified(scope: QueryScope, options: PluginOptions, offset: number, limit: number) {
  const { ids, truncated } = await unclassifiedIds(scope, options.defaultTic)
  const { products, searches } = await suggestFor(scope, options, ids.slice(offset, offset + limit))
  return { count: ids.length, truncated, offset, limit, products, searches }
}

/** Every suggestion at or above `minConfidence` as the bulk import's changes. */
export async function acceptedSuggestions(scope: QueryScope, options: PluginOptions, minConfidence: number) {
  const { ids } = await unclassifiedIds(scope, options.defaultTic)
  const { products, searches } = await suggestFor(scope, options, ids)
  const accepted = products.filter((p) => p.suggestion && p.suggestion.confidence >= minConfidence)
  return {
    changes: accepted.map((p, i) => change(i, p.id, p.suggestion!.tic)),
    below: products.filter((p) => p.suggestion && p.suggestion.confidence < minConfidence).length,
    without: products.filter((p) => !p.suggestion).length,
    searches,
  }
}

/** The admin's picks as the bulk import's changes; or, when any is refused, why each is. */
export async function pickedChanges(
  scope: QueryScope,
  options: PluginOptions,
  items: readonly { product_id: string; tic: number }[],
): Promise<{ changes: PlannedChange[] } | { errors: { location: string; message: string; value: unknown }[] }> {
  const open = new Set((await unclassifiedIds(scope, options.defaultTic)).ids)
  const tics = items.map((i) => i.tic)
  const verdicts = await verdictsOf(options, tics)
  const errors = items.flatMap((it, i): { location: string; message: string; value: unknown }[] => {
    if (!open.has(it.product_id)) {
      const message = "not a product on the default TIC (unknown, or already classified)"
      return [{ location: `body.items.${i}.product_id`, message, value: it.product_id }]
    }
    if (verdicts.get(it.tic) !== "unknown") return []
    return [{ location: `body.items.${i}.tic`, message: "the service does not know this TIC", value: it.tic }]
  })
  return errors.length ? { errors } : { changes: items.map((it, i) => change(i, it.product_id, it.tic)) }
}

function change(i: number, productId: string, tic: number): PlannedChange {
  return { row: i + 1, target: "product", targetId: productId, ref: productId, from: null, to: tic }
}
