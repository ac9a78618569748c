import { StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  inPlace,
  refreshLeftTaxLines,
  setCartTaxLines,
  taxContextOf,
  taxRunFields,
  UPDATE_TAX_LINES_CART_FIELDS,
  type TaxRunCart,
} from "./update-tax-lines"
import { TAXED_FIELDS } from "../checkout/hooks/tax-line-context-handler"
import type { TaxLineContextHandler } from "./taxed-entity"

const cart = (over: Partial<TaxRunCart> = {}): TaxRunCart => ({
  id: "cart_1",
  currency_code: "usd",
  locale: null,
  region: { id: "reg_1", automatic_taxes: true },
  customer: { id: "cus_1", email: "a@b.c", metadata: null, groups: [{ id: "cg_1" }] },
  shipping_address: {
    country_code: "us",
    province: "us-mn",
    address_1: "1 Main",
    address_2: null,
    city: "Minneapolis",
    postal_code: "55401",
  },
  items: [
    { id: "item_1", product_id: "prod_1", product_type_id: "ptyp_1", quantity: 2, unit_price: 10, is_giftcard: false },
    { id: "item_gc", product_id: "prod_gc", quantity: 1, unit_price: 25, is_giftcard: true },
  ],
  shipping_methods: [],
  ...over,
})

/** A container with the Tax and Cart modules recording their calls. */
function fakeContainer() {
  const calls: { name: string; args: unknown[] }[] = []
  const tax = {
    async getTaxLines(items: { id: string; shipping_option_id?: string }[]) {
      calls.push({ name: "getTaxLines", args: [items] })
      return items.map((i) =>
        "shipping_option_id" in i
          ? { shipping_line_id: i.id, rate: 5, code: "S", name: "Ship tax", provider_id: "p", data: { a: 1 } }
          : { line_item_id: i.id, rate: 7.5, code: "T", name: "Tax", provider_id: "p", rate_id: "txr_1", data: { amount: 1.5 } },
      )
    },
  }
  const carts = {
    async upsertLineItemTaxLines(...args: unknown[]) {
      calls.push({ name: "upsertLineItemTaxLines", args })
      return args[0] as unknown[]
    },
    async setLineItemTaxLines(...args: unknown[]) {
      calls.push({ name: "setLineItemTaxLines", args })
      return []
    },
    async setShippingMethodTaxLines(...args: unknown[]) {
      calls.push({ name: "setShippingMethodTaxLines", args })
      return []
    },
  }
  const container = {
    resolve(key: string) {
      if (key === "tax") return tax
      if (key === "cart") return carts
      throw new Error(`unexpected resolve ${key}`)
    },
  } as unknown as MedusaContainer
  return { container, calls }
}

const handler: TaxLineContextHandler = async () => new StepResponse({ sales_tax: { v: 1 } })

