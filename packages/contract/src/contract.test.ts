import { Address, CalculateCartsRequest, issuesToErrors, OPERATIONS, OPERATION_IDS } from "./index"

describe("wire contract", () => {
  it("rejects a full state name with a located error", () => {
    const body = {
      items: [
        {
          customerId: "c1",
          currency: { currencyCode: "USD" },
          origin: { line1: "1 A St", city: "X", state: "WA", zip: "98101" },
          destination: { line1: "1 B St", city: "Y", state: "California", zip: "9410" },
          lineItems: [{ index: 0, itemId: "a", price: 1, quantity: 1 }],
        },
      ],
    }
    const r = CalculateCartsRequest.safeParse(body)
    expect(r.success).toBe(false)
    const errors = issuesToErrors("body", r.error!, body)
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ location: "body.items[0].destination.state", value: "California" }),
        expect.objectContaining({ location: "body.items[0].destination.zip", value: "9410" }),
      ]),
    )
  })
  it("accepts ZIP+4 and plain ZIP, rejects letters", () => {
    const base = { line1: "1 A St", city: "Seattle", state: "WA" }
    expect(Address.safeParse({ ...base, zip: "98101" }).success).toBe(true)
    expect(Address.safeParse({ ...base, zip: "98101-1234" }).success).toBe(true)
    expect(Address.safeParse({ ...base, zip: "9810A" }).success).toBe(false)
    expect(Address.safeParse({ ...base, zip: "98101-12" }).success).toBe(false)
  })
  it("lists every operation once with a path", () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual([...OPERATION_IDS].sort())
    const keys = Object.values(OPERATIONS).map((o) => `${o.method} ${o.path}`)
    expect(new Set(keys).size).toBe(keys.length)
  })
})
