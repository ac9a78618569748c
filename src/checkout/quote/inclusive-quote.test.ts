import { TAX_INCLUSIVE_ERROR_CODE } from "../../constants"
import { CartSnapshot } from "../../service/cart/context"
import { inclusiveQuoteHash, quoteInclusive, refuseTaxInclusiveMix } from "../inclusive/inclusive-cart"

const origin = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const cart = (cartId: string, price: number) =>
  ({
    cartId,
    currency: { currencyCode: "USD" },
    customerId: "c",
    origin,
    destination: origin,
    lineItems: [{ index: 0, itemId: "a", price, quantity: 1, tic: 0 }],
  }) as never

describe("quoteInclusive's lines", () => {
  it("each split line gets its net, tax, rate and residual; the others stay as answered; the answer is not changed", async () => {
    // 10 % on the net of "a" (its gross 10: 9.09 + 0.91); shipping as answered
    const answers: Record<string, { amount: number; rate: number; tic: number }>[] = []
    const call = async (sent: readonly { cart: { lineItems: { price: number }[] } }[]) => {
      const a = { amount: Math.round(sent[0]!.cart.lineItems[0]!.price * 10) / 100, rate: 0.1, tic: 0 }
      answers.push({ a, shipping_s: { amount: 0.5, rate: 0.1, tic: 11010 } })
      return { hash: "h", exemptionId: null, lines: answers.at(-1)! }
    }
    const q = await quoteInclusive(
      [{ cart: cart("cart_1", 10), key: "" }],
      [{ itemId: "a", gross: "10" }],
      undefined,
      call as never,
      "h",
      null,
    )
    expect(q.lines).toEqual({
      a: { amount: 0.91, rate: 0.1, tic: 0, net: "9.09", residual: "0" },
      shipping_s: { amount: 0.5, rate: 0.1, tic: 11010 },
    })
    expect(answers.at(-1)).toEqual({ a: { amount: 0.91, rate: 0.1, tic: 0 }, shipping_s: { amount: 0.5, rate: 0.1, tic: 11010 } })
  })
})

describe("inclusiveQuoteHash", () => {
  it("keyed by the carts as shown and the connection; never the key of the same cart's tax-exclusive quote", () => {
    const one = [{ cart: cart("cart_1", 10), key: "" }]
    expect(inclusiveQuoteHash(one, "conn_a")).toBe(inclusiveQuoteHash([{ cart: cart("cart_1", 10), key: "" }], "conn_a"))
    expect(inclusiveQuoteHash(one, "conn_a")).not.toBe(inclusiveQuoteHash(one, "conn_b"))
    expect(inclusiveQuoteHash(one, "conn_a")).not.toBe(inclusiveQuoteHash([{ cart: cart("cart_1", 11), key: "" }], "conn_a"))
    const two = [...one, { cart: cart("cart_1~1", 5), key: "sloc" }]
    expect(inclusiveQuoteHash(two, "conn_a")).not.toBe(inclusiveQuoteHash(one, "conn_a"))
  })
})

describe("refuseTaxInclusiveMix", () => {
  const snap = (item: Record<string, unknown>) =>
    CartSnapshot.parse({ v: 1, cart_id: "c", currency_code: "usd", items: [{ id: "a", quantity: "1", unit_price: "10", ...item }] })
  it("refuses a promotion whose kind differs from the price's, with the tax-inclusive error code; passes the rest", () => {
    expect(() => refuseTaxInclusiveMix(snap({ is_tax_inclusive: true }))).not.toThrow()
    expect(() => refuseTaxInclusiveMix(snap({ discount: "2" }))).not.toThrow()
    let err: unknown
    try {
      refuseTaxInclusiveMix(snap({ discount: "2", has_tax_inclusive_discount: true }))
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({
      code: TAX_INCLUSIVE_ERROR_CODE,
      message: expect.stringMatching(/tax-inclusive promotion on a tax-exclusive price/),
    })
  })
})
