import fc from "fast-check"
import { CartSnapshot, parseCartSnapshot } from "./context"

/** Values a field may hold: right and wrong types, edge decimals. */
const oddValue = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    "",
    "0",
    "1",
    "1.5",
    "-2",
    "1e3",
    "1E-2",
    "1.",
    ".5",
    "abc",
    " 1",
    0,
    -1,
    1.5,
    1e21,
    NaN,
    Infinity,
    true,
    false,
    2 ** 53,
    [],
    {},
  ),
  fc.string(),
  fc.double(),
  fc.integer(),
)
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: oddValue })
/** maybe, with an odd value one time in 20 (the fields added later: a snapshot still parses often enough) */
const rarely = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 19, arbitrary: arb }, { weight: 1, arbitrary: oddValue })
const decimal = fc.oneof(
  fc.integer({ min: -1000, max: 100000 }).map((n) => (n / 100).toFixed(2)),
  fc.integer({ min: 0, max: 50 }),
  fc.double({ min: 0, max: 1000, noNaN: true }),
)
const item = fc.record(
  {
    id: maybe(fc.string()),
    product_id: maybe(fc.option(fc.string())),
    variant_id: maybe(fc.option(fc.string())),
    quantity: maybe(decimal),
    unit_price: maybe(decimal),
    discount: maybe(decimal),
    is_tax_inclusive: maybe(fc.boolean()),
    has_tax_inclusive_discount: maybe(fc.boolean()),
    inclusive_discount: maybe(fc.option(decimal)),
    tic: maybe(fc.option(fc.nat(99999))),
    tic_source: maybe(fc.option(fc.string())),
    origin_location_id: rarely(fc.option(fc.string())),
    extra: oddValue,
  },
  { requiredKeys: ["id", "quantity", "unit_price"] },
)
const shipping = fc.record(
  {
    id: maybe(fc.string()),
    shipping_option_id: maybe(fc.option(fc.string())),
    amount: maybe(decimal),
    discount: maybe(decimal),
    is_tax_inclusive: maybe(fc.boolean()),
    has_tax_inclusive_discount: maybe(fc.boolean()),
    inclusive_discount: maybe(fc.option(decimal)),
    origin_location_id: rarely(fc.option(fc.string())),
  },
  { requiredKeys: ["id", "amount"] },
)
/** A stock location's address as the hook writes it (every field optional, unknown keys dropped). */
const location = fc.record(
  {
    name: rarely(fc.option(fc.string())),
    address_1: rarely(fc.option(fc.string())),
    address_2: rarely(fc.option(fc.string())),
    city: rarely(fc.option(fc.string())),
    country_code: rarely(fc.option(fc.constantFrom("us", "US", "ca"))),
    province: rarely(fc.option(fc.constantFrom("WA", "us-tx", "Ontario"))),
    postal_code: rarely(fc.option(fc.constantFrom("98109", "78701-1234", "K1A 0B1"))),
    extra: oddValue,
  },
  { requiredKeys: [] },
)
const snapshot = fc.record(
  {
    v: fc.oneof({ weight: 9, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: oddValue }),
    cart_id: maybe(fc.string()),
    customer_id: maybe(fc.option(fc.string())),
    sales_channel_id: rarely(fc.option(fc.string())),
    locations: rarely(fc.option(fc.dictionary(fc.string({ maxLength: 6 }), rarely(location), { maxKeys: 3 }))),
    exemption_customer_id: maybe(fc.option(fc.string())),
    exemption_basis: maybe(fc.option(fc.constantFrom("authenticated_customer", "admin_order", "admin_draft_order"))),
    currency_code: maybe(fc.constantFrom("usd", "USD", "eur", "us")),
    items: maybe(fc.array(item, { maxLength: 4 })),
    shipping_methods: maybe(fc.array(shipping, { maxLength: 2 })),
    source: maybe(fc.constantFrom("hook", "lines")),
    other: oddValue,
  },
  { requiredKeys: ["v", "cart_id", "currency_code", "items"] },
)

describe("parseCartSnapshot", () => {
  it("answers exactly what CartSnapshot.safeParse answers (random snapshots, right and wrong fields)", () => {
    let fast = 0
    fc.assert(
      fc.property(fc.oneof({ weight: 9, arbitrary: snapshot }, { weight: 1, arbitrary: fc.anything() }), (raw) => {
        const want = CartSnapshot.safeParse(raw)
        const got = parseCartSnapshot(raw)
        expect(got.success).toBe(want.success)
        if (want.success) {
          expect(got.data).toStrictEqual(want.data)
          fast++
        } else expect(got.error!.issues).toEqual(want.error.issues)
      }),
      { numRuns: 5000 },
    )
    // about 1 in 50 draws is a valid snapshot (82 to 120 over seeds): enough that the successes are compared too
    expect(fast).toBeGreaterThan(30)
  })

  it("a hook's snapshot: defaults filled, unknown keys dropped, numbers written as decimal strings", () => {
    const got = parseCartSnapshot({
      v: 1,
      cart_id: "cart_1",
      currency_code: "usd",
      items: [{ id: "i", quantity: 2, unit_price: "9.99", x: 1 }],
      y: 2,
    })
    expect(got).toEqual({
      success: true,
      data: {
        v: 1,
        cart_id: "cart_1",
        currency_code: "usd",
        source: "hook",
        shipping_methods: [],
        items: [{ id: "i", quantity: "2", unit_price: "9.99", discount: "0", is_tax_inclusive: false, has_tax_inclusive_discount: false }],
      },
    })
  })
})
