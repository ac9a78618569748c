import { MedusaCacheStore, MedusaCachingStore, MemoryStore, QuoteCache, SingleFlight } from "./result-cache"

describe("result cache", () => {
  it("MemoryStore expires entries after their TTL and evicts the oldest past maxEntries", async () => {
    let now = 1000
    const s = new MemoryStore<number>(2, () => now)
    await s.set("a", 1, 10)
    await s.set("b", 2, 10)
    expect(await s.get("a")).toBe(1)
    now += 10_001
    expect(await s.get("a")).toBeUndefined()
    await s.set("c", 3, 10)
    await s.set("d", 4, 10)
    await s.set("e", 5, 10)
    expect(s.size).toBe(2)
    expect(await s.get("c")).toBeUndefined()
    expect(await s.get("e")).toBe(5)
    await s.set("z", 9, 0)
    expect(await s.get("z")).toBeUndefined()
  })

  it("SingleFlight: concurrent calls share one load; a failure is shared and then forgotten", async () => {
    const sf = new SingleFlight<number>()
    let calls = 0
    let release!: (v: number) => void
    const load = () => {
      calls++
      return new Promise<number>((r) => (release = r))
    }
    const ps = [sf.do("k", load), sf.do("k", load), sf.do("k", load)]
    release(42)
    expect(await Promise.all(ps)).toEqual([42, 42, 42])
    expect(calls).toBe(1)
    const failing = () => Promise.reject(new Error("down"))
    await expect(Promise.all([sf.do("x", failing), sf.do("x", failing)])).rejects.toThrow("down")
    expect(sf.size).toBe(0)
    expect(await sf.do("x", async () => 7)).toBe(7)
  })

  it("QuoteCache: a miss loads once, later gets hit; TTL 0 disables caching but keeps single-flight", async () => {
    const c = new QuoteCache<string>(new MemoryStore(), 60)
    let loads = 0
    const load = async () => `v${++loads}`
    const [a, b] = await Promise.all([c.getOrLoad("k", load), c.getOrLoad("k", load)])
    expect(a).toEqual({ value: "v1", hit: false })
    expect(b.value).toBe("v1")
    expect(await c.getOrLoad("k", load)).toEqual({ value: "v1", hit: true })
    expect(loads).toBe(1)
    const nc = new QuoteCache<string>(new MemoryStore(), 0)
    await nc.getOrLoad("k", load)
    await nc.getOrLoad("k", load)
    expect(loads).toBe(3)
  })

  it("Medusa's Caching Module and Cache Module as stores: prefixed keys, TTL passed on, errors swallowed", async () => {
    const kv = new Map<string, { data: unknown; ttl?: number }>()
    const caching = {
      get: async ({ key }: { key: string }) => kv.get(key)?.data ?? null,
      set: async ({ key, data, ttl }: { key: string; data: unknown; ttl?: number }) => void kv.set(key, { data, ttl }),
    }
    const store = new MedusaCachingStore<{ a: number }>(caching)
    await store.set("h1", { a: 1 }, 300)
    expect(kv.get("sales-tax:quote:h1")).toEqual({ data: { a: 1 }, ttl: 300 })
    expect(await store.get("h1")).toEqual({ a: 1 })
    expect(await store.get("nope")).toBeUndefined()
    const broken = new MedusaCachingStore({
      get: async () => {
        throw new Error("redis down")
      },
      set: async () => {
        throw new Error("redis down")
      },
    })
    await expect(broken.get("x")).resolves.toBeUndefined()
    await expect(broken.set("x", 1, 10)).resolves.toBeUndefined()

    const legacy = new Map<string, unknown>()
    const cache = new MedusaCacheStore<number>({
      get: async <T>(k: string) => (legacy.get(k) as T) ?? null,
      set: async (k: string, d: unknown) => void legacy.set(k, d),
    })
    await cache.set("h2", 5, 60)
    expect(await cache.get("h2")).toBe(5)
    expect([...legacy.keys()]).toEqual(["sales-tax:quote:h2"])
  })
})
