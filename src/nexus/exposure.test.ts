import fc from "fast-check"
import { computeExposure, dueWarnings, warningKey, windowShare, type SalesByState, type WindowSales } from "./exposure"
import { distinctWindows, windowsFor } from "./periods"
import { PERIOD_KINDS } from "../options"
import { NEXUS_RULES, nexusRules, type NexusRule } from "./thresholds"

const today = new Date("2026-11-26T10:00:00Z")
const rule = (state: string) => NEXUS_RULES.find((r) => r.state === state)!
const ws = (sales: string, transactions: number, returned = "0"): WindowSales => ({ sales, returned, transactions })
const salesOf = (entries: [state: string, key: string, s: WindowSales][]): SalesByState => {
  const m: SalesByState = new Map()
  for (const [state, key, s] of entries) {
    if (!m.has(state)) m.set(state, new Map())
    m.get(state)!.set(key, s)
  }
  return m
}

describe("the thresholds table", () => {
  it("has the 50 states and DC once each, every row with a source and a known period", () => {
    const states = NEXUS_RULES.map((r) => r.state)
    expect(new Set(states).size).toBe(51)
    expect(states).toContain("DC")
    for (const r of NEXUS_RULES) {
      expect(r.source.length).toBeGreaterThan(5)
      expect(PERIOD_KINDS).toContain(r.period)
    }
  })
  it("knows the large states' $500,000 and New York's 100 transactions (both tests)", () => {
    expect([rule("CA").sales, rule("TX").sales, rule("NY").sales]).toEqual([500_000, 500_000, 500_000])
    expect(rule("NY")).toMatchObject({ transactions: 100, combine: "and" })
    expect(rule("TX").period).toBe("trailing_12_months")
  })
  it("applies an override and names its source", () => {
    const r = nexusRules({ TX: { sales: 250_000 } }).find((x) => x.state === "TX")!
    expect(r).toMatchObject({ sales: 250_000, period: "trailing_12_months", source: "store option (medusa-config)" })
  })
})

describe("windows", () => {
  it("previous or current year: last year whole and this year to tomorrow", () => {
    expect(windowsFor("previous_or_current_year", today)).toEqual([
      { key: "year:2025", from: "2025-01-01", to: "2026-01-01", label: "2025" },
      { key: "year:2026", from: "2026-01-01", to: "2026-11-27", label: "2026 to date" },
    ])
  })
  it("trailing 12 months, four quarters and Connecticut's year to September 30", () => {
    expect(windowsFor("trailing_12_months", today)[0]).toMatchObject({ from: "2025-11-27", to: "2026-11-27" })
    expect(windowsFor("four_quarters", today)[0]).toMatchObject({ from: "2025-10-01", to: "2026-10-01" })
    expect(windowsFor("twelve_months_to_sept_30", today)[0]).toMatchObject({ from: "2025-10-01", to: "2026-10-01" })
    expect(windowsFor("twelve_months_to_sept_30", new Date("2026-09-30T23:00:00Z"))[0]).toMatchObject({
      from: "2024-10-01",
      to: "2025-10-01",
    })
    expect(windowsFor("four_quarters", new Date("2026-01-15T00:00:00Z"))[0]).toMatchObject({ from: "2025-01-01", to: "2026-01-01" })
  })
  it("every window is a non-empty range that ends by tomorrow (any day)", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("2001-01-01"), max: new Date("2098-12-31"), noInvalidDate: true }), (d) => {
        const tomorrow = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString().slice(0, 10)
        for (const w of distinctWindows(PERIOD_KINDS, d)) {
          expect(w.from < w.to).toBe(true)
          expect(w.to <= tomorrow).toBe(true)
        }
      }),
    )
  })
})

describe("windowShare", () => {
  it("'or' takes the larger test, 'and' the smaller; returns netted only where the state nets them", () => {
    expect(windowShare(rule("GA"), ws("50000", 200)).share).toBe(1)
    expect(windowShare(rule("NY"), ws("600000", 50)).share).toBe(0.5)
    expect(windowShare(rule("NY"), ws("250000", 150)).share).toBe(0.5)
    const nets: NexusRule = { ...rule("WA"), netsReturns: true }
    expect(windowShare(nets, ws("100000", 3, "30000"))).toEqual({ share: 0.7, sales: "70000.00" })
    expect(windowShare(rule("WA"), ws("100000", 3, "30000"))).toEqual({ share: 1, sales: "100000.00" })
  })
})

describe("computeExposure", () => {
  const sales = salesOf([
    ["WA", "year:2026", ws("85000", 400)], // near (85 %)
    ["TX", "t12:2025-11-27..2026-11-27", ws("510000.10", 900)], // over
    ["CA", "year:2025", ws("200000", 100)],
    ["CA", "year:2026", ws("450000", 300)], // near via the current year (90 %)
    ["GA", "year:2025", ws("1000", 250)], // over by transactions, registered
    ["NY", "q4:2025-10-01..2026-10-01", ws("600000", 99)], // 'and': 99 %
  ])
  const rows = computeExposure(NEXUS_RULES, sales, new Set(["GA"]), today)

  it("orders over-threshold unregistered states first, then past 80 %, then the rest", () => {
    expect(rows.slice(0, 4).map((r) => [r.state, r.status])).toEqual([
      ["TX", "over"],
      ["NY", "near"],
      ["CA", "near"],
      ["WA", "near"],
    ])
    const tail = rows.slice(-5).map((r) => r.status)
    expect(tail).toEqual(["registered", "no_sales_tax", "no_sales_tax", "no_sales_tax", "no_sales_tax"])
    expect(rows).toHaveLength(51)
  })
  it("reports the deciding window with its figures", () => {
    const ca = rows.find((r) => r.state === "CA")!
    expect(ca).toMatchObject({ sales: "450000.00", transactions: 300, share: 0.9, window: { key: "year:2026", label: "2026 to date" } })
    const ga = rows.find((r) => r.state === "GA")!
    expect(ga).toMatchObject({ registered: true, status: "registered", share: 1.25, window: { key: "year:2025" } })
  })
  it("warns once per state, level and period", () => {
    const first = dueWarnings(rows, new Set())
    expect(first.map((w) => [w.state, w.level, w.period])).toEqual([
      ["TX", 100, "2026"],
      ["NY", 80, "2026"],
      ["CA", 80, "2026"],
      ["WA", 80, "2026"],
    ])
    expect(first[0]!.message).toContain("Texas (TX) has passed its economic nexus threshold (102 %)")
    const given = new Set(first.map((w) => warningKey(w.state, w.level, w.period)))
    expect(dueWarnings(rows, given)).toEqual([])
    // WA crosses 100 % later in the same period: that level is new
    const later = computeExposure(NEXUS_RULES, salesOf([["WA", "year:2026", ws("100000", 1)]]), new Set(), today)
    expect(dueWarnings(later, given).map((w) => [w.state, w.level])).toEqual([["WA", 100]])
  })
  it("property: a state's share never falls when its sales in any window grow", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NEXUS_RULES.filter((r) => r.sales !== null)),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 1000 }),
        (r, a, extra, tx) => {
          const key = windowsFor(r.period, today)[0]!.key
          const one = computeExposure([r], salesOf([[r.state, key, ws(String(a / 100), tx)]]), new Set(), today)[0]!
          const two = computeExposure([r], salesOf([[r.state, key, ws(String((a + extra) / 100), tx)]]), new Set(), today)[0]!
          expect(two.share).toBeGreaterThanOrEqual(one.share)
        },
      ),
    )
  })
})
