import { CONTEXT_KEY } from "../../constants"
import { contextWithLinesSnapshot, itemFromLine, noHookWarning, shippingFromLine, snapshotFor, type NoHook } from "./snapshot"

const item = (id: string) =>
  ({ line_item: { id, product_id: `prod_${id}`, quantity: 2, unit_price: 10.5, currency_code: "usd" }, rates: [] }) as never
const ship = (id: string) =>
  ({ shipping_line: { id, shipping_option_id: "so_1", unit_price: 8, currency_code: "usd" }, rates: [] }) as never
const hook = {
  v: 1,
  cart_id: "cart_1",
  customer_id: "cus_1",
  currency_code: "usd",
  items: [{ id: "a", quantity: "2", unit_price: "10.5", discount: "1", tic: 20010 }],
  shipping_methods: [{ id: "s1", amount: "8" }],
}

describe("snapshotFor", () => {
  it("the hook's snapshot, with the lines it did not see added; no warning", () => {
    const told: NoHook[] = []
    const s = snapshotFor([item("a"), item("b")], [ship("s1"), ship("s2")], { additional_context: { [CONTEXT_KEY]: hook } } as never, (w) =>
      told.push(w),
    )
    expect(told).toEqual([])
    expect(s.source).toBe("hook")
    expect(s.items.map((i) => [i.id, i.discount, i.tic])).toEqual([
      ["a", "1", 20010],
      ["b", "0", null],
    ])
    expect(s.shipping_methods.map((m) => [m.id, m.amount])).toEqual([
      ["s1", "8"],
      ["s2", "8"],
    ])
  })

  it("without the hook (or with an invalid one): rebuilt from the lines, told why; the same lines give the same cart id", () => {
    const told: NoHook[] = []
    const context = { customer: { id: "cus_9" }, shipping_methods: [{ id: "s1", shipping_option_id: "so_1", amount: 8 }] } as never
    const s = snapshotFor([item("a")], [ship("s1")], context, (w) => told.push(w))
    expect(s).toEqual({
      v: 1,
      cart_id: expect.stringMatching(/^lines_[0-9a-f]{40}$/),
      customer_id: "cus_9",
      currency_code: "usd",
      items: [itemFromLine(item("a"))],
      shipping_methods: [
        { id: "s1", shipping_option_id: "so_1", amount: "8", discount: "0", is_tax_inclusive: false, has_tax_inclusive_discount: false },
      ],
      source: "lines",
    })
    expect(snapshotFor([item("a")], [ship("s1")], {} as never).cart_id).toBe(s.cart_id)
    snapshotFor([item("a")], [], { additional_context: { [CONTEXT_KEY]: { v: 2 } } } as never, (w) => told.push(w))
    expect(told).toEqual(["absent", "invalid"])
    expect(noHookWarning("invalid")).toContain("no cart context from the tax-line hooks (invalid)")
    expect(noHookWarning("absent")).not.toContain("(invalid)")
  })
})

describe("itemFromLine / shippingFromLine", () => {
  it("Medusa's line as a tax-exclusive snapshot line without discount or TIC", () => {
    expect(itemFromLine(item("a"))).toEqual({
      id: "a",
      product_id: "prod_a",
      quantity: "2",
      unit_price: "10.5",
      discount: "0",
      is_tax_inclusive: false,
      has_tax_inclusive_discount: false,
      tic: null,
    })
    expect(shippingFromLine(ship("s"))).toEqual({
      id: "s",
      shipping_option_id: "so_1",
      amount: "8",
      discount: "0",
      is_tax_inclusive: false,
      has_tax_inclusive_discount: false,
    })
  })
})

describe("contextWithLinesSnapshot (a Medusa without the tax-line hooks: the provider reads the lines' cart)", () => {
  const address = { country_code: "us", province_code: "TX", postal_code: "78701" }

  it("no hook context: the read snapshot is put where the hook would have, and snapshotFor takes it (discounts, TICs)", async () => {
    const asked: [string[], string[]][] = []
    const warned: string[] = []
    const { context: ctx, itemLines } = await contextWithLinesSnapshot(
      [item("a")],
      [ship("s1")],
      { address } as never,
      async (i, s) => {
        asked.push([i, s])
        return { snapshot: hook, giftCards: [] }
      },
      (m) => warned.push(m),
    )
    expect(asked).toEqual([[["a"], ["s1"]]])
    expect(itemLines).toEqual([item("a")])
    expect(warned).toEqual([])
    expect((ctx as { address?: unknown }).address).toEqual(address)
    const told: NoHook[] = []
    const s = snapshotFor([item("a")], [ship("s1")], ctx, (w) => told.push(w))
    expect(told).toEqual([])
    expect(s.source).toBe("hook")
    expect(s.cart_id).toBe("cart_1")
    expect(s.items.map((i) => [i.id, i.discount, i.tic])).toEqual([["a", "1", 20010]])
  })

  it("the hooks' context is there: nothing is read", async () => {
    const read = jest.fn()
    const context = { address, additional_context: { [CONTEXT_KEY]: hook } } as never
    expect((await contextWithLinesSnapshot([item("a")], [], context, read, () => undefined)).context).toBe(context)
    expect(read).not.toHaveBeenCalled()
  })

  it("nothing found (an order edit's new line): the context as it was, quoted from the lines", async () => {
    const context = { address } as never
    const lines = [item("a")]
    expect(
      await contextWithLinesSnapshot(
        lines,
        [],
        context,
        async () => undefined,
        () => undefined,
      ),
    ).toEqual({ context, itemLines: lines })
    expect(snapshotFor([item("a")], [], context).source).toBe("lines")
  })

  it("a failed read never fails the tax: warned, quoted from the lines", async () => {
    const warned: string[] = []
    const context = { address } as never
    const out = await contextWithLinesSnapshot(
      [item("a")],
      [],
      context,
      async () => {
        throw new Error("db down")
      },
      (m) => warned.push(m),
    )
    expect(out.context).toBe(context)
    expect(warned).toEqual(["sales-tax: the cart of the tax lines could not be read (db down); quoted from the lines"])
  })

  it("the cart's gift cards (Medusa 2.15's tax step hands them over): left out of the lines, so neither quoted nor given a tax line", async () => {
    const read = async () => ({ snapshot: hook, giftCards: ["gc"] })
    const out = await contextWithLinesSnapshot([item("a"), item("gc")], [ship("s1")], { address } as never, read, () => undefined)
    expect(out.itemLines).toEqual([item("a")])
    // the hook's snapshot has no gift card either: the quoted cart is the cart less its gift cards
    expect(snapshotFor(out.itemLines, [ship("s1")], out.context).items.map((i) => i.id)).toEqual(["a"])
  })
})
