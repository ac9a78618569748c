/** Contract: the provider's own read of the tax-line context (tax-line-context-fallback.ts), against the installed Medusa. */
import * as coreFlows from "@medusajs/core-flows"
import CartModule from "@medusajs/cart"
import OrderModule from "@medusajs/order"
import * as cartModels from "@medusajs/cart/dist/models"
import * as orderModels from "@medusajs/order/dist/models"
import type { QueryScope } from "../query"
import { SalesTaxRuntime } from "../runtime"
import {
  FALLBACK_QUERY_ENTITIES,
  joinerAliases,
  lacksTaxLineContextHook,
  linesOwner,
  noteTaxLineContextHooks,
  taxLineContextFallbackOn,
  routeOrderRef,
  readerDifferences,
  type JoinerLike,
} from "./tax-line-context-fallback"

const joiner = (m: { service: { prototype: object } }): JoinerLike =>
  (m.service.prototype as { __joinerConfig(): JoinerLike }).__joinerConfig()
const schemaKeys = (model: unknown): string[] => Object.keys((model as { schema: Record<string, unknown> }).schema)

/** A Query that answers per entity from `rows` and records what it was asked. */
function fakeQuery(rows: Record<string, Record<string, unknown>[]>) {
  const asked: { entity: string; filters: unknown }[] = []
  const scope = {
    resolve: () => ({
      graph: async ({ entity, filters }: { entity: string; filters: unknown }) => {
        asked.push({ entity, filters })
        return { data: rows[entity] ?? [] }
      },
    }),
  } as unknown as QueryScope
  return { scope, asked }
}

describe("the tax-line context without Medusa's hooks: the reader's assumptions, as installed", () => {
  it("the Cart Module answers Query as line_item and shipping_method, the Order Module as order_item", () => {
    expect(joinerAliases(joiner(CartModule))).toEqual(expect.arrayContaining(Object.keys(FALLBACK_QUERY_ENTITIES.cart)))
    expect(joinerAliases(joiner(OrderModule))).toEqual(expect.arrayContaining(Object.keys(FALLBACK_QUERY_ENTITIES.order)))
    expect(readerDifferences({ cart: joiner(CartModule), order: joiner(OrderModule) })).toEqual([])
  })

  it("a cart line and a cart shipping method belong to a cart (cart_id); an order item links item and order", () => {
    expect(schemaKeys(cartModels.LineItem)).toContain("cart")
    expect(schemaKeys(cartModels.ShippingMethod)).toContain("cart")
    expect(schemaKeys(orderModels.OrderItem)).toEqual(expect.arrayContaining(["order", "item"]))
  })

  it("@medusajs/framework exports the app's container (what Medusa registers Query on)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { container } = require("@medusajs/framework") as { container: { resolve: unknown; hasRegistration: unknown } }
    expect(typeof container.resolve).toBe("function")
    expect(typeof container.hasRegistration).toBe("function")
  })

  it("names what is missing: an entity", () => {
    expect(readerDifferences({ cart: { alias: [{ name: ["line_item", "line_items"] }] }, order: { alias: [] } })).toEqual([
      "the cart module has no Query entity shipping_method",
      ...["order_item", "order_line_item", "order_shipping_method", "order_exchange", "order_claim", "return"].map(
        (e) => `the order module has no Query entity ${e}`,
      ),
    ])
    // a module not loaded (or seen through another copy of the framework): not checked
    expect(readerDifferences({ cart: undefined, order: undefined })).toEqual([])
  })

  it("the installed core-flows has the hooks (no fallback); a core-flows without them (or without the workflow) does", () => {
    const installed = coreFlows as unknown as Record<string, unknown>
    expect(lacksTaxLineContextHook(installed, "cart")).toBe(false)
    expect(lacksTaxLineContextHook(installed, "order")).toBe(false)
    // as 2.15.3 exports them: updateTaxLinesWorkflow without the hook, upsertTaxLinesWorkflow not at all
    const old = { updateTaxLinesWorkflow: { hooks: {} }, updateOrderTaxLinesWorkflow: { hooks: {} } }
    expect(lacksTaxLineContextHook(old, "cart")).toBe(true)
    expect(lacksTaxLineContextHook(old, "order")).toBe(true)
    const onlyUpsertMissing = { ...installed, upsertTaxLinesWorkflow: undefined }
    expect(lacksTaxLineContextHook(onlyUpsertMissing, "cart")).toBe(true)
  })

  it("src/workflows notes it in the runtime the provider reads: on with 2.15's workflows, off with the installed ones", () => {
    const rt = new SalesTaxRuntime()
    expect(taxLineContextFallbackOn(rt)).toBe(false)
    expect(noteTaxLineContextHooks({ updateTaxLinesWorkflow: { hooks: {} }, updateOrderTaxLinesWorkflow: { hooks: {} } }, rt)).toBe(true)
    expect(taxLineContextFallbackOn(rt)).toBe(true)
    expect(noteTaxLineContextHooks(coreFlows as unknown as Record<string, unknown>, rt)).toBe(false)
    expect(taxLineContextFallbackOn(rt)).toBe(false)
  })
})

