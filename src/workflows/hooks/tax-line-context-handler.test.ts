import { StepResponse } from "@medusajs/framework/workflows-sdk"
import { composeTaxLineContext, lineQuantity, newLineForSnapshot, salesTaxTaxLineContext } from "./tax-line-context-handler"
import { buildServiceCart } from "../../core/build-service-cart"
import { CartSnapshot } from "../../core/context"

const ADDR = { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" }

const ctx = { container: {} as never }

describe("composeTaxLineContext", () => {
  it("runs every handler with the same input and merges their results; sales_tax stays the plugin's", async () => {
    const seen: unknown[] = []
    const ours = async (input: unknown) => {
      seen.push(input)
      return new StepResponse({ sales_tax: { v: 1, cart_id: "cart_1" }, shared: "ours" })
    }
    const host = async (input: unknown) => {
      seen.push(input)
      return { shared: "host", loyalty_tier: "gold", sales_tax: "must not win" }
    }
    const plainStep = () => new StepResponse({ extra: 1 })
    const composed = composeTaxLineContext(ours, host, plainStep)
    const out = await composed({ cart: { id: "cart_1" } }, ctx)
    expect(out).toBeInstanceOf(StepResponse)
    const value = (out as unknown as { output: Record<string, unknown> }).output
    expect(value).toEqual({ sales_tax: { v: 1, cart_id: "cart_1" }, shared: "host", loyalty_tier: "gold", extra: 1 })
    expect(seen).toEqual([{ cart: { id: "cart_1" } }, { cart: { id: "cart_1" } }])
  })

  it("handlers returning nothing contribute nothing", async () => {
    const out = await composeTaxLineContext(
      async () => undefined,
      () => ({ a: 1 }),
    )({}, ctx)
    expect((out as unknown as { output: unknown }).output).toEqual({ a: 1 })
  })
})

describe("order snapshot: lines the order workflow passes before they are on the order", () => {
  // Medusa 2.21: an exchange's / edit's new line is read from order_line_item, which has no quantity
  const order = {
    id: "order_1",
    currency_code: "usd",
    customer_id: "cus_1",
    // an order line's quantity is on its order_item (`detail`, read as items.detail.quantity)
    items: [{ id: "ordli_old", product_id: "prod_1", detail: { quantity: 3 }, unit_price: 10, adjustments: [] }],
    shipping_methods: [],
  }
  const container = {
    resolve(key: string) {
      if (key === "query") {
        return { graph: async (q: { entity: string }) => ({ data: q.entity === "order" ? [structuredClone(order)] : [] }) }
      }
      throw new Error(`not registered: ${key}`)
    },
  } as never

  const snapshotOf = async (items: unknown[] | undefined) => {
    const out = await salesTaxTaxLineContext({ order: { id: "order_1" }, items, shipping_methods: [] }, { container })
    return (out as unknown as { output: { sales_tax: { items: { id: string; quantity: string; unit_price: string }[] } } }).output.sales_tax
  }

  it("a new line without a quantity is quoted for one unit (not 0, which left it untaxed)", async () => {
    const snap = await snapshotOf([{ id: "ordli_new", product_id: "prod_2", unit_price: 89.99 }])
    // a run for some lines quotes those lines: the order's other lines are left out (quantity 0)
    expect(snap.items.map((i) => [i.id, i.quantity, i.unit_price])).toEqual([
      ["ordli_old", "0", "10"],
      ["ordli_new", "1", "89.99"],
    ])
    // and the provider's service cart keeps it (a quantity-0 line would be dropped)
    const cart = buildServiceCart({
      snapshot: CartSnapshot.parse(snap),
      origin: ADDR,
      destination: ADDR,
      shippingTic: 11010,
      defaultTic: 0,
      exemptionId: null,
    })
    expect(cart.lineItems.find((l) => l.itemId === "ordli_new")).toMatchObject({ quantity: 1, price: 89.99 })
  })

  it("a quantity the workflow does give is kept; lines already on the order are not duplicated", async () => {
    const snap = await snapshotOf([
      { id: "ordli_new", product_id: "prod_2", unit_price: 5, quantity: 4 },
      { id: "ordli_old", quantity: 99 },
    ])
    expect(snap.items.map((i) => [i.id, i.quantity])).toEqual([
      ["ordli_old", "0"],
      ["ordli_new", "4"],
    ])
  })

  it("a run over the whole order (a draft order's creation: no items passed) quotes every line at its order_item quantity", async () => {
    const snap = await snapshotOf(undefined)
    expect(snap.items.map((i) => [i.id, i.quantity, i.unit_price])).toEqual([["ordli_old", "3", "10"]])
  })

  it("newLineForSnapshot: missing, null or 0 → 1", () => {
    expect(newLineForSnapshot({ id: "a" } as { id: string; quantity?: unknown }).quantity).toBe(1)
    expect(newLineForSnapshot({ id: "a", quantity: null }).quantity).toBe(1)
    expect(newLineForSnapshot({ id: "a", quantity: 0 }).quantity).toBe(1)
    expect(newLineForSnapshot({ id: "a", quantity: "2" }).quantity).toBe("2")
  })
})

describe("lineQuantity", () => {
  it("a cart line's own quantity; an order line's from its order_item detail (query.graph gives an order line none)", () => {
    expect(lineQuantity({ quantity: 3 })).toBe(3)
    expect(lineQuantity({ detail: { quantity: 2 } })).toBe(2)
    expect(lineQuantity({ quantity: 5, detail: { quantity: 2 } })).toBe(5)
    expect(lineQuantity({})).toBeUndefined()
  })
})
