import { excerpt, inspectPath, inspectRequest, inspectTree, invalidData, safeErrorBody, INPUT_LIMITS } from "./input-guard"

function nested(depth: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v }
  return v
}

describe("excerpt: short and never nested", () => {
  it("keeps primitives, cuts strings, summarizes objects and arrays", () => {
    expect(excerpt(12)).toBe(12)
    expect(excerpt(true)).toBe(true)
    expect(excerpt(null)).toBeNull()
    expect(excerpt(undefined)).toBeUndefined()
    expect(excerpt("x".repeat(100))).toBe(`${"x".repeat(INPUT_LIMITS.excerptLength)}…`)
    expect(excerpt("a\u0000b")).toBe("a\ufffdb")
    expect(excerpt([1, 2, 3])).toBe("[array of 3]")
    expect(excerpt({ a: 1 })).toBe("{object with 1 key}")
    expect(excerpt(nested(100_001))).toBe("{object with 1 key}")
  })
})

describe("inspectTree", () => {
  it("accepts the deepest body a route takes and refuses one level more than the limit", () => {
    expect(inspectTree(nested(INPUT_LIMITS.maxBodyDepth), "body")).toBeUndefined()
    const p = inspectTree(nested(INPUT_LIMITS.maxBodyDepth + 1), "body")
    expect(p).toMatchObject({ message: `is nested deeper than ${INPUT_LIMITS.maxBodyDepth} levels` })
    expect(p!.location.startsWith("body.a[0].a")).toBe(true)
    expect(typeof p!.value).toBe("string")
  })

  it("walks 30,000 levels without overflowing the stack", () => {
    // JSON.parse builds such a value from a 60 kB body; JSON.stringify of it overflows
    const deep = JSON.parse("[".repeat(30_000) + "]".repeat(30_000))
    expect(() => JSON.stringify(deep)).toThrow(RangeError)
    expect(inspectTree(deep, "body")?.message).toMatch(/nested deeper/)
  })

  it("refuses control characters in strings and keys; tab/newline allowed in bodies only", () => {
    expect(inspectTree({ a: ["ok", "b\u0000ad"] }, "body")).toEqual({
      location: "body.a[1]",
      message: "must not contain control characters",
      value: "b\ufffdad",
    })
    expect(inspectTree({ ["k\u0001"]: 1 }, "body")?.message).toMatch(/key must not contain/)
    expect(inspectTree({ note: "line1\nline2\tx\r" }, "body")).toBeUndefined()
    expect(inspectTree({ order_id: "\u0000" }, "query")).toMatchObject({ location: "query.order_id" })
    expect(inspectTree({ q: "a\nb" }, "query")).toMatchObject({ location: "query.q" })
  })
})

describe("inspectPath: the raw path before Express decodes it", () => {
  it("refuses broken percent-encoding, control characters and dot segments", () => {
    expect(inspectPath("/admin/sales-tax/certificates/%E0%A4%A")).toMatchObject({ location: "path", message: /percent-encoding/ })
    expect(inspectPath("/admin/sales-tax/certificates/%zz")).toMatchObject({ message: /percent-encoding/ })
    expect(inspectPath("/admin/sales-tax/filings/order_1%00")).toMatchObject({ message: /control characters/ })
    expect(inspectPath("/admin/sales-tax/certificates/..")).toMatchObject({ message: /dot segment/ })
    expect(inspectPath("/admin/sales-tax/certificates/%2E%2e")).toMatchObject({ message: /dot segment/ })
    expect(inspectPath("/admin/sales-tax/certificates/.")).toMatchObject({ message: /dot segment/ })
  })
  it("accepts ordinary and encoded segments and ignores the query string", () => {
    expect(inspectPath("/admin/sales-tax/tics/product/prod_01ABC?x=%zz")).toBeUndefined()
    expect(inspectPath("/admin/sales-tax/certificates/a%2Fb%20c")).toBeUndefined()
    expect(inspectPath("/admin/sales-tax/certificates/...")).toBeUndefined()
  })
  it("inspectRequest checks path, then query, then body", () => {
    expect(inspectRequest({ originalUrl: "/x/%zz", query: { a: "\u0000" }, body: nested(50) })?.location).toBe("path")
    expect(inspectRequest({ originalUrl: "/x", query: { a: "\u0000" }, body: nested(50) })?.location).toBe("query.a")
    expect(inspectRequest({ originalUrl: "/x", query: {}, body: nested(50) })?.message).toMatch(/nested/)
    expect(inspectRequest({ originalUrl: "/x", query: {}, body: { ok: 1 } })).toBeUndefined()
  })
})

describe("error bodies", () => {
  it("invalidData is Medusa's invalid_data with located errors, values as excerpts, the first three named", () => {
    expect(invalidData([{ location: "body.a", message: "is nested deeper than 10 levels", value: { x: 1 } }])).toEqual({
      type: "invalid_data",
      message: "Invalid request: a: is nested deeper than 10 levels",
      errors: [{ location: "body.a", message: "is nested deeper than 10 levels", value: "{object with 1 key}" }],
    })
    const four = ["a", "b", "c", "d"].map((f) => ({ location: `query.${f}`, message: "bad" }))
    expect(invalidData(four).message).toBe("Invalid request: query.a: bad; query.b: bad; query.c: bad")
    expect(invalidData(four).errors).toEqual(four)
  })
  it("safeErrorBody turns every errors[].value into an excerpt, so a deep echo serializes", () => {
    const deep = nested(50_001)
    const out = safeErrorBody({ type: "invalid_data", message: "m", errors: [{ location: "body", message: "bad", value: deep }, "odd"] })
    expect(JSON.parse(JSON.stringify(out))).toEqual({
      type: "invalid_data",
      message: "m",
      errors: [{ location: "body", message: "bad", value: "{object with 1 key}" }, { message: "odd" }],
    })
    expect(safeErrorBody({ message: "no errors" })).toEqual({ message: "no errors" })
  })
})
