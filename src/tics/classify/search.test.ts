import { queryCache, runSearches } from "./medusa"

const hit = (ticId: number) => [{ ticId, label: `TIC ${ticId}`, score: 1 }]

describe("runSearches", () => {
  it("one search per distinct query, the cache answers the next run, and the ceiling leaves the rest for later", async () => {
    const asked: string[] = []
    const search = async (q: string) => (asked.push(q), hit(q.length))
    const cache = queryCache()
    const first = await runSearches(["pants", "shirts", "pants", "mugs"], search, cache, 2)
    expect(asked).toEqual(["pants", "shirts"])
    expect(first.run).toEqual({ ceiling: 2, searched: 2, cached: 0, notSearched: 1, failed: 0 })
    expect([...first.hits.keys()]).toEqual(["pants", "shirts"])
    const second = await runSearches(["pants", "shirts", "mugs"], search, cache, 2)
    expect(asked).toEqual(["pants", "shirts", "mugs"])
    expect(second.run).toEqual({ ceiling: 2, searched: 1, cached: 2, notSearched: 0, failed: 0 })
  })

  it("a failed search is counted and not cached: the next run asks again", async () => {
    let fail = true
    const cache = queryCache()
    const search = async (q: string) => {
      if (fail) throw new Error("503")
      return hit(q.length)
    }
    expect((await runSearches(["pants"], search, cache)).run).toMatchObject({ searched: 1, failed: 1 })
    fail = false
    const again = await runSearches(["pants"], search, cache)
    expect(again.run).toMatchObject({ searched: 1, failed: 0, cached: 0 })
    expect(again.hits.get("pants")).toEqual(hit(5))
  })

  it("the cache is bounded: the least recently used query leaves first", () => {
    const cache = queryCache(2)
    cache.set("a", hit(1))
    cache.set("b", hit(2))
    cache.set("c", hit(3))
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, hit(2), hit(3)])
  })
})
