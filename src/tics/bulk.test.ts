import fc from "fast-check"
import { parse } from "csv-parse/sync"
import { changedSincePlan, exportCsv, parseImport, planImport, type ExportProduct, type TicVerdict } from "./bulk"

const product = (over: Partial<ExportProduct> = {}): ExportProduct => ({
  id: "prod_1",
  handle: "sweatpants",
  title: "Sweatpants",
  product_type: "Apparel",
  categories: "pants|clothing",
  tic: null,
  resolved_tic: 20010,
  resolved_from: "product_category",
  ...over,
})

describe("exportCsv", () => {
  it("writes the header and one line per product; lists categories with |", () => {
    const csv = exportCsv([
      product(),
      product({ id: "prod_2", handle: "gift", title: "Gift card", tic: 10005, resolved_tic: 10005, resolved_from: "product" }),
    ])
    expect(csv.split("\r\n")).toEqual([
      "id,handle,title,product_type,categories,tic,resolved_tic,resolved_from",
      "prod_1,sweatpants,Sweatpants,Apparel,pants|clothing,,20010,product_category",
      "prod_2,gift,Gift card,Apparel,pants|clothing,10005,10005,product",
      "",
    ])
  })
  it("defuses formula-looking cells and quotes commas and quotes", () => {
    const csv = exportCsv([
      product({ title: '=HYPERLINK("http://x","click")', handle: "+1", product_type: "@SUM(A1)", categories: "-2+3" }),
    ])
    const [, line] = parse(csv) as string[][]
    expect(line!.slice(1, 5)).toEqual(["'+1", `'=HYPERLINK("http://x","click")`, "'@SUM(A1)", "'-2+3"])
  })
  it("property: any titles and handles survive export → import (read back as the same references)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 40 }).filter((s) => s.trim() === s && s.trim() !== ""),
          { minLength: 1, maxLength: 20 },
        ),
        (handles) => {
          // eslint-disable-next-line no-control-regex -- control characters are refused by design (tested below)
          const uniq = [...new Set(handles)].filter((h) => !/[\u0000-\u001f\u007f]/.test(h))
          const csv = exportCsv(uniq.map((h, i) => product({ id: `prod_${i}`, handle: h, title: h, tic: i })))
          const read = parseImport(csv)
          expect(read.refused).toEqual([])
          expect(read.rows.map((r) => [r.ref, r.tic])).toEqual(uniq.map((_, i) => [`prod_${i}`, i]))
        },
      ),
    )
  })
})

describe("parseImport", () => {
  it("reads products by id, types and categories by handle; an empty tic clears", () => {
    const r = parseImport("target,id,handle,tic\r\n,prod_1,,20010\nproduct_type,,Apparel,20041\ncategory,,pants,\n")
    expect(r.refused).toEqual([])
    expect(r.rows).toEqual([
      { row: 2, target: "product", ref: "prod_1", by: "id", tic: 20010 },
      { row: 3, target: "product_type", ref: "Apparel", by: "handle", tic: 20041 },
      { row: 4, target: "product_category", ref: "pants", by: "handle", tic: null },
    ])
  })
  it("accepts the export's own file (extra columns ignored, a BOM, defused cells)", () => {
    const csv = "\ufeff" + exportCsv([product({ handle: "'=x" }), product({ id: "prod_2", tic: 10005 })])
    expect(parseImport(csv).rows.map((r) => [r.ref, r.tic])).toEqual([
      ["prod_1", null],
      ["prod_2", 10005],
    ])
  })
  it("refuses each bad line with its line, column and reason", () => {
    const r = parseImport(
      [
        "target,id,handle,tic",
        "product,prod_1,,abc", // 2 not a TIC
        "thing,prod_2,,1", // 3 bad target
        "product,ptyp_1,,1", // 4 an id of another kind
        "product,,,1", // 5 no reference
        "product,prod_1,,2", // 6 fine
        "product,prod_1,,3", // 7 duplicate
        "product,prod_9,,-1", // 8 negative
        "product,prod_8,,1.5", // 9 decimal
        "product,prod_7,,\u0007", // 10 control character
      ].join("\n"),
    )
    expect(r.rows.map((x) => x.row)).toEqual([6])
    expect(r.refused.map((x) => [x.row, x.column])).toEqual([
      [2, "tic"],
      [3, "target"],
      [4, "id"],
      [5, "id"],
      [7, "id"],
      [8, "tic"],
      [9, "tic"],
      [10, "tic"],
    ])
    expect(r.refused[0]!.reason).toBe('"abc" is not a TIC (a whole number, or empty to clear)')
    expect(r.refused[4]!.reason).toBe("the same product as line 6")
  })
  it("Object member names in any cell are plain text: a refused target, id or TIC, a handle looked up like any other (was a throw)", () => {
    for (const name of ["__proto__", "constructor", "hasOwnProperty", "toString", "prototype", "valueOf"]) {
      const r = parseImport(
        ["target,id,handle,tic", `${name},prod_1,,1`, `product,${name},,1`, `product,,${name},1`, `product,prod_2,,${name}`].join("\n"),
      )
      expect(r.refused).toEqual([
        { row: 2, column: "target", reason: `"${name.toLowerCase()}" is not product, product_type or product_category` },
        { row: 3, column: "id", reason: `"${name}" is not a product id (prod_…)` },
        { row: 5, column: "tic", reason: `"${name}" is not a TIC (a whole number, or empty to clear)` },
      ])
      expect(r.rows).toEqual([{ row: 4, target: "product", ref: name, by: "handle", tic: 1 }])
      expect(planImport(r, new Map(), new Map(), new Map()).refused[1]).toEqual({
        row: 3,
        column: "id",
        reason: `"${name}" is not a product id (prod_…)`,
      })
    }
  })
  it("at most IMPORT_LIMITS.tics different TICs: the file is refused whole at the line naming one more (repeats and clears are free)", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `prod_${i},${30000 + i}`)
    const at = parseImport(["id,tic", ...lines(1000), "prod_a,30000", "prod_b,"].join("\n"))
    expect(at.refused).toEqual([])
    expect(new Set(at.rows.map((r) => r.tic)).size).toBe(1001) // 1,000 TICs and a clear
    expect(parseImport(["id,tic", ...lines(1001), "prod_a,1"].join("\n"))).toEqual({
      rows: [],
      refused: [
        {
          row: 1002,
          column: "tic",
          reason: "more than 1000 different TICs (the service is asked about each): split the file before this line",
        },
      ],
    })
  })
  it("refuses a file without the needed columns, an unreadable one, an empty one and a huge one whole", () => {
    expect(parseImport("name,value\nx,1").refused).toEqual([
      { row: 1, column: "tic", reason: "the header has no tic column" },
      { row: 1, column: "id", reason: "the header has neither an id nor a handle column" },
    ])
    expect(parseImport('id,tic\n"prod_1,1\n').refused[0]).toMatchObject({ column: "file" })
    expect(parseImport("").refused).toEqual([{ row: 1, column: "file", reason: "the file is empty" }])
    expect(parseImport("id,tic\n" + "prod_1,1\n".repeat(50_001)).refused).toEqual([
      { row: 1, column: "file", reason: "more than 50000 lines: split the file" },
    ])
    expect(parseImport("x".repeat(9 * 1024 * 1024)).refused[0]).toMatchObject({ column: "file", reason: "the file is larger than 8 MB" })
  })
})