describe("setCartTaxLines: updateTaxLinesWorkflow's work as module calls", () => {
  it("quotes the items (gift cards left out) with the hook's context and sets the items' tax lines; no shipping call without shipping methods", async () => {
    const { container, calls } = fakeContainer()
    const seen: unknown[] = []
    const c = cart()
    await setCartTaxLines(container, c, async (input) => {
      seen.push(input)
      return handler(input, { container })
    })
    // the handler gets the workflow's hook input
    expect(seen).toEqual([{ cart: c, items: c.items, shipping_methods: [] }])
    expect(calls.map((x) => x.name)).toEqual(["getTaxLines", "setLineItemTaxLines"])
    expect(calls[0]!.args[0]).toEqual([
      { id: "item_1", product_id: "prod_1", product_type_id: "ptyp_1", quantity: 2, unit_price: 10, currency_code: "usd" },
    ])
    expect(calls[1]!.args).toEqual([
      "cart_1",
      [{ description: "Tax", tax_rate_id: "txr_1", code: "T", rate: 7.5, provider_id: "p", item_id: "item_1", data: { amount: 1.5 } }],
    ])
  })

  it("a cart with shipping methods: quoted with the items in one Tax Module call, each kind's tax lines set", async () => {
    const { container, calls } = fakeContainer()
    const c = cart({ shipping_methods: [{ id: "sm_1", shipping_option_id: "so_1", amount: 8, name: "Standard" }] })
    await setCartTaxLines(container, c, handler)
    expect(calls.map((x) => x.name)).toEqual(["getTaxLines", "setLineItemTaxLines", "setShippingMethodTaxLines"])
    expect(calls[0]!.args[0]).toEqual([
      { id: "item_1", product_id: "prod_1", product_type_id: "ptyp_1", quantity: 2, unit_price: 10, currency_code: "usd" },
      { id: "sm_1", shipping_option_id: "so_1", unit_price: 8, currency_code: "usd" },
    ])
    expect(calls[1]!.args).toEqual([
      "cart_1",
      [{ description: "Tax", tax_rate_id: "txr_1", code: "T", rate: 7.5, provider_id: "p", item_id: "item_1", data: { amount: 1.5 } }],
    ])
    expect(calls[2]!.args).toEqual([
      "cart_1",
      [
        {
          description: "Ship tax",
          tax_rate_id: undefined,
          code: "S",
          rate: 5,
          provider_id: "p",
          shipping_method_id: "sm_1",
          data: { a: 1 },
        },
      ],
    ])
  })

  it("no tax to compute (automatic taxes off, or no address): no quote, and the items' tax lines are cleared as Medusa's step clears them", async () => {
    for (const c of [cart({ region: { automatic_taxes: false } }), cart({ shipping_address: null })]) {
      const { container, calls } = fakeContainer()
      await setCartTaxLines(container, c, handler)
      expect(calls).toEqual([{ name: "setLineItemTaxLines", args: ["cart_1", []] }])
    }
  })

  it("a completed cart is refused as validateCartStep refuses it, before any quote or write", async () => {
    const { container, calls } = fakeContainer()
    await expect(setCartTaxLines(container, cart({ completed_at: new Date() }), handler)).rejects.toThrow(
      "Cart cart_1 is already completed.",
    )
    expect(calls).toEqual([])
  })
})

describe("setCartTaxLines with the cart's current tax lines: only what changed is written, in its row", () => {
  const was = {
    id: "txl_1",
    description: "Tax",
    tax_rate_id: "txr_1",
    code: "T",
    rate: 7.5,
    provider_id: "p",
    data: { amount: 1.5 },
    metadata: null,
  }
  const withLines = (tax_lines: Record<string, unknown>[]) =>
    cart({ items: [{ id: "item_1", product_id: "prod_1", quantity: 2, unit_price: 10, tax_lines } as never] })

  it("an unchanged line is not written at all, and is what the run returns", async () => {
    const { container, calls } = fakeContainer()
    const out = await setCartTaxLines(container, withLines([was]), handler, true)
    expect(calls.map((x) => x.name)).toEqual(["getTaxLines"])
    expect(out.items).toEqual([{ ...was, item_id: "item_1" }])
  })

  it("a changed line is written into its row (its id); not current: every line replaced as Medusa's step does", async () => {
    const old = { ...was, data: { amount: 1.2 }, rate: 6 }
    const { container, calls } = fakeContainer()
    await setCartTaxLines(container, withLines([old]), handler, true)
    expect(calls.map((x) => x.name)).toEqual(["getTaxLines", "upsertLineItemTaxLines"])
    expect(calls[1]!.args[0]).toEqual([
      {
        id: "txl_1",
        description: "Tax",
        tax_rate_id: "txr_1",
        code: "T",
        rate: 7.5,
        provider_id: "p",
        item_id: "item_1",
        data: { amount: 1.5 },
      },
    ])
    const other = fakeContainer()
    await setCartTaxLines(other.container, withLines([old]), handler, false)
    expect(other.calls.map((x) => x.name)).toEqual(["getTaxLines", "setLineItemTaxLines"])
  })

  it("a count that differs (a line without tax lines yet, two where one is written) or a row with metadata: replaced", async () => {
    for (const lines of [[], [was, { ...was, id: "txl_2" }], [{ ...was, metadata: { k: 1 } }]]) {
      const { container, calls } = fakeContainer()
      await setCartTaxLines(container, withLines(lines), handler, true)
      expect(calls.map((x) => x.name)).toEqual(["getTaxLines", "setLineItemTaxLines"])
    }
  })
})

