/** Contract: the provider's own read of the tax-line context (tax-line-context-fallback.ts), against the installed Medusa. */
import * as coreFlows from "@medusajs/core-flows"
import CartModule from "@medusajs/cart"
import OrderModule from "@medusajs/order"
import * as cartModels from "@medusajs/cart/dist/models"
import * as orderModels from "@medusajs/order/dist/models"
import type { QueryScope } from "../query"
import {
  FALLBACK_QUERY_ENTITIES,
  joinerAliases,
  lacksTaxLineContextHook,
  linesOwner,
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
    expect(readerDifferences({ cart: { alias: [{ name: ["line_item", "line_items"] }] }, order: undefined })).toEqual([
      "the cart module has no Query entity shipping_method",
      "the order module has no Query entity order_item",
    ])
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
})

describe("linesOwner: the cart or order of the provider's lines, through Query", () => {
  it("cart lines: one Query of line_item by the line ids", async () => {
    const q = fakeQuery({ line_item: [{ id: "cali_1", cart_id: "cart_1" }] })
    await expect(linesOwner(q.scope, ["cali_1", "cali_2"], ["casm_1"])).resolves.toEqual({ entity: "cart", id: "cart_1" })
    expect(q.asked).toEqual([{ entity: "line_item", filters: { id: ["cali_1", "cali_2"] } }])
  })

  it("shipping only (Medusa's second call): the shipping method's cart", async () => {
    const q = fakeQuery({ shipping_method: [{ id: "casm_1", cart_id: "cart_1" }] })
    await expect(linesOwner(q.scope, [], ["casm_1"])).resolves.toEqual({ entity: "cart", id: "cart_1" })
    expect(q.asked).toEqual([{ entity: "shipping_method", filters: { id: ["casm_1"] } }])
  })

  it("order lines: not a cart's, so the order item's order", async () => {
    const q = fakeQuery({ order_item: [{ item_id: "ordli_1", order_id: "order_1" }] })
    await expect(linesOwner(q.scope, ["ordli_1"], [])).resolves.toEqual({ entity: "order", id: "order_1" })
    expect(q.asked.map((a) => a.entity)).toEqual(["line_item", "order_item"])
    expect(q.asked[1]!.filters).toEqual({ item_id: ["ordli_1"] })
  })

  it("lines nobody owns yet (an order edit's new line): undefined", async () => {
    const q = fakeQuery({})
    await expect(linesOwner(q.scope, ["ordli_new"], ["ordsm_new"])).resolves.toBeUndefined()
    await expect(linesOwner(q.scope, [], [])).resolves.toBeUndefined()
  })
})
