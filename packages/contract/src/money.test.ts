import fc from "fast-check"
import { roundCents, sum, toCents, dec } from "./money"

describe("money", () => {
  it("rounds half away from zero at the cent: the interface's example 10.75 x 1.5 at 9.025% = 1.46", () => {
    expect(roundCents(dec("10.75").times("1.5").times("0.09025"))).toBe(1.46)
    expect(roundCents("0.005")).toBe(0.01)
    expect(roundCents("0.0049999")).toBe(0)
  })
  it("sums cents without float drift", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 200 }), (cents) => {
        const total = sum(cents.map((c) => dec(c).div(100)))
        expect(toCents(total)).toBe(cents.reduce((a, b) => a + b, 0))
      }),
    )
  })
})
