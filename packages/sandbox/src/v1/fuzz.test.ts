import fc from "fast-check"
import { INTERNAL } from "./index"
import { OPERATION_NAMES } from "./operations"
import { jsonPaths } from "../__tests__/helpers"
import {
  CRED,
  KEY,
  LOGIN,
  ORIGIN,
  SEATTLE,
  detail,
  formBody,
  lookupBody,
  makeV1Sandbox,
  ok,
  request,
  v1,
  type V1Sandbox,
} from "./__tests__/helpers"

/**
 * Property-based fuzzing of the 18 version 1 operations: 800 random and malformed
 * requests (mutated valid bodies, keys in random case, JSON / form / sniffed / truncated / raw
 * bodies, good, bad, missing and query-string credentials, random path case).
 * Properties: always HTTP 200 with a JSON body holding a numeric ResponseType (0..3) and a
 * Messages array — VerifyAddress answers ErrNumber/ErrDescription instead —; never the
 * "unexpected sandbox error" of an exception; a request answered ResponseType 0 (or ErrNumber
 * other than "0") changes nothing in the store; the server still answers afterwards.
 */
let s: V1Sandbox
beforeAll(async () => {
  s = await makeV1Sandbox()
})
afterAll(() => s.close())

let certId = "00000000-0000-4000-8000-000000000000"

async function seed(): Promise<void> {
  await request(s.port, "POST", "/_sandbox/reset", { "x-api-key": KEY })
  ok(await v1(s, "Lookup", lookupBody({ cartID: "fz-cart" })))
  ok(await v1(s, "Lookup", lookupBody({ cartID: "fz-cart-2" })))
  ok(await v1(s, "AuthorizedWithCapture", { cartID: "fz-cart", orderID: "fz-order" }))
  ok(await v1(s, "Authorized", { cartID: "fz-cart", orderID: "fz-auth" }))
  certId = ok(await v1(s, "AddExemptCertificate", { customerID: "cust-1", exemptCert: { Detail: detail() } })).body.CertificateID
}

function template(op: string): Record<string, unknown> {
  const item = { Index: 0, ItemID: "sku-1", TIC: 0, Price: 10.75, Qty: 1 }
  switch (op) {
    case "VerifyAddress":
      return { ...SEATTLE }
    case "Lookup":
      return lookupBody({ cartID: "fz-cart-2", exemptCert: { CertificateID: certId } })
    case "LookupForDate":
      return lookupBody({ cartID: "fz-new-cart", useDate: "2026-01-15" })
    case "Authorized":
      return { customerID: "cust-1", cartID: "fz-cart-2", orderID: "fz-new-order", dateAuthorized: "2026-01-15T00:00:00Z" }
    case "AuthorizedWithCapture":
      return { customerID: "cust-1", cartID: "fz-cart-2", orderID: "fz-new-order-2", dateCaptured: "2026-01-15T00:00:00Z" }
    case "Captured":
      return { orderID: "fz-auth" }
    case "Returned":
      return { orderID: "fz-order", returnedDate: "2026-01-20", cartItems: [item] }
    case "ReturnedPro":
      return { orderID: "fz-order", cartItems: [{ ...item, Qty: -1 }] }
    case "AddExemptCertificate":
      return { customerID: "cust-1", exemptCert: { Detail: detail() } }
    case "GetExemptCertificates":
      return { customerID: "cust-1" }
    case "DeleteExemptCertificate":
      return { certificateID: certId }
    case "GetTICsByGroup":
      return { ticGroup: 20000 }
    case "CreatePlatformAccount":
      return { Name: "Shop", Locations: [{ Name: "HQ", ...ORIGIN, PrimaryBusinessAddress: true }] }
    case "AddTransactions":
      return {
        transactions: [{ orderID: "fz-tx", customerID: "c", origin: ORIGIN, destination: SEATTLE, cartItems: [{ ...item, Rate: 0.1 }] }],
      }
    default:
      return {}
  }
}

function mutate(v: unknown, path: (string | number)[], replacement: unknown, remove: boolean): unknown {
  if (path.length === 0) return remove ? {} : replacement
  const copy: any = Array.isArray(v) ? [...v] : v && typeof v === "object" ? { ...(v as object) } : {}
  const [head, ...rest] = path
  if (rest.length === 0 && remove) {
    if (Array.isArray(copy)) copy.splice(head as number, 1)
    else delete copy[head as string]
  } else copy[head as string] = mutate(copy[head as string], rest, replacement, remove)
  return copy
}
function recase(v: unknown, mode: number): unknown {
  if (Array.isArray(v)) return v.map((x) => recase(x, mode))
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) out[mode === 1 ? k.toUpperCase() : mode === 2 ? k.toLowerCase() : k] = recase(x, mode)
    return out
  }
  return v
}

