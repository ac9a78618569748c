import { TicSearchResponse } from "@medusa-sales-tax/contract"
import { C, KEY, SEATTLE, call, cart, makeSandbox, rawRequest, type TestSandbox } from "./helpers"

let s: TestSandbox
beforeAll(async () => {
  s = await makeSandbox()
})
afterAll(() => s.close())

function expectProblem(r: { status: number; headers: Record<string, unknown>; body: any; raw: string }, status: number) {
  expect(r.status).toBe(status)
  expect(String(r.headers["content-type"])).toMatch(/^application\/problem\+json/)
  expect(r.body).toMatchObject({ type: "about:blank", status, title: expect.any(String) })
  expect(r.raw).not.toMatch(/\bat .*\.(ts|js):\d+/) // no stack trace
  expect(r.raw).not.toContain(KEY)
}

describe("bad input never yields a 5xx", () => {
  it("malformed JSON is 400 problem with a located error", async () => {
    const r = await call(s, "POST", `${C()}/carts`, { rawBody: '{"items": [', headers: { "content-type": "application/json" } })
    expectProblem(r, 400)
    expect(r.body.errors[0].location).toBe("body")
    expectProblem(
      await call(s, "POST", `${C()}/carts`, { rawBody: '{"__proto__": {"x": 1}}', headers: { "content-type": "application/json" } }),
      400,
    )
    for (const rawBody of ['{"\\u005f_proto__": {"x": 1}}', '{"constructor": {"prototype": {"x": 1}}}'])
      expectProblem(await call(s, "POST", `${C()}/carts`, { rawBody, headers: { "content-type": "application/json" } }), 400)
  })

  it("a JSON value of the wrong shape is 422", async () => {
    // a "constructor" key without a "prototype" one is no poisoning: parsed, then refused by its shape
    for (const raw of ["[]", "42", '"text"', "null", "{}", '{"items": {}}', '{"constructor": {"x": 1}}']) {
      const r = await call(s, "POST", `${C()}/carts`, { rawBody: raw, headers: { "content-type": "application/json" } })
      expectProblem(r, 422)
      expect(r.body.errors.length).toBeGreaterThan(0)
      expect(r.body.errors[0]).toEqual(expect.objectContaining({ location: expect.stringMatching(/^body/), message: expect.any(String) }))
    }
    // no body at all where one is required
    expectProblem(await call(s, "POST", `${C()}/carts`, {}), 422)
    expectProblem(await call(s, "POST", `${C()}/carts`, { rawBody: "", headers: { "content-type": "application/json" } }), 422)
  })

  it("a content type other than JSON is 415", async () => {
    expectProblem(
      await call(s, "POST", `${C()}/carts`, { rawBody: "items=1", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      415,
    )
    expectProblem(await call(s, "POST", `${C()}/carts`, { rawBody: "hello", headers: { "content-type": "text/plain" } }), 415)
    expectProblem(await call(s, "POST", `${C()}/carts`, { rawBody: "<a/>", headers: { "content-type": "application/xml" } }), 415)
    // charset parameters are fine
    const ok = await call(s, "POST", `${C()}/carts`, {
      rawBody: JSON.stringify({ items: [cart()] }),
      headers: { "content-type": "application/json; charset=utf-8" },
    })
    expect(ok.status).toBe(200)
  })

  it("a huge body is 413", async () => {
    const big = JSON.stringify({ items: [cart({ customerId: "x".repeat(2 * 1024 * 1024) })] })
    expectProblem(await call(s, "POST", `${C()}/carts`, { rawBody: big, headers: { "content-type": "application/json" } }), 413)
  })

  it("unknown routes are 404 problem, wrong methods 405 with Allow", async () => {
    expectProblem(await call(s, "GET", "/nope"), 404)
    expectProblem(await call(s, "GET", "/tax/connections"), 404)
    const m = await call(s, "PUT", `${C()}/carts`, { body: {} })
    expectProblem(m, 405)
    expect(m.headers.allow).toBe("POST")
    const o = await call(s, "POST", `${C()}/orders/abc`, { body: {} })
    expectProblem(o, 405)
    expect(String(o.headers.allow).split(", ").sort()).toEqual(["DELETE", "GET", "PATCH"])
  })

  it("bad percent-encoding in the URL is a 400 problem", async () => {
    const r = await rawRequest(s.port, "GET", `${C()}/carts/%E0%A4%A`, { "x-api-key": KEY })
    expect(r.status).toBe(400)
    expect(String(r.headers["content-type"])).toMatch(/problem\+json/)
  })
})

describe("limits", () => {
  it("connectionId must be at least 36 characters", async () => {
    const short = "0".repeat(35)
    const r = await call(s, "GET", `/tax/connections/${short}/ping`)
    expectProblem(r, 422)
    expect(r.body.errors[0]).toMatchObject({ location: "path.connectionId", value: short })
  })

  it("orderId in a path of 51 characters is 422", async () => {
    const r = await call(s, "GET", `${C()}/orders/${"o".repeat(51)}`)
    expectProblem(r, 422)
    expect(r.body.errors[0].location).toBe("path.orderId")
  })

  it("TIC search: limit 1..100, default 10, cursor from nextCursor", async () => {
    const d = await call(s, "POST", "/tax/tic/search", { body: { query: "clothing" } })
    expect(d.status).toBe(200)
    const parsed = TicSearchResponse.parse(d.body)
    expect(parsed.results.length).toBeLessThanOrEqual(10)
    expect(parsed.results.length).toBeGreaterThan(0)
    for (const l of [0, 101, 1.5, "5"]) {
      const r = await call(s, "POST", "/tax/tic/search", { body: { query: "clothing", limit: l } })
      expectProblem(r, 422)
      expect(r.body.errors[0].location).toBe("body.limit")
    }
    expect((await call(s, "POST", "/tax/tic/search", { body: { query: "clothing", limit: 100 } })).status).toBe(200)
    const p1 = await call(s, "POST", "/tax/tic/search", { body: { query: "food", limit: 2 } })
    if (p1.body.nextCursor) {
      const p2 = await call(s, "POST", "/tax/tic/search", { body: { query: "food", limit: 2, cursor: p1.body.nextCursor } })
      expect(p2.status).toBe(200)
      const ids1 = p1.body.results.map((r: any) => r.ticId)
      expect(p2.body.results.every((r: any) => !ids1.includes(r.ticId))).toBe(true)
    }
    const bad = await call(s, "POST", "/tax/tic/search", { body: { query: "food", cursor: "garbage!" } })
    expectProblem(bad, 422)
    expect(bad.body.errors[0].location).toBe("body.cursor")
    expectProblem(await call(s, "POST", "/tax/tic/search", { body: { query: "" } }), 422)
  })

  it("verify-address normalizes a good address and locates the errors of a bad one", async () => {
    const ok = await call(s, "POST", "/tax/verify-address", { body: { ...SEATTLE, city: "SEATTLE" } })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ state: "WA", zip: "98109", city: "Seattle" })
    const mismatch = await call(s, "POST", "/tax/verify-address", { body: { ...SEATTLE, state: "NY" } })
    expectProblem(mismatch, 422)
    expect(mismatch.body.errors[0].location).toMatch(/^body\.(zip|state)$/)
    const unknown = await call(s, "POST", "/tax/verify-address", { body: { ...SEATTLE, zip: "00000" } })
    expectProblem(unknown, 422)
    const full = await call(s, "POST", "/tax/verify-address", { body: { ...SEATTLE, state: "Washington" } })
    expectProblem(full, 422)
    expect(full.body.errors[0]).toMatchObject({ location: "body.state", value: "Washington" })
  })

  it("ping answers pong and health lists components", async () => {
    expect((await call(s, "GET", `${C()}/ping`)).body).toEqual({ message: "pong" })
    const h = await call(s, "GET", "/tax/health", { key: null })
    expect(h.body.components.every((c: any) => typeof c.type === "string" && typeof c.status === "string")).toBe(true)
  })
})
