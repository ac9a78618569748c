import fc from "fast-check"
import { addressKey, ANONYMOUS_KEY, clientAddress, VerifyAddressGuard, verifyAddressGuard, type Verdict } from "./verify-address-limits"

const A = { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" }

describe("verify-address: cache key", () => {
  it("is the same for spacing variants and differs for any real difference", () => {
    expect(addressKey({ ...A, line1: "  350  S 5th St ", city: "Minneapolis ", state: "mn" })).toBe(addressKey(A))
    expect(addressKey({ ...A, line2: "" })).toBe(addressKey({ ...A, line2: null }))
    expect(addressKey({ ...A, zip: "55416" })).not.toBe(addressKey(A))
    expect(addressKey({ ...A, line1: "350 s 5th st" })).not.toBe(addressKey(A))
    expect(addressKey({ ...A, line2: "Apt 1" })).not.toBe(addressKey(A))
  })
})

describe("verify-address: rate limit (rate-limiter-flexible)", () => {
  it("allows perMinute requests per key, then refuses with the seconds to wait; keys and scopes are separate", async () => {
    const g = new VerifyAddressGuard(3)
    for (let i = 0; i < 3; i++) expect(await g.take("client", "1.2.3.4")).toEqual({ ok: true })
    const refused = await g.take("client", "1.2.3.4")
    expect(refused).toMatchObject({ ok: false, scope: "client" })
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(60)
    expect(await g.take("client", "5.6.7.8")).toEqual({ ok: true })
    expect(await g.take("cart", "1.2.3.4")).toEqual({ ok: true })
  })
})

describe("verify-address: verdict cache (lru-cache)", () => {
  it("asks once per address, shares a concurrent miss, keeps 'invalid' verdicts, never caches a failure", async () => {
    const g = new VerifyAddressGuard(100)
    let calls = 0
    const ok = async (): Promise<Verdict> => {
      calls++
      await new Promise((r) => setTimeout(r, 20))
      return { kind: "verified", address: { ...A } }
    }
    const [a, b] = await Promise.all([g.verdict("k1", ok), g.verdict("k1", ok)])
    expect(calls).toBe(1)
    expect(a.verdict).toEqual(b.verdict)
    expect(await g.verdict("k1", ok)).toEqual({ verdict: { kind: "verified", address: A }, cached: true })
    expect(calls).toBe(1)

    const invalid = async (): Promise<Verdict> => (calls++, { kind: "invalid", errors: [{ location: "body.zip", message: "unknown" }] })
    await g.verdict("k2", invalid)
    expect((await g.verdict("k2", invalid)).cached).toBe(true)
    expect(calls).toBe(2)

    const down = async (): Promise<Verdict> => {
      calls++
      throw new Error("unavailable")
    }
    await expect(g.verdict("k3", down)).rejects.toThrow("unavailable")
    await expect(g.verdict("k3", down)).rejects.toThrow("unavailable")
    expect(calls).toBe(4)
  })
})

describe("verify-address: the client address (trustProxy)", () => {
  it("false or 0: the TCP peer, whatever X-Forwarded-For says", () => {
    expect(clientAddress("10.0.0.5", "203.0.113.9", false)).toBe("10.0.0.5")
    expect(clientAddress("10.0.0.5", ["203.0.113.9", "198.51.100.2"], 0)).toBe("10.0.0.5")
    expect(clientAddress("::ffff:127.0.0.1", "1.1.1.1", false)).toBe("127.0.0.1")
    expect(clientAddress(undefined, undefined, false)).toBe("unknown")
  })
  it("n hops: the address the n-th proxy from Medusa saw; a shorter chain gives its left-most entry", () => {
    // client 198.51.100.7 → proxy A (appends it) → proxy B (appends A's address) → Medusa
    const xff = "6.6.6.6, 198.51.100.7, 10.0.0.1" // 6.6.6.6: what the client sent itself
    expect(clientAddress("10.0.0.2", xff, 1)).toBe("10.0.0.1")
    expect(clientAddress("10.0.0.2", xff, 2)).toBe("198.51.100.7")
    expect(clientAddress("10.0.0.2", "198.51.100.7", 3)).toBe("198.51.100.7")
    expect(clientAddress("10.0.0.2", undefined, 1)).toBe("10.0.0.2")
  })
  it("property: with trustProxy n, no header content changes the address chosen from the n hops the proxies wrote", () => {
    fc.assert(
      fc.property(
        fc.array(fc.ipV4(), { minLength: 0, maxLength: 4 }),
        fc.array(fc.oneof(fc.ipV4(), fc.string({ maxLength: 12 })), { maxLength: 4 }),
        fc.integer({ min: 0, max: 4 }),
        (proxied, spoofed, hops) => {
          // the last `hops` entries of the chain are the proxies' own (the peer is the nearest)
          const trusted = proxied.slice(0, hops)
          fc.pre(trusted.length === hops)
          const peer = hops ? trusted[hops - 1]! : "192.0.2.1"
          const appended = hops ? ["203.0.113.50", ...trusted.slice(0, -1)] : []
          const header = [...spoofed.map((s) => s.replace(/,/g, "")), ...appended].join(", ")
          const got = clientAddress(peer, header || undefined, hops === 0 ? false : hops)
          expect(got).toBe(hops ? "203.0.113.50" : "192.0.2.1")
        },
      ),
      { numRuns: 1000 },
    )
  })
})

describe("verify-address: requests without a cart share one stricter budget", () => {
  it("the anonymous budget is one key for all, separate from the clients' and carts'", async () => {
    const g = new VerifyAddressGuard(5, 2)
    expect(await g.take("anonymous", ANONYMOUS_KEY)).toEqual({ ok: true })
    expect(await g.take("anonymous", ANONYMOUS_KEY)).toEqual({ ok: true })
    expect(await g.take("anonymous", ANONYMOUS_KEY)).toMatchObject({ ok: false, scope: "anonymous" })
    expect(await g.take("cart", "cart_1")).toEqual({ ok: true })
    expect(await g.take("client", ANONYMOUS_KEY)).toEqual({ ok: true })
    expect(g.anonymousPerMinute).toBe(2)
    expect(new VerifyAddressGuard(7).anonymousPerMinute).toBe(7)
  })
})

describe("verify-address: one verdict cache per connection", () => {
  it("the route's guard (its own anonymous limit) and checkout's share the verdicts: one service call", async () => {
    let calls = 0
    const verify = async (): Promise<Verdict> => (calls++, { kind: "verified", address: A })
    const route = verifyAddressGuard("http://one.test|conn", 20, 3)
    const checkout = verifyAddressGuard("http://one.test|conn", 20)
    expect(route).not.toBe(checkout)
    expect((await route.verdict(addressKey(A), verify)).cached).toBe(false)
    expect((await checkout.verdict(addressKey(A), verify)).cached).toBe(true)
    expect(calls).toBe(1)
    // another connection keeps its own
    expect((await verifyAddressGuard("http://two.test|conn", 20).verdict(addressKey(A), verify)).cached).toBe(false)
  })
})