describe("inPlace", () => {
  const line = { description: "Tax", tax_rate_id: "r", code: "T", rate: 7.5, provider_id: "p", data: { b: 1, a: { y: 2, x: 1 } } }
  it("data compared as content (a jsonb column's key order), a rate as a number", () => {
    const owners = [{ id: "i1", tax_lines: [{ ...line, id: "t1", rate: "7.5", data: { a: { x: 1, y: 2 }, b: 1 } }] }]
    expect(inPlace(owners, [{ ...line, item_id: "i1" }], "item_id")?.update).toEqual([])
  })
  it("a line written for an owner the read did not have: replaced", () => {
    expect(inPlace([], [{ ...line, item_id: "i9" }], "item_id")).toBeUndefined()
  })
})

describe("refreshLeftTaxLines: the refresh wrote no tax line after its read", () => {
  it("only without force_refresh, new items or new shipping methods", () => {
    expect(refreshLeftTaxLines({})).toBe(true)
    expect(refreshLeftTaxLines({ items: [] })).toBe(true)
    expect(refreshLeftTaxLines({ force_refresh: true })).toBe(false)
    expect(refreshLeftTaxLines({ items: [{}] })).toBe(false)
    expect(refreshLeftTaxLines({ shipping_methods: [{}] })).toBe(false)
  })
})

describe("taxContextOf: getItemTaxLinesStep's context", () => {
  it("address, customer with its groups, shipping methods and the hook's context", () => {
    const ctx = taxContextOf(cart({ shipping_methods: [{ id: "sm_1", shipping_option_id: "so_1", amount: 8, name: "Standard" }] }), {
      sales_tax: { v: 1 },
    })
    expect(ctx).toEqual({
      address: {
        country_code: "us",
        province_code: "us-mn",
        address_1: "1 Main",
        address_2: null,
        city: "Minneapolis",
        postal_code: "55401",
        metadata: undefined,
      },
      customer: { id: "cus_1", email: "a@b.c", customer_groups: ["cg_1"], metadata: null },
      is_return: false,
      locale: null,
      shipping_methods: [{ id: "sm_1", name: "Standard", shipping_option_id: "so_1", amount: 8 }],
      additional_context: { sales_tax: { v: 1 } },
    })
  })

  it("hands the cart's values on as read, as Medusa's step does: nulls stay null, an amount stays as Query gave it", () => {
    const amount = { value: "8.5", precision: 20 }
    const ctx = taxContextOf(
      cart({
        customer: { id: "cus_2", email: null, metadata: null, groups: null },
        shipping_methods: [{ id: "sm_1", shipping_option_id: null, amount: amount as never, name: null }],
      }),
      undefined,
    )
    expect(ctx?.customer).toEqual({ id: "cus_2", email: null, customer_groups: [], metadata: null })
    expect(ctx?.shipping_methods).toEqual([{ id: "sm_1", name: null, shipping_option_id: null, amount }])
    expect(ctx?.shipping_methods?.[0]?.amount).toBe(amount)
    expect(taxContextOf(cart({ customer: null }), undefined)?.customer).toBeNull()
  })
})

describe("taxRunFields", () => {
  it("Medusa's fields less the existing tax lines (kept when a host added its own context handler), the handler's, completed_at", () => {
    const f = taxRunFields(false, TAXED_FIELDS)
    expect(f.filter((x) => x.includes("tax_lines"))).toEqual([])
    for (const x of [...UPDATE_TAX_LINES_CART_FIELDS.filter((y) => !y.includes("tax_lines")), ...TAXED_FIELDS, "completed_at"])
      expect(f).toContain(x)
    expect(taxRunFields(true, TAXED_FIELDS)).toEqual(expect.arrayContaining([...UPDATE_TAX_LINES_CART_FIELDS]))
  })
})
