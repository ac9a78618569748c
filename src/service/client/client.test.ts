/**
 * Black-box tests of the client against the sandbox, started in-process on an ephemeral port.
 * Faults are injected through /_sandbox/faults; what the service received is read from
 * /_sandbox/counts and from the service's own records (GET order ?expand=refunds).
 */
import util from "node:util"
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import type {
  Address,
  CalculateCartsRequest,
  CreateCertificateRequest,
  CreateOrderRequest,
  OperationId,
} from "../../../packages/contract/src/index"
import { SalesTaxClient, type AttemptInfo, type SalesTaxClientOptions } from "./index"
import { failure } from "./__tests__/failure"

const API_KEY = "sk_test_9f8e7d6c5b4a-VERY-SECRET"
const CONNECTION_ID = "11111111-2222-4333-8444-555555555555"

let sb: RunningSandbox

beforeAll(async () => {
  sb = await startSandbox({ apiKey: API_KEY, connectionId: CONNECTION_ID })
})
afterAll(async () => {
  await sb?.close()
})
beforeEach(async () => {
  await control("POST", "/_sandbox/reset")
})

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { "x-api-key": API_KEY, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return res.status === 204 ? undefined : res.json()
}

interface FaultSpec {
  operation: OperationId | "*"
  status?: number
  delayMs?: number
  retryAfter?: string
  count?: number
  drop?: boolean
  phase?: "before" | "after"
}
const fault = (spec: FaultSpec) => control("POST", "/_sandbox/faults", spec)
async function counts(): Promise<Record<OperationId, number>> {
  return ((await control("GET", "/_sandbox/counts")) as { counts: Record<OperationId, number> }).counts
}

function makeClient(over: Partial<SalesTaxClientOptions> = {}): { client: SalesTaxClient; attempts: AttemptInfo[]; at: number[] } {
  const attempts: AttemptInfo[] = []
  const at: number[] = []
  const client = new SalesTaxClient({
    baseUrl: sb.url,
    apiKey: API_KEY,
    connectionId: CONNECTION_ID,
    timeoutMs: 1000,
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 8000 },
    onAttempt: (i) => {
      attempts.push(i)
      at.push(Date.now())
    },
    ...over,
  })
  return { client, attempts, at }
}