describe("linesOwner: the cart or order of the provider's lines, through Query", () => {
  it("cart lines: one Query of line_item by the line ids", async () => {
    const q = fakeQuery({ line_item: [{ id: "cali_1", cart_id: "cart_1", is_giftcard: false }] })
    await expect(linesOwner(q.scope, ["cali_1", "cali_2"], ["casm_1"])).resolves.toEqual({ entity: "cart", id: "cart_1", giftCards: [] })
    expect(q.asked).toEqual([{ entity: "line_item", filters: { id: ["cali_1", "cali_2"] } }])
  })

  it("the cart's gift cards among the lines (2.15's tax step hands them over), from the same Query", async () => {
    const q = fakeQuery({
      line_item: [
        { id: "cali_1", cart_id: "cart_1", is_giftcard: false },
        { id: "cali_gc", cart_id: "cart_1", is_giftcard: true },
        { id: "cali_2", cart_id: "cart_1", is_giftcard: null },
      ],
    })
    await expect(linesOwner(q.scope, ["cali_1", "cali_gc", "cali_2"], [])).resolves.toEqual({
      entity: "cart",
      id: "cart_1",
      giftCards: ["cali_gc"],
    })
    expect(q.asked).toHaveLength(1)
  })

  it("the Cart Module's line item has `is_giftcard` (what the reader asks Query for)", () => {
    expect(schemaKeys(cartModels.LineItem)).toEqual(expect.arrayContaining(["is_giftcard"]))
    expect(FALLBACK_QUERY_ENTITIES.cart.line_item).toContain("is_giftcard")
  })

  it("shipping only (Medusa's second call): the shipping method's cart", async () => {
    const q = fakeQuery({ shipping_method: [{ id: "casm_1", cart_id: "cart_1" }] })
    await expect(linesOwner(q.scope, [], ["casm_1"])).resolves.toEqual({ entity: "cart", id: "cart_1", giftCards: [] })
    expect(q.asked).toEqual([{ entity: "shipping_method", filters: { id: ["casm_1"] } }])
  })

  it("order lines: not a cart's, so the order item's order", async () => {
    const q = fakeQuery({ order_item: [{ item_id: "ordli_1", order_id: "order_1" }] })
    await expect(linesOwner(q.scope, ["ordli_1"], [])).resolves.toEqual({ entity: "order", id: "order_1" })
    expect(q.asked.map((a) => a.entity)).toEqual(["line_item", "order_item"])
    expect(q.asked[1]!.filters).toEqual({ item_id: ["ordli_1"] })
  })

  it("lines nobody owns yet, outside an admin order route: undefined", async () => {
    const q = fakeQuery({})
    await expect(linesOwner(q.scope, ["ordli_new"], ["ordsm_new"])).resolves.toBeUndefined()
    await expect(linesOwner(q.scope, ["ordli_new"], [], "/store/carts/cart_1")).resolves.toBeUndefined()
    await expect(linesOwner(q.scope, [], [])).resolves.toBeUndefined()
  })

  it("an exchange's new line (not on the order yet): the exchange's order, with the line as the hook gets it", async () => {
    const line = { id: "ordli_new", product_id: "prod_1", variant_id: "variant_1", unit_price: 25, is_tax_inclusive: false }
    const q = fakeQuery({ order_exchange: [{ order_id: "order_1" }], order_line_item: [line] })
    await expect(linesOwner(q.scope, ["ordli_new"], [], "/admin/exchanges/oexc_1/outbound/items?fields=id")).resolves.toEqual({
      entity: "order",
      id: "order_1",
      newItems: [line],
    })
    expect(q.asked.map((a) => a.entity)).toEqual(["line_item", "order_item", "order_exchange", "order_line_item"])
    expect(q.asked[2]!.filters).toEqual({ id: "oexc_1" })
  })

  it("an order edit's new shipping method: the order the path names, with the method", async () => {
    const sm = { id: "ordsm_1", shipping_option_id: "so_1", amount: 10 }
    const q = fakeQuery({ order_shipping_method: [sm] })
    await expect(linesOwner(q.scope, [], ["ordsm_1"], "/admin/order-edits/order_9/shipping-method")).resolves.toEqual({
      entity: "order",
      id: "order_9",
      newShipping: [sm],
    })
    expect(q.asked.map((a) => a.entity)).toEqual(["shipping_method", "order_shipping_method"])
  })

  it("routeOrderRef: the order entity an admin path names", () => {
    expect(routeOrderRef("/admin/order-edits/order_1/items")).toEqual({ entity: "order", id: "order_1" })
    expect(routeOrderRef("/admin/draft-orders/order_2/edit/items")).toEqual({ entity: "order", id: "order_2" })
    expect(routeOrderRef("/admin/claims/claim_1/outbound/items")).toEqual({ entity: "order_claim", id: "claim_1" })
    expect(routeOrderRef("/admin/returns/return_1/shipping-method")).toEqual({ entity: "return", id: "return_1" })
    expect(routeOrderRef("/admin/products/prod_1")).toBeUndefined()
    expect(routeOrderRef("/store/carts/cart_1")).toBeUndefined()
    expect(routeOrderRef(undefined)).toBeUndefined()
  })
})
