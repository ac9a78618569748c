import { StepResponse } from "@medusajs/framework/workflows-sdk"
import { composeTaxLineContext, lineQuantity, newLineForSnapshot, salesTaxTaxLineContext } from "./tax-line-context-handler"
import type { TaxedEntity, TaxLineHookInput } from "../../medusa/taxed-entity"
import { cartRefreshStorage } from "./request-actor"
import fc from "fast-check"
import { buildServiceCart } from "../../service/cart/build-service-cart"
import { CartSnapshot } from "../../service/cart/context"

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
  // Medusa: an exchange's / edit's new line is read from order_line_item, which has no quantity
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

  const snapshotOf = async (items: TaxLineHookInput["items"]) => {
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

describe("a cart the refresh hook read for this tax run (scope.taxCart)", () => {
  const adjustment = fc.record({ amount: fc.integer({ min: 0, max: 500 }).map((c) => c / 100), is_tax_inclusive: fc.boolean() })
  const cartArb = fc.record({
    id: fc.constantFrom("cart_1"),
    currency_code: fc.constant("usd"),
    customer_id: fc.option(fc.constantFrom("cus_1", "cus_2"), { nil: null }),
    sales_channel_id: fc.option(fc.constant("sc_1"), { nil: null }),
    items: fc.array(
      fc.record({
        id: fc.uuid().map((u) => `cali_${u}`),
        product_id: fc.option(fc.constantFrom("prod_1", "prod_2"), { nil: null }),
        variant_id: fc.option(fc.constant("variant_1"), { nil: null }),
        quantity: fc.integer({ min: 0, max: 9 }),
        unit_price: fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100),
        is_tax_inclusive: fc.boolean(),
        is_giftcard: fc.boolean(),
        adjustments: fc.array(adjustment, { maxLength: 2 }),
      }),
      { maxLength: 4 },
    ),
    shipping_methods: fc.array(
      fc.record({
        id: fc.uuid().map((u) => `casm_${u}`),
        shipping_option_id: fc.option(fc.constant("so_1"), { nil: null }),
        amount: fc.integer({ min: 0, max: 5000 }).map((c) => c / 100),
        is_tax_inclusive: fc.boolean(),
        adjustments: fc.array(adjustment, { maxLength: 1 }),
      }),
      { maxLength: 2 },
    ),
  })

  it("gives the snapshot that reading the cart gives (random carts), without reading it; another cart or no scope is read", async () => {
    await fc.assert(
      fc.asyncProperty(cartArb, async (cart) => {
        let cartReads = 0
        const container = {
          resolve(key: string) {
            if (key === "query")
              return {
                graph: async (q: { entity: string }) => {
                  if (q.entity === "cart") cartReads++
                  return { data: q.entity === "cart" ? [structuredClone(cart)] : [] }
                },
              }
            throw new Error(`not registered: ${key}`)
          },
        } as never
        const snapshot = async () =>
          ((await salesTaxTaxLineContext({ cart: { id: "cart_1" } }, { container })) as unknown as { output: Record<string, unknown> })
            .output
        const read = await snapshot()
        expect(cartReads).toBe(1)
        const prepared = await cartRefreshStorage().run(
          { cartId: "cart_1", knownUs: true, taxCart: structuredClone(cart) as TaxedEntity },
          snapshot,
        )
        expect(cartReads).toBe(1)
        expect(prepared).toEqual(read)
        // a scope holding another cart: this one is read
        await cartRefreshStorage().run(
          { cartId: "cart_2", knownUs: true, taxCart: { ...structuredClone(cart), id: "cart_2" } as TaxedEntity },
          snapshot,
        )
        expect(cartReads).toBe(2)
      }),
      { numRuns: 200 },
    )
  })
})
