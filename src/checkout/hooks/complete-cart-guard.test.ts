import fc from "fast-check"
import { cartFingerprint } from "./complete-cart-guard"

const cart = () => ({
  id: "cart_1",
  customer_id: "cus_1",
  currency_code: "usd",
  shipping_address: { address_1: "1 Beacon St", city: "Boston", province: "MA", postal_code: "02108", country_code: "us" },
  promotions: [{ id: "promo_a" }],
  items: [
    {
      id: "item_b",
      quantity: 1,
      unit_price: 1000,
      is_tax_inclusive: false,
      adjustments: [{ code: "TENOFF", amount: 100, promotion_id: "promo_a" }],
      tax_lines: [{ code: "sales-tax", rate: 5.15625 }],
    },
    { id: "item_a", quantity: 2, unit_price: 50, adjustments: [], tax_lines: [{ code: "sales-tax", rate: 0 }] },
  ],
  shipping_methods: [
    { id: "sm_1", amount: 8, shipping_option_id: "so_1", adjustments: [], tax_lines: [{ code: "sales-tax", rate: 6.25 }] },
  ],
})

describe("cartFingerprint: what the completion's lock compares", () => {
  it("the same cart read in another row order (and amounts as strings) is the same; a promotion, quantity, adjustment, address or tax line is not", () => {
    const base = cartFingerprint(cart())
    const shuffled = cart()
    shuffled.items.reverse()
    ;(shuffled.items[0] as Record<string, unknown>).quantity = "2"
    expect(cartFingerprint(shuffled)).toEqual(base)

    const promo = cart()
    promo.promotions.push({ id: "promo_b" })
    expect(cartFingerprint(promo).state).not.toBe(base.state)
    const adj = cart()
    adj.items[0]!.adjustments![0]!.amount = 150
    expect(cartFingerprint(adj).state).not.toBe(base.state)
    const qty = cart()
    qty.items[1]!.quantity = 3
    expect(cartFingerprint(qty).state).not.toBe(base.state)
    const zip = cart()
    zip.shipping_address.postal_code = "02109"
    expect(cartFingerprint(zip).state).not.toBe(base.state)
    const tax = cart()
    tax.items[0]!.tax_lines![0]!.rate = 6.25
    const t = cartFingerprint(tax)
    expect(t.state).toBe(base.state)
    expect(t.tax).not.toBe(base.tax)
  })

  it("property: any change of an item's quantity or price, or of the promotion set, changes the state", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 100_000 }), (k, q, p) => {
        const a = cart()
        const b = cart()
        b.items[k]!.quantity = q
        b.items[k]!.unit_price = p
        const same = a.items[k]!.quantity === q && a.items[k]!.unit_price === p
        expect(cartFingerprint(b).state === cartFingerprint(a).state).toBe(same)
      }),
      { numRuns: 300 },
    )
  })
})
