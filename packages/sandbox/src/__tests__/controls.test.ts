import { C, CONN, CONN_B, KEY_B, call, cart, makeSandbox, orderBody, type TestSandbox } from "./helpers"

let s: TestSandbox
beforeEach(async () => {
  s = await makeSandbox()
})
afterEach(() => s.close())

const fault = (spec: Record<string, unknown>) => call(s, "POST", "/_sandbox/faults", { body: spec })
const ping = () => call(s, "GET", `${C()}/ping`)

describe("clock", () => {
  it("PUT freezes, GET reports, DELETE returns to real time; the frozen time drives the service", async () => {
    const put = await call(s, "PUT", "/_sandbox/clock", { body: { now: "2030-05-06T07:08:09+02:00" } })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({ now: "2030-05-06T05:08:09.000Z", frozen: true })
    expect((await call(s, "GET", "/_sandbox/clock")).body).toEqual({ now: "2030-05-06T05:08:09.000Z", frozen: true })
    const c = await call(s, "POST", `${C()}/carts`, { body: { items: [cart()] } })
    expect(c.body.transactionDate).toBe("2030-05-06T05:08:09.000Z")
    const del = await call(s, "DELETE", "/_sandbox/clock")
    expect(del.body.frozen).toBe(false)
    const real = await call(s, "GET", "/_sandbox/clock")
    expect(real.body.frozen).toBe(false)
    expect(Math.abs(new Date(real.body.now).getTime() - Date.now())).toBeLessThan(60_000)
    const bad = await call(s, "PUT", "/_sandbox/clock", { body: { now: "tomorrow" } })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].location).toBe("body.now")
  })
})

describe("faults", () => {
  it("a fault naming a connection fires only for requests on that connection", async () => {
    const f = await fault({ operation: "calculateCarts", status: 503, connectionId: CONN_B })
    expect(f.status).toBe(201)
    const onA = await call(s, "POST", `${C()}/carts`, { body: { items: [cart()] } })
    expect(onA.status).toBe(200)
    const onB = await call(s, "POST", `${C(CONN_B)}/carts`, { key: KEY_B, body: { items: [cart()] } })
    expect(onB.status).toBe(503)
    const bad = await fault({ operation: "calculateCarts", status: 503, connectionId: "" })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].location).toBe("body.connectionId")
  })

  it("status fault answers instead of the operation, with Retry-After, and writes nothing", async () => {
    const f = await fault({ operation: "createOrder", status: 503, retryAfter: "2" })
    expect(f.status).toBe(201)
    expect(f.body.id).toEqual(expect.any(String))
    const r = await call(s, "POST", `${C()}/orders`, { body: orderBody({ orderId: "f-1" }) })
    expect(r.status).toBe(503)
    expect(r.headers["retry-after"]).toBe("2")
    expect(String(r.headers["content-type"])).toMatch(/problem\+json/)
    expect(r.body.status).toBe(503)
    expect((await call(s, "GET", `${C()}/orders/f-1`)).status).toBe(404)
    expect((await ping()).status).toBe(200) // other operations unaffected
  })

  it("count limits how many times a fault fires; DELETE by id and DELETE all clear them", async () => {
    await fault({ operation: "ping", status: 500, count: 2 })
    expect([(await ping()).status, (await ping()).status, (await ping()).status]).toEqual([500, 500, 200])
    const f = await fault({ operation: "*", status: 429 })
    expect((await ping()).status).toBe(429)
    expect((await call(s, "GET", "/tax/health", { key: null })).status).toBe(429)
    expect((await call(s, "DELETE", `/_sandbox/faults/${f.body.id}`)).status).toBe(204)
    expect((await call(s, "DELETE", `/_sandbox/faults/${f.body.id}`)).status).toBe(404)
    expect((await ping()).status).toBe(200)
    await fault({ operation: "ping", status: 502 })
    expect((await call(s, "DELETE", "/_sandbox/faults")).status).toBe(204)
    expect((await ping()).status).toBe(200)
  })

  it("probability 0 never fires and probability 1 always does", async () => {
    await fault({ operation: "ping", status: 500, probability: 0 })
    for (let i = 0; i < 5; i++) expect((await ping()).status).toBe(200)
    await call(s, "DELETE", "/_sandbox/faults")
    await fault({ operation: "ping", status: 500, probability: 1 })
    for (let i = 0; i < 5; i++) expect((await ping()).status).toBe(500)
  })

  it("probability 0.5 fires on some requests and not others", async () => {
    await fault({ operation: "ping", status: 500, probability: 0.5 })
    const statuses = new Set<number>()
    for (let i = 0; i < 60; i++) statuses.add((await ping()).status)
    expect([...statuses].sort()).toEqual([200, 500])
  })

  it("a delay-only fault holds the answer (a later request overtakes it) and then answers normally", async () => {
    // held 2 s: the later request overtakes it however slow the machine (300 ms was a race on a loaded one)
    await fault({ operation: "ping", delayMs: 2000, count: 1 })
    const order: string[] = []
    const delayed = ping().then((r) => {
      order.push("ping")
      return r
    })
    await new Promise((r) => setTimeout(r, 20))
    const quick = call(s, "GET", "/tax/health", { key: null }).then((r) => {
      order.push("health")
      return r
    })
    const [d, q] = await Promise.all([delayed, quick])
    expect([d.status, q.status]).toEqual([200, 200])
    expect(d.body).toEqual({ message: "pong" })
    expect(order).toEqual(["health", "ping"])
  })

  it("drop destroys the socket without an answer", async () => {
    await fault({ operation: "ping", drop: true, count: 1 })
    expect((await ping()).status).toBe(-1)
    expect((await ping()).status).toBe(200)
  })

  it('phase "after": the write happens, then the answer is replaced (the lost response)', async () => {
    await fault({ operation: "createOrder", status: 500, phase: "after", count: 1 })
    const r = await call(s, "POST", `${C()}/orders`, { body: orderBody({ orderId: "lost-1" }) })
    expect(r.status).toBe(500)
    expect((await call(s, "GET", `${C()}/orders/lost-1`)).status).toBe(200)
    await fault({ operation: "refundOrder", drop: true, phase: "after", count: 1 })
    const d = await call(s, "POST", `${C()}/orders/refunds/lost-1`, {
      body: { items: [{ itemId: "a", quantity: 1 }], idempotencyKey: "lost" },
    })
    expect(d.status).toBe(-1)
    // the retry with the same key finds the refund already recorded
    const retry = await call(s, "POST", `${C()}/orders/refunds/lost-1`, {
      body: { items: [{ itemId: "a", quantity: 1 }], idempotencyKey: "lost" },
    })
    expect(retry.status).toBe(200)
  })

  it("invalid fault specs are 422", async () => {
    for (const spec of [
      { operation: "nope", status: 500 },
      { operation: "ping" },
      { operation: "ping", status: 200 },
      { operation: "ping", status: 500, probability: 2 },
      { operation: "ping", status: 500, count: 0 },
      { operation: "ping", drop: true, phase: "during" },
    ]) {
      expect((await fault(spec)).status).toBe(422)
    }
  })
})

