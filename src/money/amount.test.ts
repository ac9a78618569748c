import { BigNumber } from "@medusajs/framework/utils"
import BigNumberJS from "bignumber.js"
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
})
