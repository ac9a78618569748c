import { ratePairs } from "./filing"

describe("ratePairs", () => {
  it("lists each rate Medusa shows beside the service's where they differ, once, with its lines", () => {
    expect(
      ratePairs([
        { itemId: "ordli_a", kind: "item", chargedRate: 0.089, serviceRate: 0.08875 },
        { itemId: "shipping:sm_1", kind: "shipping", chargedRate: 0.089, serviceRate: 0.08875 },
        { kind: "shipping", chargedRate: 0.0625, serviceRate: 0.0625 },
        { kind: "item", chargedRate: 0.0451, serviceRate: 0.045 },
        { kind: "item", chargedRate: 0.07, serviceRate: null },
      ]),
    ).toEqual([
      { medusa: "8.9 %", service: "8.875 %", lines: 2, itemIds: ["ordli_a", "shipping:sm_1"] },
      { medusa: "4.51 %", service: "4.5 %", lines: 1, itemIds: [] },
    ])
  })
  it("is empty where Medusa shows the service's rates, and for records kept before the service's rate was", () => {
    expect(ratePairs([{ kind: "item", chargedRate: 0.1025, serviceRate: 0.1025 }])).toEqual([])
    expect(ratePairs([{ kind: "item", chargedRate: 0.0903 }])).toEqual([])
  })
})
