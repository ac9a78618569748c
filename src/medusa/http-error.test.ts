import { Readable } from "node:stream"
import express from "express"
import { getHttpResponseFromError } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { httpResponseFromError, medusaErrorResponse } from "./error-handler"

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

/** The error Express's JSON body parser (Medusa's) passes on for `body` past a 1 kB limit. */
function bodyParserError(body: string): Promise<unknown> {
  const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }
  const req = Object.assign(Readable.from([Buffer.from(body)]), { headers })
  return new Promise((resolve) => express.json({ limit: "1kb" })(req as never, {} as never, resolve))
}

describe("medusaErrorResponse (the fallback for Medusa 2.19, which lacks getHttpResponseFromError)", () => {
  it.each(errors)("answers %s as Medusa 2.21's error handler does", (_, err) => {
    expect(medusaErrorResponse(err)).toEqual(getHttpResponseFromError(err))
  })

  it("answers the body parser's refusals (too large, malformed) as Medusa 2.21's error handler does", async () => {
    const [big, malformed] = await Promise.all([bodyParserError(JSON.stringify({ q: "x".repeat(2000) })), bodyParserError('{"q":')])
    expect(medusaErrorResponse(big)).toEqual({ statusCode: 413, body: { type: "unknown_error", message: "request entity too large" } })
    expect(medusaErrorResponse(big)).toEqual(getHttpResponseFromError(big))
    expect(medusaErrorResponse(malformed).statusCode).toBe(400)
    expect(medusaErrorResponse(malformed)).toEqual(getHttpResponseFromError(malformed))
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
