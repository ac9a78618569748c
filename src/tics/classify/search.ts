// The searches of one run: each distinct query once, from the cache or through `search` (four at a
// time), at most `ceiling` paid searches; the rest wait for a later run. A failure is not cached.
import { LRUCache } from "lru-cache"
import pLimit from "p-limit"
import type { SearchHit } from "./combine"

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
