import { BigNumber, MathBN } from "@medusajs/framework/utils"
import BigNumberJS from "bignumber.js"
import fc from "fast-check"
import { amountNumber, amountString } from "./amount"

describe("Medusa amounts", () => {
  it("reads numbers, strings, Medusa's BigNumber, bignumber.js values and raw columns alike", () => {
    const forms = [
      12.345,
      "12.345",
      new BigNumber({ value: "12.345", precision: 20 }),
      new BigNumberJS("12.345"),
      { value: "12.345", precision: 20 },
    ]
    expect(forms.map(amountNumber)).toEqual([12.345, 12.345, 12.345, 12.345, 12.345])
    expect(forms.map(amountString)).toEqual(["12.345", "12.345", "12.345", "12.345", "12.345"])
  })

  it("absent is null as a number and 0 as a string; anything else is not a number", () => {
    expect([amountNumber(null), amountNumber(undefined), amountString(null), amountString(undefined)]).toEqual([null, null, "0", "0"])
    expect([amountNumber({ x: 1 }), amountString(true)]).toEqual([NaN, "NaN"])
  })

  it("property: every form reads as Medusa's MathBN.convert reads it (the plugin's reader does not load Medusa's utils)", () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 20 }))
      .map(([units, scale]) => new BigNumberJS(units.toString()).shiftedBy(-scale).toFixed())
    const value = fc.oneof(
      decimal,
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.constantFrom("1e21", "1e-7", "-0", "0.1"),
    )
    const form = value.chain((v) =>
      fc.constantFrom<unknown>(
        v,
        Number(v),
        new BigNumber({ value: v, precision: 20 }),
        new BigNumber(v),
        new BigNumberJS(v),
        { value: v, precision: 20 },
        { value: Number(v) },
      ),
    )
    fc.assert(
      fc.property(form, (f) => {
        const medusa = MathBN.convert(f as Parameters<typeof MathBN.convert>[0])
        expect({ string: amountString(f), number: amountNumber(f) }).toEqual({ string: medusa.toString(), number: medusa.toNumber() })
      }),
      { numRuns: 1000 },
    )
  })
})