describe("counts and reset", () => {
  it("counts requests per operation, faulted and rejected ones included; DELETE resets", async () => {
    await ping()
    await ping()
    await call(s, "GET", `${C()}/ping`, { key: "wrong" })
    await fault({ operation: "calculateCarts", status: 500, count: 1 })
    await call(s, "POST", `${C()}/carts`, { body: { items: [cart()] } })
    await call(s, "POST", `${C()}/carts`, { body: { items: [cart()] } })
    const c = await call(s, "GET", "/_sandbox/counts")
    expect(c.body.counts).toMatchObject({ ping: 3, calculateCarts: 2, createOrder: 0 })
    expect(Object.keys(c.body.counts)).toHaveLength(16 + 18) // v3 operations and "v1.<Operation>"
    expect((await call(s, "DELETE", "/_sandbox/counts")).status).toBe(204)
    expect((await call(s, "GET", "/_sandbox/counts")).body.counts.ping).toBe(0)
  })

  it("counts per connection (the path's, a certificate list's query, else the one its API key grants); DELETE resets them too", async () => {
    await ping()
    await call(s, "GET", `${C(CONN_B)}/ping`, { key: KEY_B })
    await call(s, "POST", `${C(CONN_B)}/carts`, { key: KEY_B, body: { items: [cart()] } })
    await call(s, "GET", `/tax/exemption-certificates?connectionId=${CONN_B}&customerId=cus_1`, { key: KEY_B })
    // no connection in the path: the key's only one
    const verified = await call(s, "POST", "/tax/verify-address", {
      key: KEY_B,
      body: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
    })
    expect(verified.status).toBe(200)
    const c = (await call(s, "GET", "/_sandbox/counts")).body
    expect(c.byConnection).toEqual({
      [CONN]: { ping: 1 },
      [CONN_B]: { ping: 1, calculateCarts: 1, listCertificates: 1, verifyAddress: 1 },
    })
    expect(c.counts).toMatchObject({ ping: 2, calculateCarts: 1 })
    await call(s, "DELETE", "/_sandbox/counts")
    expect((await call(s, "GET", "/_sandbox/counts")).body.byConnection).toEqual({})
  })

  it("reset clears data, faults, counts and clock", async () => {
    await call(s, "PUT", "/_sandbox/clock", { body: { now: "2026-01-20T00:00:00Z" } })
    await call(s, "POST", `${C()}/orders`, { body: orderBody({ orderId: "gone", completedDate: "2026-01-19T00:00:00Z" }) })
    await fault({ operation: "getOrder", status: 500 })
    expect((await call(s, "POST", "/_sandbox/reset")).status).toBe(204)
    expect((await call(s, "GET", `${C()}/orders/gone`)).status).toBe(404)
    expect((await call(s, "GET", "/_sandbox/clock")).body.frozen).toBe(false)
    const counts = (await call(s, "GET", "/_sandbox/counts")).body.counts
    expect(counts.getOrder).toBe(1)
    expect(counts.createOrder).toBe(0)
  })
})
