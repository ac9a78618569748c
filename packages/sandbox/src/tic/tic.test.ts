import { TicSearchResponse } from "@medusa-sales-tax/contract"
import { FALLBACK_SCORE, InvalidCursorError, allTics, expandQuery, getTic, searchTics, ticGroups, ticsInGroup, tokenize } from "."

const top = (query: string, k = 3) => searchTics(query, k).results.map((r) => r.ticId)
const all = (query: string, pageSize: number) => {
  const pages: number[][] = []
  let cursor: string | undefined
  do {
    const r = searchTics(query, pageSize, cursor)
    pages.push(r.results.map((x) => x.ticId))
    cursor = r.nextCursor ?? undefined
  } while (cursor && pages.length < 100)
  return pages
}

describe("catalogue", () => {
  it("holds the 694 TICs of the shared catalogue, with unique ids", () => {
    const tics = allTics()
    expect(tics).toHaveLength(694)
    expect(new Set(tics.map((t) => t.ticId)).size).toBe(694)
    expect(getTic(20010)).toMatchObject({ ticId: 20010, label: "Clothing", groupId: 20000 })
    expect(getTic(11010)?.description).toBe("Transportation, shipping, postage, and similar charges")
    expect(getTic(0)).toMatchObject({ ticId: 0, label: "Uncategorized", groupId: 0 })
    expect(getTic(12345)).toBeUndefined()
  })
  it("cleans catalogue artefacts in labels but keeps the original description", () => {
    const t = getTic(61010)!
    expect(t.label).toBe("Interstate Telecommunications Service")
    expect(t.description).toContain("Appendix E")
  })
  it("returns copies (callers cannot corrupt the catalogue)", () => {
    const t = getTic(20010)!
    t.label = "changed"
    expect(getTic(20010)!.label).toBe("Clothing")
  })
  it("groups partition the catalogue and every group has a description", () => {
    const groups = ticGroups()
    const ids = new Set(groups.map((g) => g.groupId))
    for (const g of groups) expect(g.description.length).toBeGreaterThan(3)
    const members = groups.flatMap((g) => ticsInGroup(g.groupId))
    expect(members).toHaveLength(694)
    for (const t of allTics()) expect(ids.has(t.groupId)).toBe(true)
    expect(ticsInGroup(20000).map((t) => t.ticId)).toEqual(expect.arrayContaining([20000, 20010, 20130]))
    expect(groups.find((g) => g.groupId === 51000)?.description).toBe("Drugs/Pharmaceuticals")
    expect(ticsInGroup(424242)).toEqual([])
  })
})

describe("natural-language ranking", () => {
  it.each<[string, number[]]>([
    ["kids winter jacket", [20010, 20000, 20130, 92008, 92062]], // clothing, snow suits, children's clothing
    ["prescription insulin", [51060, 51020]],
    ["ebook", [31099, 31100, 31110, 31120]],
    ["shipping charge", [11010, 10001, 11011, 11013]],
  ])("%s -> a sensible TIC in the top 3", (query, sensible) => {
    const t = top(query)
    expect(t.some((id) => sensible.includes(id))).toBe(true)
  })
  it("puts the most specific TIC first for the four reference queries", () => {
    expect(top("prescription insulin", 1)).toEqual([51060]) // not 51050 "...without a prescription", not the animal one
    expect(top("ebook", 1)).toEqual([31099])
    expect(top("shipping charge", 1)).toEqual([11010])
    expect([92008, 92062, 20010]).toContain(top("kids winter jacket", 1)[0])
    expect(top("kids winter jacket")).not.toContain(20042) // life jackets are not clothing
  })
  it("understands negation: 'without a prescription' does not match 'prescription'", () => {
    expect(tokenize("Drugs for human use without a prescription")).toEqual(["drug", "human", "nonprescription"])
    const rx = searchTics("prescription drugs", 5).results.map((r) => r.ticId)
    expect(rx).toContain(51020)
    expect(rx.indexOf(51020)).toBeLessThan(rx.indexOf(51010) === -1 ? Infinity : rx.indexOf(51010))
  })
  it("folds case, accents and plurals the same way for the catalogue and the query", () => {
    expect(tokenize("Crème BRÛLÉE")).toEqual(["creme", "brulee"])
    expect(tokenize("Jackets, Charges & Children's e-books")).toEqual(["jacket", "charge", "child", "ebook"])
    expect(top("SHIPPING CHARGES", 1)).toEqual(top("shipping charge", 1))
  })
  it("expansions weigh less than the words typed", () => {
    const q = expandQuery("ebook")
    expect(q.get("ebook")).toBe(1)
    expect(q.get("digital")).toBeLessThan(1)
    expect(q.get("book")).toBeLessThan(1)
  })
  it("a TIC number finds that TIC first", () => {
    expect(searchTics("51020", 3).results[0]).toMatchObject({ ticId: 51020, rank: 1, score: 1 })
  })
  it("scores are in 0..1 (best = 1), non-increasing, and ranks are 1-based", () => {
    const r = searchTics("food", 50).results
    expect(r.length).toBeGreaterThan(5)
    expect(r[0].score).toBe(1)
    r.forEach((x, i) => {
      expect(x.rank).toBe(i + 1)
      expect(x.score).toBeGreaterThan(0)
      expect(x.score).toBeLessThanOrEqual(1)
      if (i > 0) expect(x.score).toBeLessThanOrEqual(r[i - 1].score)
    })
  })
  it("a query that matches nothing answers the general-merchandise fallback alone, and no cursor", () => {
    for (const q of ["qwxzzy", "the of and"])
      expect(searchTics(q, 10)).toEqual({
        results: [{ ticId: 0, label: "Uncategorized", description: "Uncategorized", score: FALLBACK_SCORE, rank: 1 }],
        nextCursor: null,
      })
    expect(searchTics("   !!! ", 10)).toEqual({ results: [], nextCursor: null }) // no word at all
  })
  it("answers match the wire contract", () => {
    const r = searchTics("shipping", 5)
    expect(() => TicSearchResponse.parse({ query: "shipping", ...r })).not.toThrow()
  })
})

