import { quoteOfAnswer } from "./service-call"

const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const pdx = { line1: "1 Dock Rd", city: "Portland", state: "OR", zip: "97201" }
const cart = (cartId: string, o = origin) => ({ cartId, origin: o }) as never
const answered = (cartId: string, ...items: [string, number, number, number | null][]) =>
  ({ cartId, lineItems: items.map(([itemId, amount, rate, tic]) => ({ itemId, tic, tax: { amount, rate } })) }) as never

describe("quoteOfAnswer", () => {
  it("each line's tax, rate, TIC and the origin of its cart; carts matched by id, else by position", () => {
    const q = quoteOfAnswer(
      [
        { cart: cart("cart_1"), key: "" },
        { cart: cart("cart_1~abcd1234", pdx), key: "sloc_pdx" },
      ],
      // the answer lists the location's cart first
      { items: [answered("cart_1~abcd1234", ["a", 0.9, 0.09, 20010]), answered("cart_1", ["b", 1.5, 0.075, null])] },
      "hash_1",
      "cert_1",
    )
    expect(q).toEqual({
      hash: "hash_1",
      exemptionId: "cert_1",
      lines: {
        a: { amount: 0.9, rate: 0.09, tic: 20010, origin: { locationId: "sloc_pdx", address: pdx } },
        b: { amount: 1.5, rate: 0.075, tic: null, origin: { locationId: null, address: origin } },
      },
    })
    const byPosition = quoteOfAnswer([{ cart: cart("cart_2"), key: "" }], { items: [answered("other", ["c", 1, 0.1, 0])] }, "h", null)
    expect(byPosition.lines.c).toEqual({ amount: 1, rate: 0.1, tic: 0, origin: { locationId: null, address: origin } })
    expect(quoteOfAnswer([{ cart: cart("cart_3"), key: "" }], { items: [] }, "h", null).lines).toEqual({})
  })
})
