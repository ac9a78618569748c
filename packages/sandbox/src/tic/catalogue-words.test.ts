import { expandQuery, isKnownWord, searchTics, splitCompound, stemOf } from "."
import { CATEGORY_WORDS, INDEX_KEYWORDS, QUERY_EXPANSIONS } from "./synonyms"

const top3 = (q: string) => searchTics(q, 3).results.map((r) => r.ticId)
const CLOTHING = [20010, 20130, 92015, 90501]

describe("product names a merchant sells (issue 29)", () => {
  it('the official Medusa starter products and categories find clothing (were "No TIC matches": sweatpants, sweatshirt)', () => {
    for (const q of [
      "sweatpants",
      "sweatshirt",
      "Medusa Sweatpants",
      "Medusa Sweatshirt",
      "Medusa T-Shirt",
      "Medusa Shorts",
      "Pants",
      "Sweatshirts",
    ]) {
      expect({ q, hit: top3(q).some((id) => CLOTHING.includes(id)) }).toEqual({ q, hit: true })
    }
  })

  it("a compound garment word reads as its head: sweat|shorts, rain|coat, night|gown, bath|robe", () => {
    expect(splitCompound("sweatshort")).toEqual({ head: "short", modifier: "sweat" })
    expect(splitCompound("sweatshirt")).toEqual({ head: "shirt", modifier: "sweat" }) // two known words beat the longer "tshirt"
    expect(splitCompound("nightgown")).toEqual({ head: "gown", modifier: null })
    expect(splitCompound("snowpant")).toMatchObject({ head: "pant" })
    expect(splitCompound("qwxzzyblorf")).toBeNull()
    expect(splitCompound("pant")).toBeNull() // too short to hold two words
    for (const q of ["nightgowns", "snowpants", "bathrobes"])
      expect({ q, hit: top3(q).some((id) => CLOTHING.includes(id)) }).toEqual({ q, hit: true })
  })

  it("an inflected or derived word reads as its known stem (-ing, -ed, -er, doubled consonant)", () => {
    expect(stemOf("golfing")).toBe("golf")
    expect(stemOf("skier")).toBe("ski")
    expect(stemOf("drilling")).toBe("drill")
    expect(stemOf("padded")).toBe("pad")
    expect(stemOf("qwxzzying")).toBeNull()
    expect(expandQuery("hammered").get("hammer")).toBeCloseTo(0.8)
  })

  it("two-word product names land on the product, not on the word that qualifies it", () => {
    const q = expandQuery("tank top") // a top (clothing), not a fuel tank
    expect(q.get("clothing")).toBeCloseTo(0.9)
    expect(top3("tank top")[0]).toBe(20010)
    expect(top3("yoga mat")[0]).toBe(20040) // sport or recreational equipment
    expect(top3("yoga pants")[0]).toBe(20010)
    expect(top3("coffee beans")[0]).toBe(90408)
    expect(top3("bike repair")).toContain(91090)
  })

  it("colours, sizes and marketing words are never read as misspellings of known words", () => {
    expect(expandQuery("black").has("slack")).toBe(false)
    expect(top3("Medusa T-Shirt S / Black")[0]).toBe(20010)
    expect(top3("black beans")).not.toContain(20010)
    expect(expandQuery("what i sell").size).toBe(0)
  })

  it("foods, supplements, digital goods and services by their everyday names", () => {
    for (const [q, ok] of [
      ["pasta", [40030, 90012]],
      ["granola", [40030, 90012]],
      ["creatine", [40020]],
      ["probiotics", [40020]],
      ["online course", [31000, 31035, 31040, 31050]],
      ["font license", [31000, 30050, 30040]],
      ["consulting", [91000]],
      ["haircut", [91000]],
    ] as const) {
      expect({ q, hit: top3(q).some((id) => (ok as readonly number[]).includes(id)) }).toEqual({ q, hit: true })
    }
  })

  it("every category word is a known word, expands to its category's words, and is indexed on the category's TIC", () => {
    for (const c of CATEGORY_WORDS) {
      for (const w of c.words) {
        expect({ w, known: isKnownWord(w) }).toEqual({ w, known: true })
        for (const [words] of c.to)
          expect({ w, words, has: QUERY_EXPANSIONS[w]!.some(([x]) => x === words) }).toEqual({ w, words, has: true })
        if (c.tic !== undefined)
          expect({ w, tic: c.tic, indexed: INDEX_KEYWORDS[c.tic]!.includes(w) }).toEqual({ w, tic: c.tic, indexed: true })
      }
    }
    // the hand-kept entries stay as they were ("short" is ambiguous: 0.6)
    expect(QUERY_EXPANSIONS.short!.find(([x]) => x === "clothing")?.[1]).toBe(0.6)
  })
})
