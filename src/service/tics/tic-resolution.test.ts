import fc from "fast-check"
import { categoryTics, resolveProductTic, resolveTic, type AssignedTics } from "./tic-resolution"

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

describe("resolveProductTic", () => {
  const cats = [
    { id: "pcat_b", mpath: "pcat_root.pcat_b" },
    { id: "pcat_leaf", mpath: "pcat_root.pcat_mid.pcat_leaf" },
  ]
  const none = { product: {}, productType: {}, productCategory: {} }

  it("names the level and the id that carries the TIC", () => {
    const row = { id: "prod_1", typeId: "ptyp_1", categories: cats }
    expect(resolveProductTic(row, { ...none, product: { prod_1: 0 }, productType: { ptyp_1: 20010 } }, 5)).toEqual({
      tic: 0,
      source: "product",
      sourceId: "prod_1",
    })
    expect(resolveProductTic(row, { ...none, productType: { ptyp_1: 20010 }, productCategory: { pcat_b: 1 } }, 5)).toEqual({
      tic: 20010,
      source: "product_type",
      sourceId: "ptyp_1",
    })
    // the deepest category (leaf) inherits mid's TIC before b's own
    expect(resolveProductTic(row, { ...none, productCategory: { pcat_mid: 40030, pcat_b: 30070 } }, 5)).toEqual({
      tic: 40030,
      source: "product_category",
      sourceId: "pcat_mid",
    })
    expect(resolveProductTic(row, { ...none, productCategory: { pcat_b: 30070 } }, 5)).toEqual({
      tic: 30070,
      source: "product_category",
      sourceId: "pcat_b",
    })
    expect(resolveProductTic({ id: "prod_2", typeId: null, categories: [] }, none, 5)).toEqual({
      tic: 5,
      source: "default",
      sourceId: null,
    })
  })

  it("property: the same TIC and level as resolveTic over categoryTics", () => {
    const id = fc.constantFrom("a", "b", "c", "d")
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, fc.array(id, { maxLength: 3 })), { maxLength: 4 }),
        fc.dictionary(id, fc.integer({ min: 0, max: 99999 })),
        ticOrNull,
        ticOrNull,
        (raw, catTics, own, type) => {
          const categories = raw.map(([c, anc]) => ({ id: c, mpath: [...anc, c].join(".") }))
          const assigned: AssignedTics = {
            product: own === null ? {} : { p: own },
            productType: type === null ? {} : { t: type },
            productCategory: catTics,
          }
          const r = resolveProductTic({ id: "p", typeId: "t", categories }, assigned, 7)
          const expected = resolveTic({ product: own, productType: type, categories: categoryTics(categories, catTics), defaultTic: 7 })
          expect({ tic: r.tic, source: r.source }).toEqual(expected)
          if (r.source === "product_category") expect(catTics[r.sourceId!]).toBe(r.tic)
        },
      ),
    )
  })
})
