import BigNumber from "bignumber.js"
import fc from "fast-check"
import {
  add,
  cmp,
  decimal,
  fromNumber,
  mul,
  parseDecimal,
  productRoundedToNumber,
  roundHalfUp,
  roundToNumber,
  sub,
  sumDecimals,
  toDecimalString,
  toNumber,
} from "./decimal"

const B = BigNumber.clone({ DECIMAL_PLACES: 60, ROUNDING_MODE: BigNumber.ROUND_HALF_UP, EXPONENTIAL_AT: 1e9 })
const big = (d: ReturnType<typeof decimal>) => new B(toDecimalString(d))

// Numbers as they come from JSON: cents, fractions of a cent, quantities, large and tiny values.
const num = fc.oneof(
  fc.integer({ min: -10_000_000, max: 10_000_000 }).map((c) => c / 100),
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).map((c) => c / 10_000),
  fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e-3, max: 1e-3, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
)

describe("sandbox decimal (scaled BigInt) against bignumber.js", () => {
  it("reads a JS number as bignumber.js reads it (its shortest round-trip text)", () => {
    fc.assert(
      fc.property(num, (v) => big(fromNumber(v)).eq(new B(v))),
      { numRuns: 3000 },
    )
    expect(toDecimalString(fromNumber(9.99))).toBe("9.99")
    expect(toDecimalString(fromNumber(-0.000001))).toBe("-0.000001")
    expect(toDecimalString(fromNumber(1e21))).toBe("1000000000000000000000")
    expect(toDecimalString(fromNumber(1.5e-7))).toBe("0.00000015")
  })
  it("parses decimal text with sign, fraction and exponent; refuses anything else", () => {
    expect(toDecimalString(parseDecimal("-0.0750"))).toBe("-0.075")
    expect(toDecimalString(parseDecimal("2.5E+3"))).toBe("2500")
    expect(toDecimalString(parseDecimal(".5"))).toBe("0.5")
    for (const bad of ["", "-", "1.2.3", "abc", "1e", "."]) expect(() => parseDecimal(bad)).toThrow("not a decimal number")
  })
  it("adds, subtracts, multiplies and compares exactly", () => {
    fc.assert(
      fc.property(num, num, (x, y) => {
        const a = fromNumber(x)
        const b = fromNumber(y)
        return (
          big(add(a, b)).eq(new B(x).plus(y)) &&
          big(sub(a, b)).eq(new B(x).minus(y)) &&
          big(mul(a, b)).eq(new B(x).times(y)) &&
          cmp(a, b) === new B(x).comparedTo(y)
        )
      }),
      { numRuns: 3000 },
    )
  })
  it("rounds half away from zero to any number of places, and gives the nearest double", () => {
    fc.assert(
      fc.property(num, num, fc.integer({ min: 0, max: 6 }), (x, y, places) => {
        const exact = mul(fromNumber(x), fromNumber(y))
        const want = new B(x).times(y).dp(places, BigNumber.ROUND_HALF_UP)
        return big(roundHalfUp(exact, places)).eq(want) && roundToNumber(exact, places) === want.toNumber()
      }),
      { numRuns: 3000 },
    )
    expect(roundToNumber(parseDecimal("6.625"), 2)).toBe(6.63)
    expect(roundToNumber(parseDecimal("-6.625"), 2)).toBe(-6.63)
    expect(roundToNumber(parseDecimal("-0.004"), 2)).toBe(0)
    expect(Object.is(toNumber(parseDecimal("-0.000")), 0)).toBe(true)
  })
  it("sums exactly (0.1 + 0.2 is 0.3)", () => {
    expect(toNumber(sumDecimals([0.1, 0.2]))).toBe(0.3)
    expect(toDecimalString(sumDecimals(["1.005", 2, fromNumber(0.995)]))).toBe("4")
  })
})

describe("productRoundedToNumber (the engine's number fast path)", () => {
  const rate = fc.oneof(
    fc.constantFrom("0.08875", "0.09025", "0.1025", "0.0625", "0.07", "0.04", "0.000001", "0"),
    fc.integer({ min: 0, max: 200_000 }).map((n) => String(n / 1_000_000)),
  )
  it("equals the BigInt path and bignumber.js for prices, quantities and rates of every size", () => {
    fc.assert(
      fc.property(num, num, rate, fc.integer({ min: 0, max: 4 }), (x, y, r, places) => {
        const z = parseDecimal(r)
        const got = productRoundedToNumber(x, y, z, places)
        const want = new B(x).times(y).times(r).dp(places, BigNumber.ROUND_HALF_UP).toNumber()
        return Object.is(got, want === 0 ? 0 : want) && got === roundToNumber(mul(mul(fromNumber(x), fromNumber(y)), z), places)
      }),
      { numRuns: 5000 },
    )
    expect(productRoundedToNumber(10.75, 1.5, parseDecimal("0.09025"), 2)).toBe(1.46)
    expect(productRoundedToNumber(100, 1, parseDecimal("0.06625"), 2)).toBe(6.63)
    expect(productRoundedToNumber(-100, 1, parseDecimal("0.06625"), 2)).toBe(-6.63)
    expect(Object.is(productRoundedToNumber(-0.001, 1, parseDecimal("0.05"), 2), 0)).toBe(true)
  })
})
