import { getHttpResponseFromError } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { httpResponseFromError, medusaErrorResponse } from "./http-error"

const errors: [string, unknown][] = [
  ["the plugin's refusal", new MedusaError(MedusaError.Types.NOT_ALLOWED, "Sales tax is unavailable", "sales_tax_unavailable")],
  ["an address error", new MedusaError(MedusaError.Types.INVALID_DATA, "shipping_address.postal_code: not a US ZIP")],
  ["not found", new MedusaError(MedusaError.Types.NOT_FOUND, "Cart cart_1 was not found")],
  ["a conflict", new MedusaError(MedusaError.Types.CONFLICT, "locked")],
  ["a duplicate", new MedusaError(MedusaError.Types.DUPLICATE_ERROR, "dup")],
  ["a db error", new MedusaError(MedusaError.Types.DB_ERROR, "db")],
  ["an unexpected state", new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "odd")],
  ["a plain Error", new Error("boom")],
]

describe("medusaErrorResponse (the fallback for Medusa 2.19, which lacks getHttpResponseFromError)", () => {
  it.each(errors)("answers %s as Medusa 2.21's error handler does", (_, err) => {
    expect(medusaErrorResponse(err)).toEqual(getHttpResponseFromError(err))
  })

  it("the refusal is a 400 carrying its code and message", () => {
    expect(medusaErrorResponse(errors[0]![1])).toEqual({
      statusCode: 400,
      body: { code: "sales_tax_unavailable", type: MedusaError.Types.NOT_ALLOWED, message: "Sales tax is unavailable" },
    })
  })
})

describe("httpResponseFromError", () => {
  it("uses Medusa's own mapping when it is exported, the fallback when it is not", () => {
    const own = jest.fn(() => ({ statusCode: 418, body: {} }))
    expect(httpResponseFromError(new Error("x"), { getHttpResponseFromError: own }).statusCode).toBe(418)
    expect(own).toHaveBeenCalledTimes(1)
    expect(httpResponseFromError(errors[0]![1], {}).statusCode).toBe(400)
  })
})
