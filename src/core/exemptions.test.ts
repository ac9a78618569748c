/** pickExemption: the certificate choice shared by the provider (checkout) and filing; the certificate lists' Caching Module store. */
import { CachingCertificateStore, certificateCacheKey, pickExemption } from "./exemptions"

const cert = (certificateId: string, states: string[], createdDate: string, disabledAt: string | null = null) => ({
  certificateId,
  createdDate,
  disabledAt,
  states: states.map((abbreviation) => ({ abbreviation })),
})

describe("pickExemption", () => {
  it("takes the oldest active certificate covering the state", () => {
    const certs = [
      cert("newer", ["MN", "WI"], "2026-05-01T00:00:00Z"),
      cert("older", ["mn"], "2026-01-01T00:00:00Z"),
      cert("other-state", ["CA"], "2025-01-01T00:00:00Z"),
    ]
    expect(pickExemption(certs, "MN")).toBe("older")
    expect(pickExemption(certs, "mn")).toBe("older")
    expect(pickExemption(certs, "WI")).toBe("newer")
    expect(pickExemption(certs, "CA")).toBe("other-state")
  })

  it("none for another state, none from a disabled certificate, none from an empty list", () => {
    expect(pickExemption([cert("a", ["MN"], "2026-01-01T00:00:00Z")], "KY")).toBeNull()
    expect(pickExemption([cert("a", ["MN"], "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")], "MN")).toBeNull()
    expect(pickExemption([], "MN")).toBeNull()
  })
})

describe("CachingCertificateStore", () => {
  it("keeps a customer's list in the Caching Module under certificateCacheKey, with the TTL; the cache's errors are misses", async () => {
    const kv = new Map<string, { data: unknown; ttl?: number }>()
    const store = new CachingCertificateStore({
      get: async ({ key }) => kv.get(key)?.data ?? null,
      set: async ({ key, data, ttl }) => void kv.set(key, { data, ttl }),
    })
    const list = [{ certificateId: "c1" }] as never
    await store.set("cus_1", list, 120)
    expect([...kv.entries()]).toEqual([[certificateCacheKey("cus_1"), { data: list, ttl: 120 }]])
    expect(await store.get("cus_1")).toEqual(list)
    expect(await store.get("cus_2")).toBeUndefined()
    const down = new CachingCertificateStore({
      get: async () => {
        throw new Error("redis down")
      },
      set: async () => {
        throw new Error("redis down")
      },
    })
    await expect(down.get("cus_1")).resolves.toBeUndefined()
    await expect(down.set("cus_1", list, 120)).resolves.toBeUndefined()
  })
})
