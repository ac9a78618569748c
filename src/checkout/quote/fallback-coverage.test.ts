import { coverageWarning, usRegionStates } from "./fallback-coverage"
import { US_STATES } from "./fallback"

describe("usRegionStates", () => {
  it("the US states with a default region rate; `all` for a country-wide US rate; other countries and rate-less rows ignored", () => {
    expect(
      usRegionStates([
        { rate: 6, tax_region: { country_code: "US", province_code: "us-ca" } },
        { rate: 0, tax_region: { country_code: "us", province_code: "TX" } },
        { rate: null, tax_region: { country_code: "us", province_code: "NY" } },
        { rate: 5, tax_region: { country_code: "ca", province_code: "ON" } },
      ]),
    ).toEqual({ all: false, states: ["CA", "TX"] })
    expect(usRegionStates([{ rate: 7, tax_region: { country_code: "us", province_code: null } }])).toEqual({ all: true, states: [] })
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
