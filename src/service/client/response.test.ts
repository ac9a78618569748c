/**
 * The client against a deliberately misbehaving server (what the sandbox never does): answers
 * that break the contract, servers that echo the key, redirects. A plain node:http server on an
 * ephemeral port; each test sets the next answer.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import util from "node:util"
import fc from "fast-check"
import { SalesTaxClient, SalesTaxError, type AttemptInfo } from "./index"
import { failure } from "./__tests__/failure"

const KEY = "stub_key_0123456789_SECRET"
const CID = "00000000-0000-4000-8000-000000000000"

type Answer = { status: number; headers?: Record<string, string>; body?: string }
let answer: (req: http.IncomingMessage, body: string) => Answer
let seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = []
let server: http.Server
let base: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString()))
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      const a = answer(req, body)
      res.writeHead(a.status, { "content-type": "application/json", ...(a.headers ?? {}) })
      res.end(a.body ?? "")
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()))
})
beforeEach(() => {
  seen = []
})

function client(attempts: AttemptInfo[] = []) {
  return new SalesTaxClient({
    baseUrl: `${base}/`,
    apiKey: KEY,
    connectionId: CID,
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    onAttempt: (i) => attempts.push(i),
  })
}

it("sends the key as X-API-KEY on authenticated operations, not on health, and builds the path from the contract", async () => {
  answer = (req) =>
    req.url!.startsWith("/tax/health")
      ? { status: 200, body: JSON.stringify({ status: "pass", components: [] }) }
      : { status: 200, body: JSON.stringify({ message: "pong" }) }
  const c = client()
  await c.health()
  await c.ping()
  expect(seen[0]!.url).toBe("/tax/health")
  expect(seen[0]!.headers["x-api-key"]).toBeUndefined()
  expect(seen[1]!.url).toBe(`/tax/connections/${CID}/ping`)
  expect(seen[1]!.headers["x-api-key"]).toBe(KEY)
})

it("tolerates unknown fields in answers", async () => {
  answer = () => ({ status: 200, body: JSON.stringify({ message: "pong", brandNew: { x: 1 } }) })
  expect((await client().ping()).message).toBe("pong")
})

it("a missing required field is a response_validation error with its location, not retried", async () => {
  answer = () => ({ status: 200, body: JSON.stringify({ items: [{ cartId: "c" }], connectionId: CID }) })
  const attempts: AttemptInfo[] = []
  const err = await failure(
    client(attempts).calculateCarts({
      items: [
        {
          customerId: "c1",
          currency: { currencyCode: "USD" },
          origin: { line1: "a", city: "b", state: "WA", zip: "98101" },
          destination: { line1: "a", city: "b", state: "WA", zip: "98101" },
          lineItems: [{ index: 0, itemId: "i", price: 1, quantity: 1 }],
        },
      ],
    }),
  )
  expect(err.code).toBe("response_validation")
  expect(err.retryable).toBe(false)
  expect(err.status).toBe(200)
  const locations = err.errors.map((e) => e.location)
  expect(locations).toContain("response.body.transactionDate")
  expect(locations).toContain("response.body.items[0].lineItems")
  expect(seen).toHaveLength(1)
  expect(attempts).toHaveLength(1)
})

it("a body that is not JSON is a response_validation error", async () => {
  answer = () => ({ status: 200, headers: { "content-type": "text/html" }, body: "<html>gateway</html>" })
  const err = await failure(client().ping())
  expect(err.code).toBe("response_validation")
})

it("a non-JSON error body keeps the status and is still classified (502 → retried)", async () => {
  answer = () => ({ status: 502, headers: { "content-type": "text/html" }, body: "<html>bad gateway</html>" })
  const err = await failure(client().ping())
  expect(err.status).toBe(502)
  expect(err.retryable).toBe(true)
  expect(err.attempts).toBe(4)
  expect(seen).toHaveLength(4)
})

it("a server that echoes the key in its problem body does not leak it", async () => {
  answer = (req) => ({
    status: 401,
    headers: { "content-type": "application/problem+json" },
    body: JSON.stringify({
      title: `bad key ${req.headers["x-api-key"]}`,
      status: 401,
      detail: `key ${req.headers["x-api-key"]} unknown`,
      errors: [{ location: "header.x-api-key", message: "unknown", value: req.headers["x-api-key"] }],
    }),
  })
  const attempts: AttemptInfo[] = []
  const err = await failure(client(attempts).ping())
  expect(err.status).toBe(401)
  expect(err.errors[0]!.location).toBe("header.x-api-key")
  for (const s of [JSON.stringify(err), err.message, err.stack ?? "", util.inspect(err, { depth: 10 }), JSON.stringify(attempts)]) {
    expect(s).not.toContain(KEY)
  }
})

it("does not follow redirects (the key must not travel to another host)", async () => {
  answer = () => ({ status: 307, headers: { location: "http://127.0.0.1:1/elsewhere" } })
  const err = await failure(client().ping())
  expect(err.status).toBe(307)
  expect(err.retryable).toBe(false)
  expect(seen).toHaveLength(1)
})

it("refund sends the generated key in the body and reads 200 as a replay", async () => {
  answer = (_req, body) => {
    const key = (JSON.parse(body) as { idempotencyKey: string }).idempotencyKey
    return {
      status: 200,
      body: JSON.stringify([
        { idempotencyKey: key, connectionId: CID, createdDate: "2026-01-01T00:00:00Z", returnedDate: null, items: [] },
      ]),
    }
  }
  const r = await client().refundOrder("o1", {})
  expect(JSON.parse(seen[0]!.body).idempotencyKey).toBe(r.idempotencyKey)
  expect(r.replayed).toBe(true)
  expect(seen[0]!.url).toBe(`/tax/connections/${CID}/orders/refunds/o1`)
})

it("encodes path parameters", async () => {
  answer = () => ({ status: 404, body: JSON.stringify({ title: "Not Found", status: 404 }) })
  await failure(client().getOrder("a/b c"))
  expect(seen[0]!.url).toBe(`/tax/connections/${CID}/orders/a%2Fb%20c`)
})

it("writes list filters as query strings and defaults the connection filter to its own", async () => {
  answer = () => ({ status: 200, body: JSON.stringify({ items: [], nextCursor: null }) })
  await client().listCertificates({ limit: 5, ascending: true, disabled: false })
  const url = new URL(seen[0]!.url, base)
  expect(url.pathname).toBe("/tax/exemption-certificates")
  expect(Object.fromEntries(url.searchParams)).toEqual({ limit: "5", ascending: "true", disabled: "false", connectionId: CID })
  await client().listCertificates({ connectionId: null })
  expect(new URL(seen[1]!.url, base).searchParams.has("connectionId")).toBe(false)
})

it("a cursor that comes back again stops the iterator with an error instead of looping", async () => {
  answer = () => ({
    status: 200,
    body: JSON.stringify({ query: "x", results: [{ ticId: 1, label: "a", description: "a", score: 1, rank: 1 }], nextCursor: "same" }),
  })
  const got: number[] = []
  const err = await failure(
    (async () => {
      for await (const t of client().tics("x", 1)) got.push(t.ticId)
    })(),
  )
  expect(err.code).toBe("response_validation")
  expect(got.length).toBe(2)
})

it("reads problem bodies leniently: well-formed error entries survive a malformed one", async () => {
  answer = () => ({
    status: 422,
    headers: { "content-type": "application/problem+json" },
    body: JSON.stringify({
      title: "Unprocessable Entity",
      status: 422,
      detail: "bad",
      errors: [{ oops: 1 }, { location: "body.zip", message: "unknown ZIP", value: "00000" }],
    }),
  })
  const err = await failure(client().verifyAddress({ line1: "a", city: "b", state: "WA", zip: "00000" }))
  expect(err.title).toBe("Unprocessable Entity")
  expect(err.detail).toBe("bad")
  expect(err.errors).toEqual([{ location: "body.zip", message: "unknown ZIP", value: "00000" }])
})

describe("retry decisions over status sequences (property)", () => {
  const RETRY = new Set([429, 500, 502, 503, 504])
  const status = fc.constantFrom(200, 400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504)

  it("an idempotent call stops at the first success or non-retryable status, or after maxAttempts", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(status, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 5 }), async (seq, maxAttempts) => {
        seen = []
        let i = 0
        answer = () => {
          const st = seq[Math.min(i++, seq.length - 1)]!
          return st === 200
            ? { status: 200, body: JSON.stringify({ message: "pong" }) }
            : { status: st, body: JSON.stringify({ title: "x", status: st }) }
        }
        const c = new SalesTaxClient({
          baseUrl: base,
          apiKey: KEY,
          connectionId: CID,
          retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 1 },
        })
        let expected = 0
        let outcome: number = 0
        for (let n = 0; n < maxAttempts; n++) {
          const st = seq[Math.min(n, seq.length - 1)]!
          expected++
          outcome = st
          if (!RETRY.has(st)) break
        }
        let got: number
        try {
          await c.ping()
          got = 200
        } catch (e) {
          got = (e as SalesTaxError).status!
          expect((e as SalesTaxError).attempts).toBe(expected)
          expect((e as SalesTaxError).retryable).toBe(RETRY.has(got))
        }
        expect(got).toBe(outcome)
        expect(seen).toHaveLength(expected)
      }),
      { numRuns: 60 },
    )
  })

  it("certificate creation repeats only after 429", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(status, { minLength: 1, maxLength: 4 }), async (seq) => {
        seen = []
        let i = 0
        answer = () => {
          const st = seq[Math.min(i++, seq.length - 1)]!
          return { status: st, body: JSON.stringify({ title: "x", status: st }) }
        }
        const c = new SalesTaxClient({
          baseUrl: base,
          apiKey: KEY,
          connectionId: CID,
          retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 1 },
        })
        await c
          .createCertificate({
            customerId: "c1",
            customerName: "A",
            address: { line1: "a", city: "b", state: "WA", zip: "98101" },
            reason: "Resale",
            customerBusinessType: "RetailTrade",
            states: [{ abbreviation: "WA" }],
          })
          .catch(() => undefined)
        let expected = 0
        for (let n = 0; n < 4; n++) {
          expected++
          if (seq[Math.min(n, seq.length - 1)] !== 429) break
        }
        expect(seen).toHaveLength(expected)
      }),
      { numRuns: 40 },
    )
  })
})