describe("limit and cursor paging", () => {
  it("returns at most limit results; limits outside 1..100 are clamped", () => {
    expect(searchTics("prescription", 1).results).toHaveLength(1)
    expect(searchTics("prescription", 7).results).toHaveLength(7)
    expect(searchTics("prescription", 100).results).toHaveLength(100)
    expect(searchTics("prescription", 0).results).toHaveLength(1)
    expect(searchTics("prescription", 1000).results).toHaveLength(100)
  })
  it("pages do not overlap and their concatenation equals one big page", () => {
    const big = searchTics("software", 100)
    expect(big.nextCursor).toBeNull()
    const pages = all("software", 7)
    expect(pages.length).toBeGreaterThan(2)
    const flat = pages.flat()
    expect(new Set(flat).size).toBe(flat.length)
    expect(flat).toEqual(big.results.map((r) => r.ticId))
  })
  it("ranks continue across pages and the last page has no cursor", () => {
    const p1 = searchTics("prescription", 50)
    const p2 = searchTics("prescription", 50, p1.nextCursor!)
    expect(p2.results[0].rank).toBe(51)
    const p3 = searchTics("prescription", 50, p2.nextCursor!)
    expect(p3.nextCursor).toBeNull()
    const total = p1.results.length + p2.results.length + p3.results.length
    expect(p3.results[p3.results.length - 1].rank).toBe(total)
    // more results than one maximal page: paging reaches them all without repeats
    const ids = [...p1.results, ...p2.results, ...p3.results].map((r) => r.ticId)
    expect(total).toBeGreaterThan(100)
    expect(new Set(ids).size).toBe(total)
  })
  it("the page size may change between pages", () => {
    const p1 = searchTics("software", 5)
    const p2 = searchTics("software", 10, p1.nextCursor!)
    expect(p2.results.map((r) => r.ticId)).toEqual(
      searchTics("software", 15)
        .results.slice(5)
        .map((r) => r.ticId),
    )
  })
  it("rejects garbage cursors and cursors of another query", () => {
    const c = searchTics("software", 5).nextCursor!
    expect(() => searchTics("clothing", 5, c)).toThrow(InvalidCursorError)
    for (const bad of [
      "!!!",
      "garbage",
      Buffer.from('{"v":1}').toString("base64url"),
      Buffer.from(JSON.stringify({ v: 1, o: -3, q: "x" })).toString("base64url"),
      c.slice(0, -2),
    ]) {
      expect(() => searchTics("software", 5, bad)).toThrow(InvalidCursorError)
    }
    // a forged cursor past the end
    const forged = JSON.parse(Buffer.from(c, "base64url").toString())
    forged.o = 10_000
    expect(() => searchTics("software", 5, Buffer.from(JSON.stringify(forged)).toString("base64url"))).toThrow(InvalidCursorError)
  })
  it("is deterministic", () => {
    expect(searchTics("kids winter jacket", 20)).toEqual(searchTics("kids winter jacket", 20))
  })
})
