import fc from "fast-check"
import { categoryTics, resolveTic } from "./tic-resolution"

const ticOrNull = fc.option(fc.integer({ min: 0, max: 99999 }), { nil: null })

describe("resolveTic", () => {
  it("product → product type → category → default", () => {
    expect(resolveTic({ product: 20010, productType: 30070, categories: [40030], defaultTic: 0 })).toEqual({
      tic: 20010,
      source: "product",
    })
    expect(resolveTic({ product: null, productType: 30070, categories: [40030], defaultTic: 0 })).toEqual({
      tic: 30070,
      source: "product_type",
    })
    expect(resolveTic({ productType: null, categories: [null, 40030], defaultTic: 0 })).toEqual({ tic: 40030, source: "product_category" })
    expect(resolveTic({ categories: [], defaultTic: 11000 })).toEqual({ tic: 11000, source: "default" })
    // 0 is a real TIC (general goods), not "absent"
    expect(resolveTic({ product: 0, productType: 20010, defaultTic: 5 })).toEqual({ tic: 0, source: "product" })
  })

  it("property: the first defined level wins", () => {
    fc.assert(
      fc.property(ticOrNull, ticOrNull, fc.array(ticOrNull, { maxLength: 4 }), fc.integer({ min: 0, max: 99999 }), (p, t, cats, d) => {
        const r = resolveTic({ product: p, productType: t, categories: cats, defaultTic: d })
        const expected = [p, t, ...cats].find((x) => x !== null)
        expect(r.tic).toBe(expected ?? d)
        if (p !== null) expect(r.source).toBe("product")
        else if (t !== null) expect(r.source).toBe("product_type")
        else if (cats.some((c) => c !== null)) expect(r.source).toBe("product_category")
        else expect(r.source).toBe("default")
      }),
    )
  })
})

describe("categoryTics", () => {
  it("deepest category first, nearest ancestor's TIC", () => {
    const cats = [
      { id: "pcat_b", mpath: "pcat_root.pcat_b" },
      { id: "pcat_leaf", mpath: "pcat_root.pcat_mid.pcat_leaf" },
    ]
    // leaf has none, mid has 20010; b has 30070
    expect(categoryTics(cats, { pcat_mid: 20010, pcat_b: 30070 })).toEqual([20010, 30070])
    expect(categoryTics(cats, { pcat_root: 1 })).toEqual([1, 1])
    expect(categoryTics([{ id: "x" }], {})).toEqual([null])
  })
})
