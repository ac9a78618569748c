import { LOW_CONFIDENCE, combineEvidence, sameKind, type SearchHit } from "./combine"
import type { Evidence } from "./evidence"

// hits as the sandbox's search answers these queries (top 3)
const HITS: Record<string, SearchHit[]> = {
  "medusa sweatpants": [
    { ticId: 92015, label: "Athletic clothing", score: 1 },
    { ticId: 20010, label: "Clothing", score: 0.7942 },
    { ticId: 20000, label: "Clothing", score: 0.3084 },
  ],
  pants: [
    { ticId: 20010, label: "Clothing", score: 1 },
    { ticId: 20000, label: "Clothing", score: 0.3493 },
    { ticId: 20050, label: "Fur clothing", score: 0.3194 },
  ],
  // the sandbox's fallback for words it does not know (a brand)
  rolleiflex: [{ ticId: 0, label: "Uncategorized", score: 0.05 }],
  beanie: [
    { ticId: 20010, label: "Clothing", score: 1 },
    { ticId: 20020, label: "Clothing accessories or equipment", score: 0.9 },
    { ticId: 92015, label: "Athletic clothing", score: 0.85 },
  ],
  "gift card": [
    { ticId: 10005, label: "Gift card", score: 1 },
    { ticId: 10011, label: "Credit card processing or transaction fee", score: 0.2308 },
    { ticId: 91110, label: "Gift wrapping services, optional", score: 0.1715 },
  ],
  "coffee beans": [
    { ticId: 40030, label: "Food and food ingredients", score: 1 },
    { ticId: 90408, label: "Coffee", score: 0.333 },
  ],
  "desk lamp": [
    { ticId: 91010, label: "Help Desk Support", score: 1 },
    { ticId: 0, label: "Uncategorized", score: 0.6119 },
    { ticId: 94001, label: "General Materials", score: 0.5586 },
  ],
}
const ev = (query: string, weight: number): Evidence => ({ query, weight, sources: ["title"] })
const hits = new Map(Object.entries(HITS))

describe("combineEvidence", () => {
  it("a title alone that the search answers clearly: a confident suggestion with two alternatives", () => {
    expect(combineEvidence([ev("gift card", 3)], hits)).toEqual({
      tic: 10005,
      label: "Gift card",
      confidence: 0.88,
      alternatives: [
        { tic: 10011, label: "Credit card processing or transaction fee" },
        { tic: 91110, label: "Gift wrapping services, optional" },
      ],
      agreeing: ["gift card"],
      disagreeing: [],
    })
  })

  it("a hit under MIN_HIT_SCORE (a search's fallback for a brand) is no evidence: no suggestion alone, no doubt beside a title", () => {
    expect(combineEvidence([ev("rolleiflex", 1)], hits)).toBeNull()
    const s = combineEvidence([ev("gift card", 3), ev("rolleiflex", 1)], hits)!
    expect([s.tic, s.confidence, s.disagreeing]).toEqual([10005, 0.88, []])
  })

  it("a category 'Pants' is evidence: with it, sweatpants are Clothing (20010), not the title's best hit alone", () => {
    // its runners-up are all clothing, named more broadly or narrowly: no doubt about the kind
    const alone = combineEvidence([ev("medusa sweatpants", 3)], hits)!
    expect([alone.tic, alone.confidence]).toEqual([92015, 1])
    const s = combineEvidence([ev("medusa sweatpants", 3), ev("pants", 4)], hits)!
    expect([s.tic, s.label, s.alternatives.map((a) => a.tic)]).toEqual([20010, "Clothing", [92015, 20000]])
    expect(s.agreeing).toEqual(["pants"])
    expect(s.disagreeing).toEqual(["medusa sweatpants"])
    expect(s.confidence).toBe(0.91)
  })

  it("a runner-up of the same kind ('Athletic clothing' behind 'Clothing') is no doubt; one of another kind ('Clothing accessories') is", () => {
    expect(sameKind("Clothing", "Athletic clothing")).toBe(true)
    expect(sameKind("Clothing, except baby receiving blankets", "Clothing")).toBe(true)
    expect(sameKind("Clothing", "Clothing accessories or equipment")).toBe(false)
    expect(sameKind("Gift card", "Credit card processing or transaction fee")).toBe(false)
    // the margin is over 20020 (0.9 behind 1), not over the further 92015
    expect(combineEvidence([ev("beanie", 3)], hits)!.confidence).toBe(0.55)
  })

  it("evidence that disagrees (a clothing title in a food category): low confidence, never accepted by 'accept all'", () => {
    const s = combineEvidence([ev("pants", 3), ev("coffee beans", 2)], hits)!
    expect(s.tic).toBe(20010)
    expect(s.disagreeing).toEqual(["coffee beans"])
    expect(s.confidence).toBeLessThan(LOW_CONFIDENCE)
    expect(s.confidence).toBe(0.4)
  })

  it("a runner-up close behind lowers the confidence; nothing found (or not searched) is no suggestion", () => {
    expect(combineEvidence([ev("desk lamp", 3)], hits)!.confidence).toBe(0.69)
    expect(combineEvidence([ev("xyzzy", 3)], hits)).toBeNull()
    expect(combineEvidence([ev("never searched", 3)], new Map())).toBeNull()
    expect(combineEvidence([], hits)).toBeNull()
  })
})
