import util from "node:util"
import fc from "fast-check"
import { makeRedactor, REDACTED, SalesTaxError } from "./errors"

describe("makeRedactor", () => {
  it("removes the secret from any string, however embedded, deeply", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{8,40}$/), fc.string(), fc.string(), (secret, a, b) => {
        fc.pre(!a.includes(secret) && !b.includes(secret))
        const redact = makeRedactor([secret])
        const input = { msg: `${a}${secret}${b}`, list: [secret, { deep: [`x${secret}y`] }], n: 1, none: null }
        const out = redact(input)
        expect(JSON.stringify(out)).not.toContain(secret)
        expect(out.n).toBe(1)
        expect(out.none).toBeNull()
      }),
    )
  })

  it("leaves strings without the secret unchanged", () => {
    const redact = makeRedactor(["SECRET"])
    expect(redact({ a: "hello", b: ["x", 2] })).toEqual({ a: "hello", b: ["x", 2] })
  })

  it("blanks header-like keys and URL passwords", () => {
    const redact = makeRedactor(["k"])
    const out = redact({ "X-API-KEY": "anything", authorization: "Bearer z", url: "https://user:pw@host/x" })
    expect(out["X-API-KEY"]).toBe(REDACTED)
    expect(out.authorization).toBe(REDACTED)
    expect(out.url).not.toContain("pw")
  })

  it("ignores empty secrets (would otherwise redact everywhere)", () => {
    const redact = makeRedactor(["", undefined])
    expect(redact("abc")).toBe("abc")
  })
})

describe("SalesTaxError", () => {
  const err = new SalesTaxError({
    operation: "calculateCarts",
    status: 422,
    title: "Unprocessable Entity",
    detail: "bad state",
    errors: [{ location: "body.items[0].destination.state", message: "state must be two letters", value: "California" }],
    retryable: false,
    code: "http",
  })

  it("carries the fields and a message naming the operation, status and locations", () => {
    expect(err).toBeInstanceOf(Error)
    expect(err.name).toBe("SalesTaxError")
    expect(err.message).toContain("calculateCarts")
    expect(err.message).toContain("422")
    expect(err.message).toContain("body.items[0].destination.state")
    expect(err.attempts).toBe(1)
  })

  it("serializes its safe fields only", () => {
    const json = JSON.parse(JSON.stringify(err))
    expect(json).toMatchObject({ operation: "calculateCarts", status: 422, code: "http", retryable: false })
    expect(json.errors[0].value).toBe("California")
    expect(util.inspect(err)).toContain("body.items[0].destination.state")
  })

  it("shortens the message when there are many errors", () => {
    const many = new SalesTaxError({
      operation: "createOrder",
      status: null,
      title: "Invalid request",
      retryable: false,
      code: "validation",
      errors: Array.from({ length: 9 }, (_, i) => ({ location: `body.lineItems[${i}].price`, message: "bad" })),
    })
    expect(many.message).toContain("+4 more")
    expect(many.errors).toHaveLength(9)
  })
})
