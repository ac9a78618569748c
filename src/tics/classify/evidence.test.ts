import { firstSentence, normalizeQuery, productEvidence } from "./evidence"

describe("product evidence", () => {
  it("normalizeQuery: lower case, letters and digits, accents dropped, at most 12 words; null when empty", () => {
    expect(normalizeQuery("  Medusa T-Shirt (Organic)! ")).toBe("medusa t shirt organic")
    expect(normalizeQuery("Café Crème")).toBe("cafe creme")
    expect(normalizeQuery("a b c d e f g h i j k l m n")).toBe("a b c d e f g h i j k l")
    expect([normalizeQuery(""), normalizeQuery("—!"), normalizeQuery(null)]).toEqual([null, null, null])
  })

  it("firstSentence: the description's first sentence, tags dropped", () => {
    expect(firstSentence("<p>Reimagine the feeling of a classic T-shirt.</p> With our cotton.")).toBe(
      " Reimagine the feeling of a classic T-shirt",
    )
    expect(firstSentence(null)).toBe("")
  })

  it("every field becomes a query; a category carries its parents; the same query from two fields is one, its weights summed", () => {
    expect(
      productEvidence({
        id: "prod_1",
        title: "Medusa Sweatpants",
        subtitle: null,
        description:
          "Reimagine the feeling of classic sweatpants. With our cotton sweatpants, everyday essentials no longer have to be ordinary.",
        type: "Pants",
        categories: [["Clothing", "Pants"], ["Pants"]],
        collection: "Summer",
        tags: ["cotton", "casual"],
      }),
    ).toEqual([
      { query: "medusa sweatpants", weight: 3, sources: ["title"] },
      { query: "pants", weight: 5, sources: ["type", "category"] },
      { query: "clothing pants", weight: 3, sources: ["category"] },
      { query: "reimagine the feeling of classic sweatpants", weight: 1, sources: ["description"] },
      { query: "summer", weight: 1, sources: ["collection"] },
      { query: "cotton casual", weight: 1, sources: ["tags"] },
    ])
    expect(productEvidence({ id: "prod_2", title: null })).toEqual([])
  })
})