const weird = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "",
    " ",
    "00000",
    "0000",
    "false",
    "TRUE",
    "-1",
    "1e309",
    "NaN",
    "Infinity",
    "2026-02-31",
    "/Date(0)/",
    "2026-01-15T10:00:00",
    "wa",
    "98109",
    "<x/>",
    "__proto__",
    "x".repeat(300),
    "a@b.c",
  ),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxKeys: 3 }),
)

const mutation = fc.record({ pick: fc.nat(), value: weird, remove: fc.boolean() })

type Encoding = "json" | "form" | "text" | "none" | "truncated" | "raw"
const requestArb = fc.record({
  op: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...OPERATION_NAMES) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map((x) => encodeURIComponent(x)) },
  ),
  opCase: fc.constantFrom(0, 1, 2),
  keyCase: fc.constantFrom(0, 0, 1, 2),
  cred: fc.constantFrom("body", "body", "body", "query", "wrong", "missing", "numbers"),
  mutations: fc.array(mutation, { maxLength: 4 }),
  encoding: fc.constantFrom<Encoding>("json", "json", "json", "form", "form", "text", "none", "truncated", "raw"),
  cut: fc.nat(),
  raw: fc.uint8Array({ maxLength: 64 }),
})

function caseOp(op: string, mode: number): string {
  return mode === 1 ? op.toUpperCase() : mode === 2 ? op.toLowerCase() : op
}

let runs = 0

it("answers 800 fuzzed requests over the 18 operations with HTTP 200 and a ResponseType, writing nothing when it refuses", async () => {
  await seed()
  await fc.assert(
    fc.asyncProperty(requestArb, async (r) => {
      if (++runs % 150 === 0) await seed()
      let body: unknown = template(r.op)
      for (const m of r.mutations) {
        const ps = jsonPaths(body)
        body = mutate(body, ps[m.pick % ps.length]!, m.value, m.remove)
      }
      let query = ""
      const credBody =
        r.cred === "body"
          ? CRED
          : r.cred === "wrong"
            ? { apiLoginID: LOGIN, apiKey: "wrong" }
            : r.cred === "numbers"
              ? { apiLoginID: 123, apiKey: 456 }
              : r.cred === "query"
                ? { apiLoginID: LOGIN }
                : {}
      if (r.cred === "query") query = `?apiKey=${KEY}`
      if (body && typeof body === "object" && !Array.isArray(body)) body = { ...credBody, ...(body as object) }
      body = recase(body, r.keyCase)
      let payload: string | Buffer | undefined
      const headers: Record<string, string> = {}
      switch (r.encoding) {
        case "json":
          payload = JSON.stringify(body)
          headers["content-type"] = "application/json"
          break
        case "form":
          payload = body && typeof body === "object" && !Array.isArray(body) ? formBody(body as Record<string, unknown>) : String(body)
          headers["content-type"] = "application/x-www-form-urlencoded"
          break
        case "text":
          payload = JSON.stringify(body)
          headers["content-type"] = "text/plain"
          break
        case "none":
          payload = body && typeof body === "object" && !Array.isArray(body) ? formBody(body as Record<string, unknown>) : undefined
          break
        case "truncated": {
          const t = JSON.stringify(body) ?? ""
          payload = t.slice(0, r.cut % (t.length + 1))
          headers["content-type"] = "application/json"
          break
        }
        case "raw":
          payload = Buffer.from(r.raw)
          headers["content-type"] = "application/octet-stream"
          break
      }
      const before = s.run.sandbox.store.snapshot()
      const path = `/1.0/Service/${caseOp(r.op, r.opCase)}${query}`
      const res = await request(s.port, "POST", path, headers, payload)
      expect(res.status).toBe(200)
      expect(res.body).toBeDefined()
      expect(res.raw).not.toContain(INTERNAL)
      const isVerify = r.op.toLowerCase() === "verifyaddress"
      let refused: boolean
      if (isVerify) {
        expect(typeof res.body.ErrNumber).toBe("string")
        expect(res.body).not.toHaveProperty("ResponseType")
        refused = res.body.ErrNumber !== "0"
      } else {
        expect([0, 1, 2, 3]).toContain(res.body.ResponseType)
        expect(Array.isArray(res.body.Messages)).toBe(true)
        refused = res.body.ResponseType === 0
        if (refused) expect(res.body.Messages.length).toBeGreaterThan(0)
      }
      if (refused) expect(s.run.sandbox.store.snapshot()).toBe(before)
    }),
    // 800 requests (was 2,000): over 18 operations about 45 each, every body kind and case of the
    // name many times; the same shapes again cost ~3 ms each
    { numRuns: 800 },
  )
  expect((await v1(s, "Ping")).body).toEqual({ ResponseType: 3, Messages: [] })
}, 120_000)
