import fc from "fast-check"
import { SALES_TAX_MODULE } from "../../constants"
import { QUERY_KEY, type QueryScope } from "../../query"
import { resolveProductTics } from "./product-tics"
import { cachedProductTics, ticAssignmentsChanged } from "./product-tic-cache"
import { resetRuntime } from "../../runtime"

type Target = "product" | "product_type" | "product_category"
type Tics = Record<Target, Record<string, number>>

/** A store: products (type, categories) through Query, TIC assignments through the salesTax module; reads counted. */
function storeOf(products: { id: string; type_id: string | null; categories: { id: string; mpath: string }[] }[], tics: Tics) {
  const reads = { products: 0, tics: 0 }
  const svc = {
    getTics: async (target: Target, ids: string[]) => {
      reads.tics++
      return Object.fromEntries(ids.filter((i) => tics[target][i] !== undefined).map((i) => [i, tics[target][i]]))
    },
    // as the salesTax module's setTic does: the write, then the change is counted
    setTic: async (target: Target, id: string, tic: number | null) => {
      if (tic === null) delete tics[target][id]
      else tics[target][id] = tic
      ticAssignmentsChanged()
    },
  }
  const query = {
    graph: async (input: { filters: { id: string[] } }) => {
      reads.products++
      return { data: structuredClone(products.filter((p) => input.filters.id.includes(p.id))) }
    },
  }
  const scope = {
    resolve: (key: string) => {
      if (key === QUERY_KEY) return query
      if (key === SALES_TAX_MODULE) return svc
      throw new Error(`unexpected ${key}`)
    },
  } as unknown as QueryScope
  return { scope, reads, svc }
}

const PRODUCTS = [
  { id: "prod_a", type_id: "ptyp_1", categories: [] },
  { id: "prod_b", type_id: "ptyp_2", categories: [{ id: "pcat_leaf", mpath: "pcat_root.pcat_leaf" }] },
  { id: "prod_c", type_id: null, categories: [{ id: "pcat_root", mpath: "pcat_root" }] },
]

describe("product TICs kept across cart changes", () => {
  beforeEach(() => resetRuntime())

  it("against reading every time (the old behaviour): the same TIC and source for any sequence of cart changes and TIC assignment writes", async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("cart" as const), ids: fc.subarray(["prod_a", "prod_b", "prod_c", "prod_gone"]) }),
      fc.record({
        kind: fc.constant("set" as const),
        target: fc.constantFrom<Target>("product", "product_type", "product_category"),
        id: fc.constantFrom("prod_a", "prod_b", "prod_c", "ptyp_1", "ptyp_2", "pcat_root", "pcat_leaf"),
        tic: fc.option(fc.constantFrom(20010, 31000, 40030), { nil: null }),
      }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), fc.constantFrom(0, 11099), async (ops, defaultTic) => {
        resetRuntime()
        const { scope, reads, svc } = storeOf(PRODUCTS, { product: {}, product_type: {}, product_category: {} })
        let cartChanges = 0
        for (const o of ops) {
          if (o.kind === "set") {
            await svc.setTic(o.target, o.id, o.tic)
            continue
          }
          cartChanges++
          const got = await cachedProductTics(scope, o.ids, defaultTic)
          const want = await resolveProductTics(scope, o.ids, defaultTic)
          expect(new Map([...got].sort())).toEqual(new Map([...want].sort()))
        }
        // the reference reads every time; the cache reads at most as often
        expect(reads.products).toBeLessThanOrEqual(2 * cartChanges)
      }),
      { numRuns: 300 },
    )
  })

  it("reads a product once until a TIC assignment is written; a read that ran across a write is not kept", async () => {
    const { scope, reads, svc } = storeOf(PRODUCTS, { product: {}, product_type: { ptyp_1: 20010 }, product_category: {} })
    expect((await cachedProductTics(scope, ["prod_a"], 0)).get("prod_a")).toMatchObject({ tic: 20010, source: "product_type" })
    await cachedProductTics(scope, ["prod_a"], 0)
    await cachedProductTics(scope, ["prod_a", "prod_a"], 0)
    expect(reads.products).toBe(1)
    await svc.setTic("product", "prod_a", 31000)
    expect((await cachedProductTics(scope, ["prod_a"], 0)).get("prod_a")).toMatchObject({ tic: 31000, source: "product" })
    expect(reads.products).toBe(2)
    // another default TIC is another answer
    await cachedProductTics(scope, ["prod_c"], 0)
    await cachedProductTics(scope, ["prod_c"], 11099)
    expect(reads.products).toBe(4)
    // a write while a read is in flight: that read is answered, not kept
    const inFlight = cachedProductTics(scope, ["prod_b"], 0)
    await svc.setTic("product_category", "pcat_root", 40030)
    await inFlight
    expect((await cachedProductTics(scope, ["prod_b"], 0)).get("prod_b")).toMatchObject({ tic: 40030, source: "product_category" })
    expect(reads.products).toBe(6)
  })
})
