import fc from "fast-check"
import type { CalculateCartsResponse } from "@medusa-sales-tax/contract"
import { calculateCartsJson } from "./carts-json"

/**
 * The POST carts answer's bytes are those of JSON.stringify's text, for any answer of the contract's shape: strings
 * that need escaping (quotes, backslashes, control characters, lone surrogates), optional fields
 * absent, null or set, and the numbers the engine writes (integers, cents, rates, long doubles).
 */
const text = fc.oneof(
  fc.constantFrom("", "1 Main St", 'say "hi"', "back\\slash", "tab\there", "new\nline", "\u0000", "\ud800", "\udc00x", "😀", "é"),
  fc.string({ maxLength: 20, unit: "binary" }),
)
const number = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.integer({ min: -1e8, max: 1e8 }).map((c) => c / 100),
  fc.integer({ min: 0, max: 10000 }).map((r) => r / 10000),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)
const address = fc.record(
  { line1: text, line2: fc.oneof(text, fc.constant(null)), city: text, state: text, zip: text, countryCode: fc.constantFrom("US", "CA") },
  { requiredKeys: ["line1", "city", "state", "zip"], noNullPrototype: true },
)
const line = fc.record(
  {
    index: number,
    itemId: text,
    price: number,
    quantity: number,
    tic: fc.oneof(number, fc.constant(null)),
    tax: fc.record({ amount: number, rate: number }, { noNullPrototype: true }),
  },
  { noNullPrototype: true },
)
const cart = fc.record(
  {
    cartId: text,
    customerId: text,
    currency: fc.record({ currencyCode: text }, { noNullPrototype: true }),
    deliveredBySeller: fc.boolean(),
    origin: address,
    destination: address,
    exemption: fc.record(
      {
        exemptionId: fc.oneof(text, fc.constant(null)),
        isExempt: fc.constantFrom(true, false, null),
        flag: fc.oneof(text, fc.constant(null)),
      },
      { requiredKeys: ["exemptionId", "isExempt"], noNullPrototype: true },
    ),
    lineItems: fc.array(line, { maxLength: 4 }),
  },
  { noNullPrototype: true },
)
const answer = fc.record({ connectionId: text, transactionDate: text, items: fc.array(cart, { maxLength: 3 }) }, { noNullPrototype: true })

/** the same bytes as JSON.stringify's text in UTF-8 (what Fastify sends for that text) */
const same = (r: CalculateCartsResponse) => Buffer.from(calculateCartsJson(r)).equals(Buffer.from(JSON.stringify(r)))

describe("calculateCartsJson", () => {
  it("writes the bytes of JSON.stringify's text of any answer (1,000 runs)", () => {
    fc.assert(fc.property(answer, same), { numRuns: 1000 })
  })

  it("writes -0 as 0 and escapes what JSON escapes", () => {
    const r: CalculateCartsResponse = {
      connectionId: 'c"\\\n\u001f\ud83d',
      transactionDate: "t",
      items: [
        {
          cartId: "a",
          customerId: "b",
          currency: { currencyCode: "USD" },
          deliveredBySeller: false,
          origin: { line1: "", line2: null, city: "", state: "NY", zip: "10118" },
          destination: { line1: "", city: "", state: "NY", zip: "10118", countryCode: "US" },
          exemption: { exemptionId: null, isExempt: null },
          lineItems: [{ index: 0, itemId: "x", price: -0, quantity: 1e21, tic: null, tax: { amount: 1e-7, rate: 0.0888 } }],
        },
      ],
    }
    expect(same(r)).toBe(true)
  })
})
