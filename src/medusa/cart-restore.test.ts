/** The restore point taken from the last tax run (quotedCartState) and its check (quotedStateHolds). */
import {
  cartStateDiff,
  cartStateOf,
  quotedCartState,
  quotedLineKey,
  quotedStateHolds,
  type CartRow,
  type WrittenTaxLine,
} from "./cart-restore"

const line = (id: string, owner: Record<string, string>, rate = 9.025): WrittenTaxLine => ({
  id,
  ...owner,
  description: "Sales tax",
  tax_rate_id: null,
  code: "SALES_TAX",
  rate,
  provider_id: "tp_sales-tax",
  data: { amount: 90 },
  metadata: null,
})

// the run's read: no tax lines (it writes them), its adjustments and addresses as the restore reads them
const read: CartRow = {
  id: "cart_1",
  email: "a@example.com",
  currency_code: "usd",
  region: { automatic_taxes: true },
  shipping_address: { id: "addr_1", country_code: "us", city: "Minneapolis", address_1: "1 Main St" },
  billing_address: null,
  promotions: [{ id: "promo_1" }],
  items: [
    { id: "item_1", quantity: 2, unit_price: 500, is_custom_price: false, adjustments: [{ code: "P", amount: 100 }] },
    { id: "item_2", quantity: 1, unit_price: 300, is_custom_price: false, adjustments: [] },
  ],
  shipping_methods: [{ id: "sm_1", amount: 1000, adjustments: [] }],
}
const items = [line("txl_1", { item_id: "item_1" }), line("txl_2", { item_id: "item_2" })]
const shipping = [line("txl_3", { shipping_method_id: "sm_1" })]

describe("quotedCartState: the cart as the last tax run left it", () => {
  it("is the run's read with the tax lines it wrote, as a read after that run would give it", () => {
    const quoted = quotedCartState(read, items, shipping)
    const readAfter = cartStateOf({
      ...read,
      items: read.items!.map((i) => ({ ...i, tax_lines: items.filter((l) => l.item_id === i.id) })),
      shipping_methods: read.shipping_methods!.map((m) => ({ ...m, tax_lines: shipping.filter((l) => l.shipping_method_id === m.id) })),
    })
    expect(cartStateDiff(quoted, readAfter)).toEqual([])
    expect(quoted.quotedLines).toEqual({
      item_1: [quotedLineKey(items[0]!)],
      item_2: [quotedLineKey(items[1]!)],
      sm_1: [quotedLineKey(shipping[0]!)],
    })
    expect([quoted.usTaxed, quoted.promotionIds]).toEqual([true, ["promo_1"]])
  })

  it("a run that did not read the promotion links says so (the restore takes them as they are, a promotions route reads them)", () => {
    expect(quotedCartState(read, items, shipping).promotionsUnread).toBeUndefined()
    const unread = quotedCartState({ ...read, promotions: undefined }, items, shipping)
    expect([unread.promotionsUnread, unread.promotionIds]).toEqual([true, []])
  })

  it("a line the run wrote no tax line for is recorded with none", () => {
    expect(quotedCartState(read, [items[0]!], []).quotedLines).toEqual({ item_1: [quotedLineKey(items[0]!)], item_2: [], sm_1: [] })
  })
})

describe("quotedStateHolds: the cart still carries the lines that run wrote", () => {
  const quoted = quotedCartState(read, items, shipping)
  const now = (patch: Partial<CartRow>) =>
    cartStateOf({
      ...read,
      items: read.items!.map((i) => ({ ...i, tax_lines: items.filter((l) => l.item_id === i.id) })),
      shipping_methods: read.shipping_methods!.map((m) => ({ ...m, tax_lines: shipping.filter((l) => l.shipping_method_id === m.id) })),
      ...patch,
    })

  it("holds after a refused change (quantities changed, no tax line written), a new line or a removed one", () => {
    expect(quotedStateHolds(quoted, now({}))).toBe(true)
    const changed = now({})
    changed.items = [
      { ...changed.items[0], quantity: 5 },
      { id: "item_3", quantity: 1, tax_lines: [{ id: "txl_9" }] },
    ]
    expect(quotedStateHolds(quoted, changed)).toBe(true)
    // a deleted line brought back by Medusa's compensation, with older tax lines of its own beside
    const undeleted = now({})
    undeleted.items = undeleted.items.map((i) => (i.id === "item_1" ? { ...i, tax_lines: [...(i.tax_lines ?? []), { id: "txl_old" }] } : i))
    expect(quotedStateHolds(quoted, undeleted)).toBe(true)
  })

  it("does not hold once another tax run rewrote a line's tax lines (another instance's quoted change)", () => {
    const other = now({})
    other.items = other.items.map((i) => (i.id === "item_2" ? { ...i, tax_lines: [{ ...items[1], id: "txl_other" }] } : i))
    expect(quotedStateHolds(quoted, other)).toBe(false)
    // rewritten in its row (the same id) by a run of another quote
    const inRow = now({})
    inRow.items = inRow.items.map((i) =>
      i.id === "item_1" ? { ...i, tax_lines: [{ ...items[0]!, tax_rate_id: 'sales_tax:{"amount":91}' }] } : i,
    )
    expect(quotedStateHolds(quoted, inRow)).toBe(false)
    const dropped = now({})
    dropped.shipping_methods = dropped.shipping_methods.map((m) => ({ ...m, tax_lines: [] }))
    expect(quotedStateHolds(quoted, dropped)).toBe(false)
  })

  it("a state that was read always holds", () => {
    expect(quotedStateHolds(cartStateOf(read), now({ items: [] }))).toBe(true)
  })
})

describe("cartStateDiff: tax lines as content", () => {
  it("a line's data with its keys in another order (as a jsonb column gives them back) is the same line", () => {
    const written = quotedCartState(read, items, shipping)
    const reordered = quotedCartState(
      read,
      items.map((l) => ({ ...l, data: { amount: 90, cart_hash: "h", tic: 0 } })),
      shipping,
    )
    const back = quotedCartState(
      read,
      items.map((l) => ({ ...l, data: { tic: 0, cart_hash: "h", amount: 90 } })),
      shipping,
    )
    expect(cartStateDiff(reordered, back)).toEqual([])
    expect(cartStateDiff(written, back)).toEqual(["items.tax_lines"])
  })
})
