/**
 * Unclassified products, Medusa side: the products on the default TIC, their listings, a suggested
 * TIC for each through the service's TIC search (./search.ts), and the apply through the bulk TIC
 * path (startTicImport).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { graph, type QueryScope } from "../../query"
import { getBackgroundClient } from "../../service/client-factory"
import type { PluginOptions } from "../../options"
import { runtimeSlot } from "../../runtime"
import {
  PRODUCT_TIC_FIELDS,
  productTicRow,
  readProducts,
  resolveLoadedProductTics,
  type ProductTicFields,
} from "../../service/tics/product-tics"
import { ancestry } from "../../service/tics/tic-resolution"
import { startTicImport, verdictsOf, type TicImportJob } from "../medusa"
import type { PlannedChange } from "../bulk"
import { productEvidence, type ProductListing } from "./evidence"
import { combineEvidence, type SearchHit, type Suggestion } from "./combine"
import { HITS, queryCache, SEARCH_CEILING, runSearches, type QueryCache, type SearchRun } from "./search"

export interface UnclassifiedProduct {
  id: string
  title: string | null
  handle: string | null
  suggestion: Suggestion | null
  /** why there is no suggestion */
  note: string | null
}

/** The products on the default TIC, oldest first. */
export async function unclassifiedIds(scope: QueryScope, defaultTic: number): Promise<{ ids: string[]; truncated: boolean }> {
  const { rows, truncated } = await readProducts<ProductTicFields>(scope, PRODUCT_TIC_FIELDS)
  const tics = await resolveLoadedProductTics(scope, rows.map(productTicRow), defaultTic)
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

/** The listings of `ids` (in that order), each category as its path of names. */
async function readListings(scope: QueryScope, ids: readonly string[]): Promise<(ProductListing & { handle: string | null })[]> {
  if (!ids.length) return []
  const rows = await graph<ListingRow>(scope, {
    entity: "product",
    fields: [
      "id",
      "title",
      "handle",
      "subtitle",
      "description",
      "type.value",
      "categories.id",
      "categories.name",
      "categories.mpath",
      "collection.title",
      "tags.value",
    ],
    filters: { id: [...ids] },
  })
  const chains = rows.flatMap((r) => (r.categories ?? []).map((c) => ancestry({ id: c.id, mpath: c.mpath ?? null })))
  const names = new Map<string, string>()
  const wanted = [...new Set(chains.flat())]
  if (wanted.length)
    for (const c of await graph<{ id: string; name?: string | null }>(scope, {
      entity: "product_category",
      fields: ["id", "name"],
      filters: { id: wanted },
    }))
      names.set(c.id, c.name ?? "")
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => {
    const r = byId.get(id)
    if (!r) return []
    return [
      {
        id: r.id,
        title: r.title ?? null,
        handle: r.handle ?? null,
        subtitle: r.subtitle ?? null,
        description: r.description ?? null,
        type: r.type?.value ?? null,
        categories: (r.categories ?? []).map((c) =>
          ancestry({ id: c.id, mpath: c.mpath ?? null }).map((a) => names.get(a) ?? (a === c.id ? (c.name ?? "") : "")),
        ),
        collection: r.collection?.title ?? null,
        tags: (r.tags ?? []).flatMap((t) => (t.value ? [t.value] : [])),
      },
    ]
  })
}

const cachesOf = runtimeSlot("ticSearchCaches", () => new Map<string, QueryCache>())
/** The process's cache of search hits for the connection of `options`. */
function cacheFor(options: PluginOptions): QueryCache {
  const key = `${options.baseUrl}|${options.connectionId}`
  const caches = cachesOf()
  let c = caches.get(key)
  if (!c) caches.set(key, (c = queryCache()))
  return c
}

/** Suggestions for the products `ids` (one run: at most `ceiling` paid searches). */
export async function suggestFor(
  scope: QueryScope,
  options: PluginOptions,
  ids: readonly string[],
  ceiling = SEARCH_CEILING,
): Promise<{ products: UnclassifiedProduct[]; searches: SearchRun }> {
  const listings = await readListings(scope, ids)
  const evidence = listings.map(productEvidence)
  const client = getBackgroundClient(options)
  const search = async (query: string): Promise<SearchHit[]> =>
    (await client.searchTics({ query, limit: HITS })).results.map((r) => ({ ticId: r.ticId, label: r.label, score: r.score }))
  const { hits, run } = await runSearches(
    evidence.flatMap((e) => e.map((x) => x.query)),
    search,
    cacheFor(options),
    ceiling,
  )
  const products = listings.map((l, i) => {
    const ev = evidence[i]!
    const base = { id: l.id, title: l.title, handle: l.handle }
    if (!ev.length) return { ...base, suggestion: null, note: "nothing to search: no title, type, category, collection or tags" }
    if (ev.some((e) => !hits.has(e.query)))
      return {
        ...base,
        suggestion: null,
        note: `not searched yet: this run's ceiling of ${ceiling} searches was reached, or a search failed; open the list again`,
      }
    const suggestion = combineEvidence(ev, hits)
    return { ...base, suggestion, note: suggestion ? null : "the search found no TIC for its title, type or categories" }
  })
  return { products, searches: run }
}

/** The list's page: the unclassified products `offset`…`offset + limit` with their suggestions. */
export async function listUnclassified(scope: QueryScope, options: PluginOptions, offset: number, limit: number) {
  const { ids, truncated } = await unclassifiedIds(scope, options.defaultTic)
  const { products, searches } = await suggestFor(scope, options, ids.slice(offset, offset + limit))
  return { count: ids.length, truncated, offset, limit, products, searches }
}

/** Every suggestion at or above `minConfidence` (one run over all unclassified products) as the bulk path's changes. */
export async function acceptedSuggestions(
  scope: QueryScope,
  options: PluginOptions,
  minConfidence: number,
): Promise<{ changes: PlannedChange[]; below: number; without: number; searches: SearchRun }> {
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

/** The admin's picks as the bulk path's changes; or, when any is refused, why each is (none is applied). */
export async function pickedChanges(
  scope: QueryScope,
  options: PluginOptions,
  items: readonly { product_id: string; tic: number }[],
): Promise<{ changes: PlannedChange[] } | { errors: { location: string; message: string; value: unknown }[] }> {
  const open = new Set((await unclassifiedIds(scope, options.defaultTic)).ids)
  const verdicts = await verdictsOf(
    options,
    items.map((i) => i.tic),
  )
  const errors = items.flatMap((it, i): { location: string; message: string; value: unknown }[] =>
    !open.has(it.product_id)
      ? [
          {
            location: `body.items.${i}.product_id`,
            message: "not a product on the default TIC (unknown, or already classified)",
            value: it.product_id,
          },
        ]
      : verdicts.get(it.tic) === "unknown"
        ? [{ location: `body.items.${i}.tic`, message: "the service does not know this TIC", value: it.tic }]
        : [],
  )
  return errors.length ? { errors } : { changes: items.map((it, i) => change(i, it.product_id, it.tic)) }
}

/** A product's TIC as the bulk path's change (from: none, the product was on the default). */
function change(i: number, productId: string, tic: number): PlannedChange {
  return { row: i + 1, target: "product", targetId: productId, ref: productId, from: null, to: tic }
}

/** Applies the changes through the bulk path (one transaction, in the background): the job, or null while another import runs. */
export async function applyChanges(container: MedusaContainer, changes: readonly PlannedChange[]): Promise<TicImportJob | null> {
  const started = await startTicImport(container, changes)
  return started.ok ? started.job : null
}
