import fc from "fast-check"
import { expandForm, looksLikeForm, lowerKeys, parseFormBody, queryParam, splitFormKey } from "./normalize"
import { V1Address, bool, int, num, v1Date } from "./schemas"
import { toForm } from "./__tests__/helpers"

const plain = (v: unknown) => JSON.parse(JSON.stringify(v))

describe("lowerKeys", () => {
  it("lower-cases keys at every depth and keeps values", () => {
    expect(plain(lowerKeys({ CartItems: [{ ItemID: "A", Qty: "1" }], Origin: { ZIP5: 98101 } }))).toEqual({
      cartitems: [{ itemid: "A", qty: "1" }],
      origin: { zip5: 98101 },
    })
  })
  it("drops __proto__ / constructor / prototype keys", () => {
    const v = lowerKeys(JSON.parse('{"__proto__": {"x": 1}, "Constructor": 2, "a": {"PROTOTYPE": 3, "b": 4}}')) as any
    expect(plain(v)).toEqual({ a: { b: 4 } })
    expect(({} as any).x).toBeUndefined()
  })
})

describe("form bodies", () => {
  it("splits bracket and dot keys", () => {
    expect(splitFormKey("cartItems[0][Price]")).toEqual(["cartItems", "0", "Price"])
    expect(splitFormKey("origin.City")).toEqual(["origin", "City"])
    expect(splitFormKey("a[]")).toEqual(["a", ""])
    expect(splitFormKey("plain")).toEqual(["plain"])
    expect(splitFormKey("odd[x")).toEqual(["odd[x"])
  })

  it("builds nested objects and arrays; [] pushes; a repeated key becomes a list", () => {
    expect(plain(parseFormBody("a[0][b]=1&a[1][b]=2&o.c=x&l[]=p&l[]=q&r=1&r=2"))).toEqual({
      a: [{ b: "1" }, { b: "2" }],
      o: { c: "x" },
      l: ["p", "q"],
      r: ["1", "2"],
    })
  })

  it("round-trips any nested JSON shape through bracket notation (leaves as strings)", () => {
    const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,6}$/)
    const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean())
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node"), { minLength: 1, maxLength: 3 }),
        fc.dictionary(key, tie("node"), { minKeys: 1, maxKeys: 3 }),
      ),
    })).node
    const stringify = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(stringify)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stringify(x)]))
          : String(v)
    fc.assert(
      fc.property(fc.dictionary(key, tree, { minKeys: 1, maxKeys: 4 }), (obj) => {
        const back = parseFormBody(new URLSearchParams(toForm(obj)).toString())
        expect(plain(back)).toEqual(stringify(obj))
      }),
      { numRuns: 300 },
    )
  })

  it("tells form text from JSON and XML", () => {
    expect(looksLikeForm("a=1&b=2")).toBe(true)
    expect(looksLikeForm('{"a":1}')).toBe(false)
    expect(looksLikeForm("<x/>")).toBe(false)
    expect(looksLikeForm("words")).toBe(false)
  })

  it("caps the number of pairs", () => {
    const many = Array.from({ length: 20_000 }, (_, i) => [`k${i}`, "v"] as [string, string])
    expect(Object.keys(expandForm(many)).length).toBe(10_000)
  })

  it("reads a query parameter in any case", () => {
    expect(queryParam({ APIKEY: "k" }, "apiKey")).toBe("k")
    expect(queryParam({ apikey: ["a", "b"] }, "apiKey")).toBe("a")
    expect(queryParam({}, "apiKey")).toBeUndefined()
  })
})

describe("scalar coercion", () => {
  it("numbers, integers and booleans from strings", () => {
    expect(num.parse("10.75")).toBe(10.75)
    expect(num.parse(" -3 ")).toBe(-3)
    expect(num.safeParse("ten").success).toBe(false)
    expect(num.safeParse("").success).toBe(false)
    expect(num.safeParse("1e309").success).toBe(false)
    expect(int.parse("00000")).toBe(0)
    expect(int.safeParse("1.5").success).toBe(false)
    expect([bool.parse("false"), bool.parse("TRUE"), bool.parse("1"), bool.parse(0)]).toEqual([false, true, true, false])
    expect(bool.safeParse("maybe").success).toBe(false)
  })

  it("v1 dates: ISO with or without offset (UTC), plain dates, .NET /Date(ms)/; impossible dates refused", () => {
    expect(v1Date.parse("2026-01-15")).toBe("2026-01-15T00:00:00.000Z")
    expect(v1Date.parse("2026-01-15T10:30:00")).toBe("2026-01-15T10:30:00.000Z")
    expect(v1Date.parse("2026-01-15T10:30:00-05:00")).toBe("2026-01-15T15:30:00.000Z")
    expect(v1Date.parse("2026-01-15T10:30:00+0100")).toBe("2026-01-15T09:30:00.000Z")
    expect(v1Date.parse("/Date(1768471200000)/")).toBe(new Date(1768471200000).toISOString())
    expect(v1Date.safeParse("2026-02-31").success).toBe(false)
    expect(v1Date.safeParse("yesterday").success).toBe(false)
  })

  it("addresses: numeric ZIPs padded, Zip4 zero = none, lower-case state, ZIP+4 in Zip5 split", () => {
    expect(V1Address.parse({ address1: "1", city: "Boston", state: "ma", zip5: 2108, zip4: 0 })).toEqual({
      line1: "1",
      city: "Boston",
      state: "MA",
      zip: "02108",
    })
    expect(V1Address.parse({ state: "WA", zip5: "98109", zip4: 12 })).toEqual({ line1: "", city: "", state: "WA", zip: "98109-0012" })
    expect(V1Address.parse({ state: "WA", zip5: "98109-1234", zip4: "" }).zip).toBe("98109-1234")
    expect(V1Address.safeParse({ state: "PR", zip5: "00901" }).success).toBe(false) // not a v1 State value
    expect(V1Address.safeParse({ state: "Washington", zip5: "98109" }).success).toBe(false)
    expect(V1Address.safeParse({ state: "WA", zip5: "9810" }).success).toBe(true) // 4 digits: a number without its leading zero
    expect(V1Address.safeParse({ state: "WA", zip5: "981091" }).success).toBe(false)
  })
})