const SEATTLE: Address = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const ORIGIN: Address = { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" }

function cartBody(
  cartId: string,
  lines = [
    { itemId: "sku-1", price: 10.75, quantity: 2 },
    { itemId: "sku-2", price: 5, quantity: 1 },
  ],
): CalculateCartsRequest {
  return {
    items: [
      {
        cartId,
        customerId: "cus_1",
        currency: { currencyCode: "USD" },
        origin: ORIGIN,
        destination: SEATTLE,
        lineItems: lines.map((l, index) => ({ index, ...l, tic: 0 })),
      },
    ],
  }
}

function orderBody(
  orderId: string,
  lines = [
    { itemId: "sku-1", price: 20, quantity: 3 },
    { itemId: "sku-2", price: 4.5, quantity: 1 },
  ],
): CreateOrderRequest {
  return {
    orderId,
    customerId: "cus_1",
    transactionDate: new Date(Date.now() - 60_000).toISOString(),
    completedDate: new Date(Date.now() - 60_000).toISOString(),
    currency: { currencyCode: "USD" },
    origin: ORIGIN,
    destination: SEATTLE,
    lineItems: lines.map((l, index) => ({ index, ...l, tic: 0, tax: { amount: 1, rate: 0.1 } })),
  }
}

function certificateBody(customerId: string): CreateCertificateRequest {
  return {
    customerId,
    customerName: "Acme Co",
    address: SEATTLE,
    reason: "Resale",
    customerBusinessType: "RetailTrade",
    states: [{ abbreviation: "WA" }],
  }
}

/** Every way the key could leak out of an error. */
function expectNoKey(err: unknown, attempts: AttemptInfo[] = [], key = API_KEY) {
  const e = err as Error
  expect(JSON.stringify(err)).not.toContain(key)
  expect(e.message).not.toContain(key)
  expect(e.stack ?? "").not.toContain(key)
  expect(util.inspect(err, { depth: 10, showHidden: true })).not.toContain(key)
  expect(String(err)).not.toContain(key)
  expect(JSON.stringify(attempts)).not.toContain(key)
  expect(util.inspect(attempts, { depth: 10 })).not.toContain(key)
}

// ---------------------------------------------------------------------------------------------
// happy path and typing
// ---------------------------------------------------------------------------------------------

describe("operations", () => {
  it("health, ping, calculateCarts, getCart answer typed and validated", async () => {
    const { client, attempts } = makeClient()
    expect((await client.health()).status).toBeTruthy()
    expect(typeof (await client.ping()).message).toBe("string")
    const res = await client.calculateCarts(cartBody("cart-happy"))
    expect(res.items[0]!.cartId).toBe("cart-happy")
    expect(res.items[0]!.lineItems).toHaveLength(2)
    const cart = await client.getCart("cart-happy")
    expect(cart.lineItems.map((l) => l.itemId)).toEqual(["sku-1", "sku-2"])
    expect(attempts.every((a) => a.attempt === 1 && !a.willRetry && a.error === undefined)).toBe(true)
    expect(attempts.map((a) => a.operation)).toEqual(["health", "ping", "calculateCarts", "getCart"])
  })

  it("orders: create, get, update, void; a voided order is a 404 SalesTaxError", async () => {
    const { client } = makeClient()
    const body = { ...orderBody("ord-life"), completedDate: undefined, completed: false }
    const { order, alreadyExisted } = await client.createOrder(body)
    expect(alreadyExisted).toBe(false)
    expect(order.completedDate).toBeNull()
    const completed = new Date(Date.now() - 1000).toISOString()
    const updated = await client.updateOrder("ord-life", { completedDate: completed })
    expect(Date.parse(updated.completedDate!)).toBe(Date.parse(completed))
    await client.voidOrder("ord-life")
    await client.voidOrder("ord-life") // voiding again is fine
    const err = await failure(client.getOrder("ord-life"))
    expect(err.status).toBe(404)
    expect(err.code).toBe("http")
    expect(err.retryable).toBe(false)
  })

  it("certificates: create, get, disable", async () => {
    const { client } = makeClient()
    const cert = await client.createCertificate(certificateBody("cus_cert"))
    expect((await client.getCertificate(cert.certificateId)).customerId).toBe("cus_cert")
    await client.disableCertificate(cert.certificateId)
    expect((await client.getCertificate(cert.certificateId)).disabledAt).not.toBeNull()
  })

  it("verifyAddress normalizes, and an unverifiable address is a 422 with located errors", async () => {
    const { client } = makeClient()
    const out = await client.verifyAddress({ ...SEATTLE, city: "seattle" })
    expect(out.state).toBe("WA")
    expect(out.zip.startsWith("98109")).toBe(true)
    const err = await failure(client.verifyAddress({ ...SEATTLE, zip: "00000" }))
    expect(err.status).toBe(422)
    expect(err.retryable).toBe(false)
    expect(err.errors.length).toBeGreaterThan(0)
    expect(err.errors.some((e) => e.location.startsWith("body."))).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------
// validation
// ---------------------------------------------------------------------------------------------

describe("validation", () => {
  it("a bad request throws located errors and sends nothing", async () => {
    const { client, attempts } = makeClient()
    const body = cartBody("cart-bad")
    body.items[0]!.destination = { ...SEATTLE, state: "Washington" }
    body.items[0]!.lineItems[1]!.quantity = 0
    const err = await failure(client.calculateCarts(body))
    expect(err.code).toBe("validation")
    expect(err.status).toBeNull()
    expect(err.retryable).toBe(false)
    const locations = err.errors.map((e) => e.location)
    expect(locations).toContain("body.items[0].destination.state")
    expect(locations).toContain("body.items[0].lineItems[1].quantity")
    expect(err.errors.find((e) => e.location === "body.items[0].destination.state")!.value).toBe("Washington")
    expect((await counts()).calculateCarts).toBe(0)
    expect(attempts).toHaveLength(0)
  })

  it("path parameters are validated too (cartId longer than 50)", async () => {
    const { client } = makeClient()
    const err = await failure(client.getCart("x".repeat(51)))
    expect(err.code).toBe("validation")
    expect(err.errors.map((e) => e.location)).toEqual(["path.cartId"])
    expect((await counts()).getCart).toBe(0)
  })

  it("path segments: dot segments refused before sending, anything else encoded as one segment", async () => {
    const { client } = makeClient()
    for (const id of [".", ".."]) {
      const err = await failure(client.getCertificate(id))
      expect(err.code).toBe("validation")
      expect(err.errors.map((e) => e.location)).toEqual(["path.id"])
      expect(err.message).not.toContain(CONNECTION_ID)
      expect(err.message).not.toContain("/tax/")
      expect((await failure(client.disableCertificate(id))).code).toBe("validation")
    }
    const c = await counts()
    expect(c.getCertificate ?? 0).toBe(0)
    expect(c.disableCertificate ?? 0).toBe(0)
    // "../x" stays one segment: the service is asked for that certificate id, and knows none
    const nf = await failure(client.getCertificate("../ping"))
    expect(nf.status).toBe(404)
    expect((await counts()).getCertificate).toBe(1)
    expect((await counts()).ping ?? 0).toBe(0)
  })

  it("the service's own 422 arrives with its located errors, not retried", async () => {
    const { client } = makeClient()
    await client.createOrder(orderBody("ord-422"))
    // refunding more than was sold: valid shape, invalid content
    const err = await failure(client.refundOrder("ord-422", { items: [{ itemId: "sku-2", quantity: 5 }] }))
    expect(err.status).toBe(422)
    expect(err.code).toBe("http")
    expect(err.errors.some((e) => e.location.startsWith("body.items[0]"))).toBe(true)
    expect((await counts()).refundOrder).toBe(1)
  })
})

// ---------------------------------------------------------------------------------------------
// retries
// ---------------------------------------------------------------------------------------------

describe("retries", () => {
  it("429 with Retry-After in seconds: waits at least that long, then succeeds", async () => {
    const { client, attempts, at } = makeClient()
    await fault({ operation: "calculateCarts", status: 429, retryAfter: "1", count: 1 })
    const res = await client.calculateCarts(cartBody("cart-429"))
    expect(res.items[0]!.cartId).toBe("cart-429")
    expect(attempts.map((a) => [a.attempt, a.status, a.willRetry])).toEqual([
      [1, 429, true],
      [2, 200, false],
    ])
    expect(attempts[0]!.retryAfterMs).toBe(1000)
    expect(attempts[0]!.delayMs).toBeGreaterThanOrEqual(1000)
    // the second attempt started no earlier than Retry-After after the first ended
    expect(at[1]! - at[0]! - attempts[1]!.durationMs).toBeGreaterThanOrEqual(990)
    expect((await counts()).calculateCarts).toBe(2)
  })

  it("503 with Retry-After as an HTTP date on TIC search: honoured, then succeeds", async () => {
    const { client, attempts } = makeClient()
    const when = new Date(Math.ceil((Date.now() + 500) / 1000) * 1000).toUTCString()
    await fault({ operation: "searchTics", status: 503, retryAfter: when, count: 1 })
    const res = await client.searchTics({ query: "clothing" })
    expect(res.results.length).toBeGreaterThan(0)
    expect(attempts[0]!.status).toBe(503)
    expect(attempts[0]!.retryAfterMs).toBeGreaterThan(0)
    expect(attempts[0]!.delayMs).toBeGreaterThanOrEqual(attempts[0]!.retryAfterMs!)
    expect(attempts[1]!.status).toBe(200)
    expect((await counts()).searchTics).toBe(2)
  })

  it("500 on POST carts is retried until it succeeds", async () => {
    const { client, attempts } = makeClient()
    await fault({ operation: "calculateCarts", status: 500, count: 2 })
    await client.calculateCarts(cartBody("cart-500"))
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 200])
    expect((await counts()).calculateCarts).toBe(3)
  })

  it.each([502, 504])("%i is retried", async (status) => {
    const { client } = makeClient()
    await fault({ operation: "ping", status, count: 1 })
    await client.ping()
    expect((await counts()).ping).toBe(2)
  })

  it.each([400, 401, 403, 404, 409, 422])("%i is never retried", async (status) => {
    const { client, attempts } = makeClient()
    await fault({ operation: "calculateCarts", status })
    const err = await failure(client.calculateCarts(cartBody("cart-no-retry")))
    expect(err.status).toBe(status)
    expect(err.retryable).toBe(false)
    expect(err.attempts).toBe(1)
    expect(attempts).toHaveLength(1)
    expect(attempts[0]!.willRetry).toBe(false)
    expect((await counts()).calculateCarts).toBe(1)
  })

  it("a wrong key is a 401, not retried, and the key is nowhere in the error or the hook", async () => {
    const wrong = "sk_wrong_key_that_must_not_leak_123"
    const { client, attempts } = makeClient({ apiKey: wrong })
    const err = await failure(client.ping())
    expect(err.status).toBe(401)
    expect(err.retryable).toBe(false)
    expect((await counts()).ping).toBe(1)
    expectNoKey(err, attempts, wrong)
  })

  it("a timeout (answer slower than timeoutMs) is retried", async () => {
    const { client, attempts } = makeClient({ timeoutMs: 600 })
    await client.calculateCarts(cartBody("cart-timeout"))
    await fault({ operation: "getCart", delayMs: 1500, count: 1 })
    const cart = await client.getCart("cart-timeout")
    expect(cart.cartId).toBe("cart-timeout")
    const gets = attempts.filter((a) => a.operation === "getCart")
    expect(gets.map((a) => a.status)).toEqual([null, 200])
    expect(gets[0]!.error).toMatch(/timeout|no answer/i)
    expect(gets[0]!.willRetry).toBe(true)
  })

  it("timeouts on every attempt end in a timeout error after maxAttempts", async () => {
    const { client, attempts } = makeClient({ timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 10 } })
    await fault({ operation: "ping", delayMs: 800 })
    const err = await failure(client.ping())
    expect(err.code).toBe("timeout")
    expect(err.status).toBeNull()
    expect(err.retryable).toBe(true)
    expect(err.attempts).toBe(2)
    expect(attempts.map((a) => a.willRetry)).toEqual([true, false])
    expect((await counts()).ping).toBe(2)
  })

  it("a dropped connection is a network error, retried", async () => {
    const { client, attempts } = makeClient()
    await fault({ operation: "ping", drop: true, count: 1 })
    await client.ping()
    expect(attempts.map((a) => a.status)).toEqual([null, 200])
    expect((await counts()).ping).toBe(2)

    await fault({ operation: "ping", drop: true })
    const err = await failure(client.ping())
    expect(err.code).toBe("network")
    expect(err.attempts).toBe(4)
  })

  it("bounded attempts: a 503 that never ends stops after maxAttempts", async () => {
    const { client, attempts } = makeClient({ retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } })
    await fault({ operation: "getCart", status: 503 })
    const err = await failure(client.getCart("any"))
    expect(err.status).toBe(503)
    expect(err.retryable).toBe(true)
    expect(err.attempts).toBe(3)
    expect(attempts).toHaveLength(3)
    expect((await counts()).getCart).toBe(3)
  })

  it("bounded total time: a Retry-After beyond the budget is not waited for", async () => {
    const { client, attempts } = makeClient({ retry: { maxAttempts: 5, baseDelayMs: 5, maxDelayMs: 10, maxElapsedMs: 1000 } })
    await fault({ operation: "ping", status: 429, retryAfter: "30" })
    const err = await failure(client.ping())
    expect(err.status).toBe(429)
    expect(err.attempts).toBe(1)
    expect(attempts[0]!.willRetry).toBe(false)
    expect(attempts[0]!.retryAfterMs).toBe(30_000)
    expect((await counts()).ping).toBe(1)
  })

  it("bounded total time: slow answers stop at the budget, not at maxAttempts", async () => {
    const { client, attempts } = makeClient({
      timeoutMs: 250,
      retry: { maxAttempts: 50, baseDelayMs: 5, maxDelayMs: 10, maxElapsedMs: 700 },
    })
    await fault({ operation: "ping", delayMs: 1000 })
    const err = await failure(client.ping())
    expect(err.code).toBe("timeout")
    expect(err.attempts).toBeLessThanOrEqual(4)
    expect(err.attempts).toBeGreaterThanOrEqual(2)
    // the attempts stop with the budget (50 attempts of 250 ms would take 12.5 s): at most twice the
    // 700 ms budget, slack for a loaded machine (that an attempt's timer is what is left of a
    // deadline is the next test's)
    expect(attempts.reduce((s, a) => s + a.durationMs, 0)).toBeLessThan(2 * 700)
  })

  it("a caller's deadline earlier than the budget ends the call there: the attempt's timer is what is left", async () => {
    const { client } = makeClient({ timeoutMs: 1000 })
    await fault({ operation: "calculateCarts", delayMs: 1500 })
    const t0 = Date.now()
    const err = await failure(client.calculateCarts(cartBody("cart-deadline"), { deadline: t0 + 200 }))
    expect(err.code).toBe("timeout")
    // ~200 ms; the attempt's own 1000 ms timeout (the deadline ignored) could not end sooner than 1000
    expect(Date.now() - t0).toBeLessThan(1000)
    expect(err.attempts).toBe(1)
    expect((await counts()).calculateCarts).toBe(1)
  })

  it("a call whose deadline has passed sends nothing and fails as a timeout", async () => {
    const { client, attempts } = makeClient()
    const err = await failure(client.calculateCarts(cartBody("cart-late"), { deadline: Date.now() - 1 }))
    expect(err.code).toBe("timeout")
    expect(err.attempts).toBe(0)
    expect(attempts).toHaveLength(0)
    expect((await counts()).calculateCarts).toBe(0)
  })

  it("a prepared body is sent as its JSON, not serialized again", async () => {
    const { client } = makeClient()
    // the JSON names another cart than the body object: the answer shows which one travelled
    const res = await client.calculateCarts(cartBody("cart-object"), { prepared: { json: JSON.stringify(cartBody("cart-json")) } })
    expect(res.items.map((c) => c.cartId)).toEqual(["cart-json"])
  })

  it("a prepared body is not validated again: an invalid one is the service's 422, with its located errors", async () => {
    const { client } = makeClient()
    const bad = cartBody("x".repeat(51))
    // unprepared: refused by the client, nothing sent
    expect((await failure(client.calculateCarts(bad))).code).toBe("validation")
    expect((await counts()).calculateCarts).toBe(0)
    // prepared: sent, and the service refuses it
    const err = await failure(client.calculateCarts(bad, { prepared: { json: JSON.stringify(bad) } }))
    expect(err.code).toBe("http")
    expect(err.status).toBe(422)
    expect(err.errors.map((e) => e.location)).toContain("body.items[0].cartId")
    expect((await counts()).calculateCarts).toBe(1)
  })

  it("retry: false makes one attempt", async () => {
    const { client } = makeClient({ retry: false })
    await fault({ operation: "ping", status: 503 })
    const err = await failure(client.ping())
    expect(err.attempts).toBe(1)
    expect((await counts()).ping).toBe(1)
  })

  it("certificate creation (no idempotency at the service) is not retried after a 500 or a timeout, but is after a 429", async () => {
    const { client } = makeClient({ timeoutMs: 600 })
    await fault({ operation: "createCertificate", status: 500, count: 1 })
    const e500 = await failure(client.createCertificate(certificateBody("cus_c1")))
    expect([e500.status, e500.attempts, e500.retryable]).toEqual([500, 1, false])
    expect((await counts()).createCertificate).toBe(1)

    await fault({ operation: "createCertificate", delayMs: 1200, count: 1 })
    const eto = await failure(client.createCertificate(certificateBody("cus_c1")))
    expect([eto.code, eto.attempts, eto.retryable]).toEqual(["timeout", 1, false])
    await control("DELETE", "/_sandbox/counts")

    await fault({ operation: "createCertificate", status: 429, count: 1 })
    await client.createCertificate(certificateBody("cus_c2"))
    expect((await counts()).createCertificate).toBe(2)
    const listed = []
    for await (const c of client.certificates({ customerId: "cus_c2" })) listed.push(c)
    expect(listed).toHaveLength(1)
  })

  it("background() uses the longer timeout", async () => {
    const { client } = makeClient({ timeoutMs: 300, backgroundTimeoutMs: 3000, retry: false })
    await fault({ operation: "ping", delayMs: 900 })
    expect((await failure(client.ping())).code).toBe("timeout")
    const bg = client.background()
    expect(bg.settings.timeoutMs).toBe(3000)
    expect((await bg.ping()).message).toBeTruthy()
  })

  it("an exception in the hook does not change the outcome", async () => {
    const client = new SalesTaxClient({
      baseUrl: sb.url,
      apiKey: API_KEY,
      connectionId: CONNECTION_ID,
      onAttempt: () => {
        throw new Error("broken hook")
      },
    })
    expect((await client.ping()).message).toBeTruthy()
    const rejections: unknown[] = []
    const onRejection = (r: unknown) => rejections.push(r)
    process.on("unhandledRejection", onRejection)
    try {
      const asyncHook = new SalesTaxClient({
        baseUrl: sb.url,
        apiKey: API_KEY,
        connectionId: CONNECTION_ID,
        onAttempt: async () => {
          throw new Error("broken async hook")
        },
      })
      expect((await asyncHook.ping()).message).toBeTruthy()
      await new Promise((r) => setTimeout(r, 20))
      expect(rejections).toEqual([])
    } finally {
      process.off("unhandledRejection", onRejection)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// never filed twice
// ---------------------------------------------------------------------------------------------

describe("idempotent creation", () => {
  async function ordersOf(client: SalesTaxClient, orderId: string) {
    return client.getOrder(orderId, { expandRefunds: true })
  }

  it.each([
    ["a 500 after the write", { status: 500 }],
    ["a dropped connection after the write", { drop: true }],
    ["a 503 with Retry-After after the write", { status: 503, retryAfter: "0" }],
  ])("createOrder with %s ends with exactly one order, reported as already existing", async (_label, f) => {
    const { client, attempts } = makeClient()
    await fault({ operation: "createOrder", phase: "after", count: 1, ...f })
    const body = orderBody("ord-lost")
    const { order, alreadyExisted } = await client.createOrder(body)
    expect(alreadyExisted).toBe(true)
    expect(order.orderId).toBe("ord-lost")
    expect(order.lineItems.map((l) => [l.itemId, l.quantity, l.price])).toEqual(body.lineItems.map((l) => [l.itemId, l.quantity, l.price]))
    const c = await counts()
    expect(c.createOrder).toBe(2)
    expect(c.getOrder).toBe(1)
    expect(attempts.filter((a) => a.operation === "createOrder").map((a) => a.status)).toEqual([
      (f as { status?: number }).status ?? null,
      400,
    ])
    // one order: a further identical call is also "already existed", never a second filing
    expect((await client.createOrder(body)).alreadyExisted).toBe(true)
    expect((await ordersOf(client, "ord-lost")).orderId).toBe("ord-lost")
  })

  it("createOrder with an answer slower than the timeout: one order in the end", async () => {
    const { client } = makeClient({ timeoutMs: 600 })
    await fault({ operation: "createOrder", phase: "after", delayMs: 1300, count: 1 })
    const { order } = await client.createOrder(orderBody("ord-slow"))
    expect(order.orderId).toBe("ord-slow")
    expect((await client.getOrder("ord-slow")).lineItems).toHaveLength(2)
  })

  it("an orderId taken by a different order is a non-retryable conflict, with located differences", async () => {
    const { client } = makeClient()
    await client.createOrder(orderBody("ord-taken"))
    const other = orderBody("ord-taken", [
      { itemId: "sku-1", price: 20, quantity: 4 },
      { itemId: "sku-2", price: 4.5, quantity: 1 },
    ])
    const err = await failure(client.createOrder(other))
    expect(err.status).toBe(409)
    expect(err.retryable).toBe(false)
    expect(err.errors.map((e) => e.location)).toEqual(["body.lineItems[0].quantity"])
    expect((await client.getOrder("ord-taken")).lineItems[0]!.quantity).toBe(3)
  })

  it("a plain 400 that is not a duplicate stays the original error", async () => {
    const { client } = makeClient()
    await fault({ operation: "createOrder", status: 400, count: 1 })
    const err = await failure(client.createOrder(orderBody("ord-400")))
    expect(err.status).toBe(400)
    expect(err.title).not.toBe("Conflict")
  })

  it.each([
    ["a 502 after the write", { status: 502 }],
    ["a dropped connection after the write", { drop: true }],
  ])("cartToOrder with %s ends with exactly one order", async (_label, f) => {
    const { client } = makeClient()
    await client.calculateCarts(cartBody("cart-conv"))
    await fault({ operation: "cartToOrder", phase: "after", count: 1, ...f })
    const { order, alreadyExisted } = await client.cartToOrder({ cartId: "cart-conv", orderId: "ord-conv", completed: true })
    expect(alreadyExisted).toBe(true)
    expect(order.cartId).toBe("cart-conv")
    expect(order.lineItems.map((l) => l.itemId)).toEqual(["sku-1", "sku-2"])
    expect((await counts()).cartToOrder).toBe(2)
  })

  it("cartToOrder under an orderId already made from another cart is a conflict", async () => {
    const { client } = makeClient()
    await client.calculateCarts(cartBody("cart-a"))
    await client.calculateCarts(cartBody("cart-b"))
    await client.cartToOrder({ cartId: "cart-a", orderId: "ord-ab", completed: true })
    const err = await failure(client.cartToOrder({ cartId: "cart-b", orderId: "ord-ab", completed: true }))
    expect(err.status).toBe(409)
    expect(err.errors.map((e) => e.location)).toContain("body.cartId")
  })
})

describe("refunds", () => {
  it("always carry an idempotency key: a generated one is returned", async () => {
    const { client } = makeClient()
    await client.createOrder(orderBody("ord-ref"))
    const r = await client.refundOrder("ord-ref", { items: [{ itemId: "sku-1", quantity: 1 }] })
    expect(r.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.replayed).toBe(false)
    expect(r.refunds[0]!.idempotencyKey).toBe(r.idempotencyKey)
    // the same key again: the service replays, no second refund
    const again = await client.refundOrder("ord-ref", { items: [{ itemId: "sku-1", quantity: 1 }], idempotencyKey: r.idempotencyKey })
    expect(again.replayed).toBe(true)
    expect((await client.getOrder("ord-ref", { expandRefunds: true })).refunds).toHaveLength(1)
  })

  it.each([
    ["a 503 after the write", { status: 503 }],
    ["a dropped connection after the write", { drop: true }],
    ["an answer slower than the timeout", { delayMs: 1300 }],
  ])("with %s: retried under the same key, exactly one refund recorded", async (_label, f) => {
    const { client, attempts } = makeClient({ timeoutMs: 600 })
    await client.createOrder(orderBody("ord-ref-lost"))
    await fault({ operation: "refundOrder", phase: "after", count: 1, ...f })
    const r = await client.refundOrder("ord-ref-lost", { items: [{ itemId: "sku-1", quantity: 2 }], idempotencyKey: "ret_123" })
    expect(r.idempotencyKey).toBe("ret_123")
    expect(r.replayed).toBe(true)
    const order = await client.getOrder("ord-ref-lost", { expandRefunds: true })
    expect(order.refunds).toHaveLength(1)
    expect(order.refunds![0]!.items.map((i) => [i.itemId, i.quantity])).toEqual([["sku-1", 2]])
    expect(attempts.filter((a) => a.operation === "refundOrder").length).toBeGreaterThanOrEqual(2)
    expect((await counts()).refundOrder).toBeGreaterThanOrEqual(2)
  })
})

// ---------------------------------------------------------------------------------------------
// cursors
// ---------------------------------------------------------------------------------------------

describe("async iterators", () => {
  it("certificates() follows nextCursor over several pages", async () => {
    const { client } = makeClient()
    const created = new Set<string>()
    for (let i = 0; i < 5; i++) created.add((await client.createCertificate(certificateBody("cus_pages"))).certificateId)
    await control("DELETE", "/_sandbox/counts")
    const seen: string[] = []
    for await (const c of client.certificates({ customerId: "cus_pages", limit: 2 })) seen.push(c.certificateId)
    expect(new Set(seen)).toEqual(created)
    expect(seen).toHaveLength(5)
    expect((await counts()).listCertificates).toBe(3)
  })

  it("tics() follows nextCursor, ranked, without repeats", async () => {
    const { client } = makeClient()
    const got: { ticId: number; rank: number }[] = []
    for await (const t of client.tics("food", 3)) {
      got.push(t)
      if (got.length >= 8) break
    }
    expect(got.length).toBe(8)
    expect(new Set(got.map((t) => t.ticId)).size).toBe(8)
    for (let i = 1; i < got.length; i++) expect(got[i]!.rank).toBeGreaterThan(got[i - 1]!.rank)
    expect((await counts()).searchTics).toBe(3)
  })

  it("a page failure surfaces from the iterator as a SalesTaxError", async () => {
    const { client } = makeClient({ retry: false })
    await fault({ operation: "searchTics", status: 400 })
    const it = client.tics("shoes")[Symbol.asyncIterator]()
    const err = await failure(it.next())
    expect(err.operation).toBe("searchTics")
  })
})

// ---------------------------------------------------------------------------------------------
// redaction
// ---------------------------------------------------------------------------------------------

describe("the API key never leaks", () => {
  it("not from http errors, timeouts, network errors, validation errors, nor the hook", async () => {
    const { client, attempts } = makeClient({ timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } })
    await fault({ operation: "ping", status: 500 })
    expectNoKey(await failure(client.ping()), attempts)
    await control("DELETE", "/_sandbox/faults")
    await fault({ operation: "ping", delayMs: 500 })
    expectNoKey(await failure(client.ping()), attempts)
    await control("DELETE", "/_sandbox/faults")
    await fault({ operation: "ping", drop: true })
    expectNoKey(await failure(client.ping()), attempts)
    // the key as an offending value of the caller's own input
    const body = cartBody("cart-key")
    body.items[0]!.customerId = `${API_KEY}@example.com`
    const verr = await failure(client.calculateCarts(body))
    expect(verr.errors[0]!.location).toBe("body.items[0].customerId")
    expectNoKey(verr, attempts)
    // a refused connection
    const dead = new SalesTaxClient({ baseUrl: "http://127.0.0.1:1", apiKey: API_KEY, connectionId: CONNECTION_ID, retry: false })
    const nerr = await failure(dead.ping())
    expect(nerr.code).toBe("network")
    expectNoKey(nerr)
    expect(attempts.length).toBeGreaterThan(0)
  })

  it("not from the client itself", () => {
    const { client } = makeClient()
    expect(util.inspect(client, { depth: 10, showHidden: true })).not.toContain(API_KEY)
    expect(JSON.stringify(client)).not.toContain(API_KEY)
    expect(() => new SalesTaxClient({ baseUrl: "nope", apiKey: API_KEY, connectionId: "short" })).toThrow(TypeError)
    try {
      new SalesTaxClient({ baseUrl: "nope", apiKey: API_KEY, connectionId: "short" })
    } catch (e) {
      expectNoKey(e)
    }
  })
})
