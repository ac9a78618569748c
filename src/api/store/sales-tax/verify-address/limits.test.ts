import { addressKey, VerifyAddressGuard, type Verdict } from "./limits"

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
