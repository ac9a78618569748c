import { SALES_TAX_MODULE } from "../../constants"
import { QUERY_KEY, type QueryScope } from "../../query"
import { resolveProductTics } from "./product-tics"

type Target = "product" | "product_type" | "product_category"

/** A scope with a Query over `products` and, unless `module` is false, the salesTax module over `tics`. */
function scopeOf(products: unknown[], tics: Record<Target, Record<string, number>>, module = true) {
  const asked: { target: Target; ids: string[] }[] = []
  const svc = {
    getTics: async (target: Target, ids: string[]) => {
      asked.push({ target, ids: [...ids].sort() })
      return Object.fromEntries(ids.filter((i) => tics[target][i] !== undefined).map((i) => [i, tics[target][i]]))
    },
  }
  const query = {
    graph: async (input: { filters: { id: string[] } }) => ({
      data: products.filter((p) => input.filters.id.includes((p as { id: string }).id)),
    }),
  }
  const scope = {
    resolve: (key: string) => {
      if (key === QUERY_KEY) return query
      if (key === SALES_TAX_MODULE) return module ? svc : undefined
      throw new Error(`unexpected ${key}`)
    },
  } as unknown as QueryScope
  return { scope, asked }
}

const PRODUCTS = [
  { id: "prod_own", type_id: "ptyp_1", categories: [] },
  { id: "prod_type", type_id: "ptyp_1", categories: [{ id: "pcat_leaf", mpath: "pcat_root.pcat_leaf" }] },
  { id: "prod_cat", type_id: null, categories: [{ id: "pcat_leaf", mpath: "pcat_root.pcat_leaf" }] },
  { id: "prod_none", type_id: "ptyp_2", categories: null },
]
const TICS = { product: { prod_own: 31000 }, product_type: { ptyp_1: 20010 }, product_category: { pcat_root: 40030 } }

describe("resolveProductTics", () => {
  it("product → type → category (nearest ancestor) → default; a missing product is absent", async () => {
    const { scope, asked } = scopeOf(PRODUCTS, TICS)
    const out = await resolveProductTics(scope, ["prod_own", "prod_type", "prod_cat", "prod_none", "prod_gone", "prod_own", ""], 0)
    expect(Object.fromEntries(out)).toEqual({
      prod_own: { tic: 31000, source: "product", sourceId: "prod_own" },
      prod_type: { tic: 20010, source: "product_type", sourceId: "ptyp_1" },
      prod_cat: { tic: 40030, source: "product_category", sourceId: "pcat_root" },
      prod_none: { tic: 0, source: "default", sourceId: null },
    })
    // one read per level; the categories' whole ancestry
    expect(asked).toEqual([
      { target: "product", ids: ["prod_cat", "prod_none", "prod_own", "prod_type"] },
      { target: "product_type", ids: ["ptyp_1", "ptyp_2"] },
      { target: "product_category", ids: ["pcat_leaf", "pcat_root"] },
    ])
  })

  it("without the salesTax module every product has the default; no ids, no reads", async () => {
    const { scope } = scopeOf(PRODUCTS, TICS, false)
    const out = await resolveProductTics(scope, ["prod_own"], 11000)
    expect(out.get("prod_own")).toEqual({ tic: 11000, source: "default", sourceId: null })
    expect((await resolveProductTics(scope, [], 0)).size).toBe(0)
  })
})
