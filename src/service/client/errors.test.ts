import util from "node:util"
import fc from "fast-check"
import { makeRedactor, REDACTED, refusesCertificate, SalesTaxError } from "./errors"

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

  it("gives what the redactor before its fast paths gave (the URL pattern only on strings with an @, the key pattern only on keys of its lengths)", () => {
    // the redactor as it was: the URL replace on every string, the key regex on every key
    const before = (secrets: string[]) => {
      const list = secrets.filter((x) => x.length > 0).sort((a, b) => b.length - a.length)
      const str = (x: string) => {
        let out = x
        for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
        return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi, `$1${REDACTED}@`)
      }
      const walk = (v: unknown, depth: number): unknown => {
        if (typeof v === "string") return str(v)
        if (depth > 20 || v === null || typeof v !== "object") return v
        if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1))
        const proto = Object.getPrototypeOf(v)
        if (proto !== Object.prototype && proto !== null) return v
        const out: Record<string, unknown> = {}
        for (const [k, x] of Object.entries(v as Record<string, unknown>))
          out[k] = /^(x-api-key|apikey|api_key|authorization)$/i.test(k) ? REDACTED : walk(x, depth + 1)
        return out
      }
      return (v: unknown) => walk(v, 0)
    }
    // strings and keys built from the characters that matter (URL parts, @, :, the header names in any case, non-ASCII look-alikes)
    const piece = fc.constantFrom(
      "https://",
      "http://",
      "u",
      "user",
      ":",
      "pw",
      "@",
      "host",
      "/",
      " ",
      "x-api-key",
      "X-Api-Key",
      "apikey",
      "API_KEY",
      "authorization",
      "Authorization",
      "ſ",
      "K",
      "é",
      "k3y",
    )
    const text = fc.oneof(
      fc.array(piece, { maxLength: 8 }).map((a) => a.join("")),
      fc.string(),
    )
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        text,
        fc.integer(),
        fc.constant(null),
        fc.array(tie("v"), { maxLength: 3 }),
        fc.dictionary(text, tie("v"), { maxKeys: 4 }),
      ),
    })).v
    fc.assert(
      fc.property(fc.array(fc.oneof(text, fc.constant("k3y")), { maxLength: 3 }), value, (secrets, v) => {
        expect(makeRedactor(secrets)(v)).toEqual(before(secrets)(v))
      }),
      { numRuns: 3000 },
    )
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

describe("refusesCertificate", () => {
  it("a 4xx located at the cart's exemption", () => {
    expect(refusesCertificate({ status: 422, errors: [{ location: "body.items[0].exemption.exemptionId" }] })).toBe(true)
    expect(refusesCertificate({ status: 422, errors: [{ location: "body.items[0].destination.zip" }] })).toBe(false)
    expect(refusesCertificate({ status: 503, errors: [{ location: "body.items[0].exemption.exemptionId" }] })).toBe(false)
    expect(refusesCertificate(new Error("x"))).toBe(false)
  })
})
