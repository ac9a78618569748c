import { coverageWarning } from "./fallback-coverage"
import { US_STATES } from "./fallback"

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