describe("planImport", () => {
  const targets = new Map([
    ["product|id|prod_1", "prod_1"],
    ["product|handle|sweatpants", "prod_1"],
    ["product|id|prod_2", "prod_2"],
    ["product_type|handle|Apparel", "ptyp_1"],
  ])
  const current = new Map([["prod_2", 10005]])
  const verdicts = new Map<number, TicVerdict>([
    [20010, "known"],
    [10005, "known"],
    [99999, "unknown"],
    [31000, "unverified"],
  ])
  it("changes, unchanged and refused (unknown target, unknown TIC, service down, the same target twice)", () => {
    const parsed = parseImport(
      [
        "target,id,handle,tic",
        "product,prod_1,,20010", // change
        "product,prod_2,,10005", // unchanged
        "product_type,,Apparel,99999", // unknown TIC
        "product,prod_404,,20010", // unknown product
        "product_type,,Apparel,31000", // unverified... but Apparel claimed by line 4? no: line 4 was refused for its TIC
        "product,,sweatpants,20010", // the same product as line 2, by handle
        "product,prod_2,,", // clears prod_2? the same product as line 3
      ].join("\n"),
    )
    const plan = planImport(parsed, targets, current, verdicts)
    expect(plan.changes).toEqual([{ row: 2, target: "product", targetId: "prod_1", ref: "prod_1", from: null, to: 20010 }])
    expect(plan.unchanged).toBe(1)
    expect(plan.refused.map((r) => [r.row, r.column, r.reason])).toEqual([
      [4, "tic", "TIC 99999 is not in the service's TIC list"],
      [5, "id", 'no product with id "prod_404"'],
      [6, "handle", "the same product type as line 4"],
      [7, "handle", "the same product as line 2"],
      [8, "id", "the same product as line 3"],
    ])
  })
  it("a TIC the service could not be asked about is refused, not applied unchecked", () => {
    const plan = planImport(parseImport("id,tic\nprod_1,31000\n"), targets, current, verdicts)
    expect(plan.changes).toEqual([])
    expect(plan.refused).toEqual([
      { row: 2, column: "tic", reason: "the service could not be asked about TIC 31000: try again when it answers" },
    ])
  })
  it("clearing a TIC is a change to null, without asking the service", () => {
    const plan = planImport(parseImport("id,tic\nprod_2,\n"), targets, current, new Map())
    expect(plan.changes).toEqual([{ row: 2, target: "product", targetId: "prod_2", ref: "prod_2", from: 10005, to: null }])
  })
  it("the plan's hash: the same for the same plan, another when a target's TIC changed since", () => {
    const file = parseImport("id,tic\nprod_1,20010\nprod_2,10005\n")
    const a = planImport(file, targets, current, verdicts)
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(planImport(file, targets, new Map(current), verdicts).hash).toBe(a.hash)
    expect(planImport(file, targets, new Map([...current, ["prod_1", 40030]]), verdicts).hash).not.toBe(a.hash)
    expect(planImport(file, targets, new Map(), verdicts).hash).not.toBe(a.hash)
  })
})

describe("changedSincePlan", () => {
  it("names each line whose target the write found with another TIC, with the TIC planned from and the TIC now", () => {
    const changes = [
      { row: 2, target: "product" as const, targetId: "prod_1", ref: "prod_1", from: null, to: 20010 },
      { row: 3, target: "product_type" as const, targetId: "ptyp_1", ref: "Apparel", from: 40030, to: null },
      { row: 4, target: "product" as const, targetId: "prod_2", ref: "prod_2", from: 10005, to: 20010 },
    ]
    expect(
      changedSincePlan(changes, [
        { target_type: "product", target_id: "prod_1", now: 31000 },
        { target_type: "product_type", target_id: "ptyp_1", now: null },
      ]),
    ).toEqual([
      { row: 2, column: "tic", reason: "not written: the TIC was none when planned and is 31000 now" },
      { row: 3, column: "tic", reason: "not written: the TIC was 40030 when planned and is none now" },
    ])
    expect(changedSincePlan(changes, [])).toEqual([])
  })
})
