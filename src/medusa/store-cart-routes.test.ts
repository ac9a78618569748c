/**
 * Contract test of src/medusa/store-cart-routes.ts against the installed @medusajs/medusa: each store
 * cart mutation the plugin refreshes exists and answers through one res.json with the cart, read with
 * the route's query fields.
 */
import {
  CART_ITSELF_RE,
  CART_RE,
  PROMOTIONS_RE,
  STORE_CART_MUTATIONS,
  answerKeys,
  interceptAnswer,
  routeFields,
  storeCartRouteDifferences,
  unwrapWorkflowError,
} from "./store-cart-routes"
import { installedSource, medusaRouteFile } from "./installed"

describe("store cart routes (contract with the installed @medusajs/medusa)", () => {
  it("every route file exists and answers with the cart under the key the plugin reads", () => {
    expect(storeCartRouteDifferences()).toEqual([])
    for (const r of STORE_CART_MUTATIONS) {
      const file = medusaRouteFile(r.matcher)
      expect([file, answerKeys(installedSource("@medusajs/medusa", file)!)]).toEqual([file, expect.arrayContaining([r.answers])])
    }
  })

  it("a route gone, or answering another shape, is named", () => {
    const read = (rel: string) =>
      rel.includes("promotions")
        ? undefined
        : rel.includes("customer")
          ? "res.status(200).json({ customer })"
          : rel.includes("shipping")
            ? "refetchCart(id, req.scope, defaultFields); res.json({ cart })"
            : "refetchCart(id, req.scope, req.queryConfig.fields); res.json({ cart })"
    expect(storeCartRouteDifferences(read)).toEqual([
      "api/store/carts/[id]/line-items/[line_id]/route.js: no res.json answer with `parent`",
      "api/store/carts/[id]/promotions/route.js: missing",
      "api/store/carts/[id]/shipping-methods/route.js: its answer is not read with req.queryConfig.fields",
      "api/store/carts/[id]/customer/route.js: no res.json answer with `cart`",
    ])
  })

  it("routeFields: the fields the route answers with, when its query config has them", () => {
    expect(routeFields({ queryConfig: { fields: ["id", "*items"] } })).toEqual(["id", "*items"])
    expect(routeFields({})).toBeUndefined()
  })

  it("the path patterns: each route's cart id; the cart itself and the promotions routes alone", () => {
    const paths = STORE_CART_MUTATIONS.map((r) => r.matcher.replace(":id", "cart_1").replace(":line_id", "li_1"))
    expect(paths.map((p) => CART_RE.exec(p)?.[1])).toEqual(paths.map(() => "cart_1"))
    expect(paths.filter((p) => CART_ITSELF_RE.test(p))).toEqual(["/store/carts/cart_1"])
    expect(paths.filter((p) => PROMOTIONS_RE.test(p))).toEqual(["/store/carts/cart_1/promotions"])
    expect(CART_ITSELF_RE.test("/store/carts/cart_1/")).toBe(true)
  })
})

describe("answerKeys", () => {
  it("reads res.json and res.status(n).json bodies, shorthand or keyed, across lines", () => {
    expect(answerKeys("res.json({ cart })")).toEqual(["cart"])
    expect(answerKeys("res.status(200).json({ cart: updatedCart })")).toEqual(["cart"])
    expect(answerKeys("res.status(200).json({\n id: id,\n object: 'line-item',\n deleted: true,\n parent: cart,\n })")).toEqual(["parent"])
    expect(answerKeys("res.json({ carts })")).toEqual([])
    expect(answerKeys("res.json({ customer })")).toEqual([])
  })
})

describe("interceptAnswer", () => {
  it("hands the first answer to the handler once; later calls go straight through", () => {
    const sent: unknown[] = []
    const res = { json: (b: unknown) => (sent.push(b), "sent") }
    const seen: unknown[] = []
    interceptAnswer(res, (body, send) => {
      seen.push(body)
      return send({ wrapped: body })
    })
    expect(res.json({ cart: 1 })).toBe("sent")
    expect(res.json({ error: 2 })).toBe("sent")
    expect(seen).toEqual([{ cart: 1 }])
    expect(sent).toEqual([{ wrapped: { cart: 1 } }, { error: 2 }])
  })
})

describe("unwrapWorkflowError", () => {
  it("the step's error inside a workflow's errors[], else the error itself", () => {
    const inner = new Error("step")
    expect(unwrapWorkflowError({ errors: [{}, { error: inner }] })).toBe(inner)
    const plain = new Error("plain")
    expect(unwrapWorkflowError(plain)).toBe(plain)
    expect(unwrapWorkflowError(null)).toBeNull()
  })
})
