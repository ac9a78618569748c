/** The outage path's pure parts: fallback coverage, the outage flag, the checkout exemption. */
import fc from "fast-check"
import { US_STATES } from "../../../packages/contract/src/index"
import { coverageWarning, fallbackGaps, fallbackRatesFor, OncePer } from "./failure-policy"
import { isDegraded } from "./health"
import { checkoutExemption } from "../../service/exemptions/exemption-snapshot"
import { effectiveRatePct, freshestByTic, zipKey } from "../../service/last-known-rates"

describe("fallbackGaps", () => {
  it("lists the states with no option and no region rate; nothing under block, with fallbackRate or a country-wide rate", () => {
    expect(fallbackGaps({ failurePolicy: "fallback", fallbackRate: undefined, fallbackRates: undefined })).toEqual([...US_STATES])
    expect(
      fallbackGaps({ failurePolicy: "fallback", fallbackRate: undefined, fallbackRates: { TX: 8.25 } }, { all: false, states: ["CA"] }),
    ).toEqual(US_STATES.filter((s) => s !== "TX" && s !== "CA"))
    expect(fallbackGaps({ failurePolicy: "fallback", fallbackRate: 7, fallbackRates: undefined })).toEqual([])
    expect(
      fallbackGaps({ failurePolicy: "fallback", fallbackRate: undefined, fallbackRates: undefined }, { all: true, states: [] }),
    ).toEqual([])
    expect(fallbackGaps({ failurePolicy: "block", fallbackRate: undefined, fallbackRates: undefined })).toEqual([])
  })
})

describe("isDegraded", () => {
  it("an outage not followed by a successful call", () => {
    expect(isDegraded({ outageAt: null, okAt: null })).toBe(false)
    expect(isDegraded({ outageAt: 10, okAt: null })).toBe(true)
    expect(isDegraded({ outageAt: 10, okAt: 5 })).toBe(true)
    expect(isDegraded({ outageAt: 10, okAt: 11 })).toBe(false)
  })
})

describe("checkoutExemption", () => {
  it("the certificate recorded on the charged lines, with why; null when none", () => {
    const lines = [
      { tax_lines: [{ data: { exemption_id: null } }] },
      { tax_lines: [{ data: { exemption_id: "c1", exemption_basis: "authenticated_customer", exempt_customer_id: "cus_1" } }] },
    ]
    expect(checkoutExemption(lines)).toEqual({ exemptionId: "c1", basis: "authenticated_customer", customerId: "cus_1" })
    expect(checkoutExemption([{ tax_lines: [{ data: { exemption_id: null } }] }, { tax_lines: null }])).toBeNull()
  })
})

describe("last-known rates", () => {
  it("effective rate = amount ÷ taxable, in percent; none for nothing taxable", () => {
    expect(effectiveRatePct("16.125", "1.46")).toBe("9.054264")
    expect(effectiveRatePct(0, 0)).toBeNull()
    expect(zipKey("55415-1234")).toBe("55415")
  })
  it("the newest row per TIC within 30 days", () => {
    const now = new Date("2026-11-22T00:00:00Z")
    const d = (days: number) => new Date(now.getTime() - days * 86400_000)
    const got = freshestByTic(
      [
        { zip: "55415", tic: 0, rate: "9", quotedAt: d(2) },
        { zip: "55415", tic: 0, rate: "9.5", quotedAt: d(1) },
        { zip: "55415", tic: 20010, rate: "9", quotedAt: d(31) },
      ],
      now,
    )
    expect(got.get(0)?.rate).toBe("9.5")
    expect(got.has(20010)).toBe(false)
  })
})

describe("fallbackRatesFor: which rate an outage charges a line", () => {
  it("a learned rate above 0 % first; the merchant's fallbackRates over a learned 0 %; then the region; a learned 0 % only when nothing else is configured", () => {
    expect(fallbackRatesFor("5.15625", 6.25, [])).toEqual([{ rate: 5.15625, source: "last_known" }])
    // Massachusetts: a $100 shirt taught 0 % for clothing; the merchant's 6.25 % wins for the coat
    expect(fallbackRatesFor("0", 6.25, [{ rate: 5, name: "US" }])).toEqual([{ rate: 6.25, source: "option" }])
    expect(fallbackRatesFor("0", undefined, [{ rate: 5, name: "US" }])).toEqual([{ rate: 5, source: "region", label: "US" }])
    expect(fallbackRatesFor("0", undefined, [{ rate: null, code: "x" }])).toEqual([{ rate: 0, source: "last_known" }])
    expect(fallbackRatesFor(undefined, undefined, [{ rate: 7, code: "US-TX" }])).toEqual([{ rate: 7, source: "region", label: "US-TX" }])
    expect(fallbackRatesFor(undefined, 0, [])).toEqual([{ rate: 0, source: "option" }])
    expect(fallbackRatesFor(undefined, undefined, [])).toBeNull()
  })

  it("property: never 0 % while the merchant or the region has a rate above 0 %, and never below a learned rate above 0 %", () => {
    fc.assert(
      fc.property(
        fc.option(
          fc.oneof(
            fc.constant("0"),
            fc.integer({ min: 0, max: 150_000 }).map((n) => String(n / 10_000)),
          ),
          { nil: undefined },
        ),
        fc.option(
          fc.integer({ min: 0, max: 1500 }).map((n) => n / 100),
          { nil: undefined },
        ),
        fc.array(fc.record({ rate: fc.option(fc.integer({ min: 0, max: 1500 }).map((n) => n / 100)), code: fc.constant("US") }), {
          maxLength: 2,
        }),
        (learned, configured, region) => {
          const got = fallbackRatesFor(learned, configured, region)
          const somethingAbove0 = (configured ?? 0) > 0 || (configured === undefined && region.some((r) => (r.rate ?? 0) > 0))
          if (learned !== undefined && Number(learned) > 0) expect(got).toEqual([{ rate: Number(learned), source: "last_known" }])
          else if (somethingAbove0) expect(got!.some((r) => r.rate > 0)).toBe(true)
          if (got === null) expect(learned === undefined && configured === undefined && region.every((r) => r.rate === null)).toBe(true)
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe("OncePer", () => {
  it("one take per key per period (a clock going back counts as a new period)", () => {
    const o = new OncePer(60_000)
    expect(o.take("conn_a", 0)).toBe(true)
    expect(o.take("conn_a", 1_000)).toBe(false)
    expect(o.take("conn_b", 1_000)).toBe(true)
    expect(o.take("conn_a", 59_999)).toBe(false)
    expect(o.take("conn_a", 60_000)).toBe(true)
    expect(o.take("conn_a", 60_001)).toBe(false)
    expect(o.take("conn_a", 10)).toBe(true)
  })
})

describe("coverageWarning", () => {
  it("names the states (or any US state) and the options; says when the region rates could not be read; none without gaps", () => {
    expect(coverageWarning([], true)).toBeNull()
    const some = coverageWarning(["AL", "AK"], true)!
    expect(some).toMatch(/^sales-tax: failurePolicy "fallback" has no rate to fall back on for AL, AK: /)
    expect(some).toContain("`fallbackRates`")
    expect(some).not.toContain("could not be read")
    const all = coverageWarning([...US_STATES], false)!
    expect(all).toContain("for any US state (the tax regions' rates could not be read)")
  })
})
