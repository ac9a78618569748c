import fc from "fast-check"
import { FALLBACK_SCORE, correctSpelling, isKnownWord, knownWords, searchTics, tokenize } from "."
import { CATALOGUE_HELD_OUT_SET, DEV_SET, HELD_OUT_SET, type EvalQuery } from "./evaluation"
import { INDEX_KEYWORDS, QUERY_EXPANSIONS, STOP_WORDS } from "./synonyms"
import { allTics } from "."

/** Share of queries with an acceptable TIC in the top 3, and the misses (to read when it drops). */
function score(set: readonly EvalQuery[]): { share: number; misses: { query: string; top3: number[] }[] } {
  const misses: { query: string; top3: number[] }[] = []
  for (const e of set) {
    const top3 = searchTics(e.query, 3).results.map((r) => r.ticId)
    if (!top3.some((id) => e.acceptable.includes(id))) misses.push({ query: e.query, top3 })
  }
  return { share: (set.length - misses.length) / set.length, misses }
}

describe("TIC search evaluation (top 3)", () => {
  it("the sets are big enough, their queries distinct, every acceptable TIC in the catalogue", () => {
    expect(DEV_SET.length).toBeGreaterThanOrEqual(150)
    expect(HELD_OUT_SET.length).toBeGreaterThanOrEqual(30)
    expect(CATALOGUE_HELD_OUT_SET.length).toBeGreaterThanOrEqual(25)
    const all = [...DEV_SET, ...HELD_OUT_SET, ...CATALOGUE_HELD_OUT_SET]
    const queries = all.map((e) => e.query.toLowerCase())
    expect(new Set(queries).size).toBe(queries.length)
    const catalogue = new Set(allTics().map((t) => t.ticId))
    for (const e of all)
      for (const id of e.acceptable) expect({ query: e.query, id, known: catalogue.has(id) }).toEqual({ query: e.query, id, known: true })
  })

  it("development set: at least 97 % of the merchant queries have an acceptable TIC in the top 3", () => {
    const r = score(DEV_SET)
    // the misses are in the failure message
    expect({ share: r.share >= 0.97 ? ">= 0.97" : r.share, misses: r.misses }).toEqual({ share: ">= 0.97", misses: r.misses })
    expect(r.share).toBeGreaterThanOrEqual(0.97)
  })

  it("held-out set (never tuned on): at least 85 % in the top 3 (measured 85.3 % when written; 70.6 % before the tuning; 85.3 % again after the category words)", () => {
    const r = score(HELD_OUT_SET)
    expect({ share: r.share >= 0.85 ? ">= 0.85" : r.share, misses: r.misses.length }).toEqual({ share: ">= 0.85", misses: r.misses.length })
  })

  it("catalogue held-out set (product names written after the category words, never tuned on): at least 85 % (measured 89.3 %; 42.9 % before those rules)", () => {
    const r = score(CATALOGUE_HELD_OUT_SET)
    expect({ share: r.share >= 0.85 ? ">= 0.85" : r.share, misses: r.misses.length }).toEqual({ share: ">= 0.85", misses: r.misses.length })
  })
})

describe("never an empty result for a query with a known word", () => {
  it("every known word alone finds something, and every expansion lands on catalogue words", () => {
    const indexed = new Set<string>()
    for (const t of allTics()) for (const w of tokenize(t.label)) indexed.add(w)
    for (const words of Object.values(INDEX_KEYWORDS)) for (const w of tokenize(words.join(" "))) indexed.add(w)
    for (const [key, exps] of Object.entries(QUERY_EXPANSIONS)) {
      expect({ key, normalized: tokenize(key) }).toEqual({ key, normalized: [key] }) // keys are normalized terms
      for (const [words] of exps)
        for (const w of tokenize(words)) expect({ key, w, indexed: indexed.has(w) }).toEqual({ key, w, indexed: true })
    }
    const empty = [...knownWords()].filter((w) => searchTics(w, 1).results.length === 0)
    expect(empty).toEqual([])
  })

  it("property: known words mixed with conjunctions, stop words, unknown words, plurals and case never come back empty", () => {
    const known = [...knownWords()].filter((w) => w.length > 2)
    const filler = fc.constantFrom("and", "or", "&", "with", "for", "the", "my", "plus", "zzqx", "blorf", "a", "of", "some", "i sell")
    const word = fc.oneof(
      fc.constantFrom(...known),
      fc.constantFrom(...known).map((w) => w + "s"),
      fc.constantFrom(...known).map((w) => w.toUpperCase()),
    )
    fc.assert(
      fc.property(fc.array(filler, { maxLength: 4 }), word, fc.array(fc.oneof(filler, word), { maxLength: 4 }), (before, w, after) => {
        const query = [...before, w, ...after].join(" ")
        return searchTics(query, 3).results.length > 0
      }),
      { numRuns: 500 },
    )
  })

  it("two product kinds joined by a conjunction find both", () => {
    for (const [query, a, b] of [
      ["coffee and tea", 90408, 90409],
      ["beer & wine", 90300, 90300],
      ["shampoo or toothpaste", 96130, 96132],
      ["candy plus soda", 40010, 40050],
    ] as const) {
      const ids = searchTics(query, 10).results.map((r) => r.ticId)
      expect({ query, a: ids.includes(a), b: ids.includes(b) }).toEqual({ query, a: true, b: true })
    }
  })

  it("reads plurals (movies, scarves, batteries), common synonyms and misspellings as the known word", () => {
    expect(tokenize("movies scarves batteries boxes")).toEqual(["movie", "scarf", "battery", "box"])
    expect(correctSpelling("shampo")).toBe("shampoo")
    expect(correctSpelling("sneeker")).toBe("sneaker")
    expect(correctSpelling("vitamn")).toBe("vitamin")
    expect(correctSpelling("qwxzzy")).toBeNull()
    expect(isKnownWord("Sneakers")).toBe(true)
    expect(isKnownWord("zzqx")).toBe(false)
    expect(searchTics("sneekers", 3).results.map((r) => r.ticId)).toContain(92005)
    expect(searchTics("beer", 1).results[0]!.ticId).toBe(90300)
    expect(STOP_WORDS.has("and")).toBe(true)
  })

  it("a query with no known word (a brand, a product's name): never empty, the general-merchandise TIC 0 at a low score", () => {
    for (const q of ["qwxzzy blorf", "Rolleiflex", "White Plimsolls", "the thing"])
      expect([q, searchTics(q, 3).results.map((r) => [r.ticId, r.score])]).toEqual([q, [[0, FALLBACK_SCORE]]])
    // a query that finds something is not padded with it
    expect(searchTics("kids winter jacket", 3).results.some((r) => r.score === FALLBACK_SCORE && r.ticId === 0)).toBe(false)
  })
})
