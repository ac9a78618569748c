import { C, CONN, CONN_B, KEY, KEY_B, call, cart, certBody, makeSandbox, orderBody } from "./helpers"
import type { TestSandbox } from "./helpers"

let s: TestSandbox
beforeAll(async () => {
  s = await makeSandbox({ apiKey: "secret-key-A-123456" })
})
afterAll(() => s.close())
const KA = "secret-key-A-123456"

describe("auth", () => {
  it("health needs no key", async () => {
    const r = await call(s, "GET", "/tax/health", { key: null })
    expect(r.status).toBe(200)
    expect(r.body.status).toBe("pass")
    expect(r.body.components).toEqual(expect.arrayContaining([expect.objectContaining({ type: "database", status: "pass" })]))
  })

  it("a missing key is 401 problem on every authenticated operation", async () => {
    const urls: [string, string][] = [
      ["GET", `${C()}/ping`],
      ["POST", `${C()}/carts`],
      ["GET", `${C()}/carts/x`],
      ["POST", `${C()}/carts/orders`],
      ["POST", `${C()}/orders`],
      ["GET", `${C()}/orders/o`],
      ["PATCH", `${C()}/orders/o`],
      ["DELETE", `${C()}/orders/o`],
      ["POST", `${C()}/orders/refunds/o`],
      ["POST", `${C()}/exemption-certificates`],
      ["GET", `${C()}/exemption-certificates/i`],
      ["DELETE", `${C()}/exemption-certificates/i`],
      ["GET", "/tax/exemption-certificates"],
      ["POST", "/tax/tic/search"],
      ["POST", "/tax/verify-address"],
    ]
    for (const [m, u] of urls) {
      const r = await call(s, m as "GET", u, { key: null })
      expect([m, u, r.status]).toEqual([m, u, 401])
      expect(r.headers["content-type"]).toMatch(/application\/problem\+json/)
      expect(r.body).toMatchObject({ status: 401, title: "Unauthorized" })
    }
  })

  it("a wrong key is 401 and the key never appears in the answer", async () => {
    const r = await call(s, "GET", `${C()}/ping`, { key: "not-a-key-zzz" })
    expect(r.status).toBe(401)
    expect(r.raw).not.toContain("not-a-key-zzz")
  })

  it("accepts X-API-KEY in any letter case and Authorization: Bearer", async () => {
    expect((await call(s, "GET", `${C()}/ping`, { key: null, headers: { "X-Api-Key": KA } })).status).toBe(200)
    const b = await call(s, "GET", `${C()}/ping`, { key: null, headers: { authorization: `Bearer ${KA}` } })
    expect(b.status).toBe(200)
    expect(b.body).toEqual({ message: "pong" })
    expect((await call(s, "GET", `${C()}/ping`, { key: null, headers: { authorization: `bearer ${KA}` } })).status).toBe(200)
    expect((await call(s, "GET", `${C()}/ping`, { key: null, headers: { authorization: `Basic ${KA}` } })).status).toBe(401)
  })

  it("a key for connection A on a path of connection B is 403, and on an unknown connection too", async () => {
    const r = await call(s, "GET", `${C(CONN_B)}/ping`, { key: KA })
    expect(r.status).toBe(403)
    expect(r.body.errors[0].location).toBe("path.connectionId")
    expect((await call(s, "GET", `${C(CONN)}/ping`, { key: KEY_B })).status).toBe(403)
    expect((await call(s, "GET", `${C("99999999-9999-4999-8999-999999999999")}/ping`, { key: KA })).status).toBe(403)
    expect((await call(s, "GET", `${C(CONN_B)}/ping`, { key: KEY_B })).status).toBe(200)
  })

  it("one connection's key never reads another's data", async () => {
    const cartRes = await call(s, "POST", `${C()}/carts`, { key: KA, body: { items: [cart({ cartId: "shared-cart" })] } })
    expect(cartRes.status).toBe(200)
    expect((await call(s, "GET", `${C(CONN)}/carts/shared-cart`, { key: KEY_B })).status).toBe(403)
    expect((await call(s, "GET", `${C(CONN_B)}/carts/shared-cart`, { key: KEY_B })).status).toBe(404)

    expect((await call(s, "POST", `${C()}/orders`, { key: KA, body: orderBody({ orderId: "iso-1" }) })).status).toBe(201)
    expect((await call(s, "GET", `${C(CONN_B)}/orders/iso-1`, { key: KEY_B })).status).toBe(404)
    expect((await call(s, "DELETE", `${C(CONN_B)}/orders/iso-1`, { key: KEY_B })).status).toBe(404)
    expect((await call(s, "POST", `${C(CONN_B)}/orders/refunds/iso-1`, { key: KEY_B, body: {} })).status).toBe(404)
    // the same orderId is free in connection B
    expect((await call(s, "POST", `${C(CONN_B)}/orders`, { key: KEY_B, body: orderBody({ orderId: "iso-1" }) })).status).toBe(201)

    const cert = await call(s, "POST", `${C()}/exemption-certificates`, { key: KA, body: certBody() })
    expect(cert.status).toBe(201)
    const id = cert.body.certificateId
    expect((await call(s, "GET", `${C(CONN_B)}/exemption-certificates/${id}`, { key: KEY_B })).status).toBe(404)
    expect((await call(s, "DELETE", `${C(CONN_B)}/exemption-certificates/${id}`, { key: KEY_B })).status).toBe(404)
    expect((await call(s, "GET", `${C()}/exemption-certificates/${id}`, { key: KA })).body.disabledAt).toBeNull()
  })

  it("listing certificates: without connectionId only the key's connection; another connection's id is 403", async () => {
    await call(s, "POST", `${C(CONN_B)}/exemption-certificates`, { key: KEY_B, body: certBody({ customerId: "only-b" }) })
    const a = await call(s, "GET", "/tax/exemption-certificates?limit=100", { key: KA })
    expect(a.status).toBe(200)
    expect(a.body.items.length).toBeGreaterThan(0)
    expect(a.body.items.every((c: { connectionId: string }) => c.connectionId === CONN)).toBe(true)
    const b = await call(s, "GET", "/tax/exemption-certificates?limit=100", { key: KEY_B })
    expect(b.body.items.map((c: { customerId: string }) => c.customerId)).toEqual(["only-b"])
    const cross = await call(s, "GET", `/tax/exemption-certificates?connectionId=${CONN_B}`, { key: KA })
    expect(cross.status).toBe(403)
    expect(cross.body.errors[0].location).toBe("query.connectionId")
    expect((await call(s, "GET", `/tax/exemption-certificates?connectionId=${CONN}`, { key: KA })).status).toBe(200)
  })

  it("test controls need a valid key", async () => {
    expect((await call(s, "GET", "/_sandbox/clock", { key: null })).status).toBe(401)
    expect((await call(s, "GET", "/_sandbox/counts", { key: "nope" })).status).toBe(401)
    expect((await call(s, "POST", "/_sandbox/reset", { key: null })).status).toBe(401)
    expect((await call(s, "GET", "/_sandbox/clock", { key: KA })).status).toBe(200)
  })

  it("the default key is not valid when another one is configured", async () => {
    expect((await call(s, "GET", `${C()}/ping`, { key: KEY })).status).toBe(401)
  })
})
