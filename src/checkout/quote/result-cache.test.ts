import fc from "fast-check"
import { medusaStore, MemoryStore, QuoteCache, SingleFlight, type QuoteStore } from "./result-cache"

/** SingleFlight and QuoteCache as they were before issue 15's miss-path work: async wrappers. */
class AsyncSingleFlight<V> {
  readonly #inflight = new Map<string, Promise<V>>()
  do(key: string, fn: () => Promise<V>): Promise<V> {
    const existing = this.#inflight.get(key)
    if (existing) return existing
    const p = (async () => {
      try {
        return await fn()
      } finally {
        this.#inflight.delete(key)
      }
    })()
    this.#inflight.set(key, p)
    return p
  }
  get size(): number {
    return this.#inflight.size
  }
}
class AsyncQuoteCache<V> {
  readonly flight = new AsyncSingleFlight<{ value: V; hit: boolean }>()
  constructor(
    public store: QuoteStore<V>,
    public ttlSeconds: number,
  ) {}
  async getOrLoad(key: string, load: () => Promise<V>): Promise<{ value: V; hit: boolean }> {
    const memory = this.store instanceof MemoryStore ? this.store : null
    if (this.ttlSeconds > 0) {
      const v = memory ? memory.getSync(key) : await this.store.get(key)
      if (v !== undefined) return { value: v, hit: true }
    }
    return this.flight.do(key, async () => {
      const value = await load()
      if (memory) memory.setSync(key, value, this.ttlSeconds)
      else await this.store.set(key, value, this.ttlSeconds)
      return { value, hit: false }
    })
  }
}

describe("result cache", () => {
  it("MemoryStore expires entries after their TTL and evicts the least recently used past maxEntries", async () => {
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

  it("QuoteCache and SingleFlight give what their async versions gave: same outcomes, same loads, same flights left (random concurrent scripts)", async () => {
    // a script: rounds of concurrent calls (a key, how its load ends), the loads then settled in a random order
    const call = fc.record({ key: fc.constantFrom("a", "b", "c"), ends: fc.constantFrom("value", "error", "throw") })
    const script = fc.record({
      ttl: fc.constantFrom(0, 60),
      rounds: fc.array(fc.record({ calls: fc.array(call, { minLength: 1, maxLength: 5 }), order: fc.array(fc.nat(), { maxLength: 6 }) }), {
        minLength: 1,
        maxLength: 4,
      }),
    })
    const tick = () => new Promise<void>((r) => setImmediate(r))
    type Cache = { getOrLoad(k: string, l: () => Promise<string>): Promise<{ value: string; hit: boolean }>; flight: { size: number } }
    const run = async (
      cache: Cache,
      sc: { ttl: number; rounds: { calls: { key: string; ends: "value" | "error" | "throw" }[]; order: number[] }[] },
    ) => {
      const log: string[] = []
      let n = 0
      for (const [r, round] of sc.rounds.entries()) {
        const pending: { settle: () => void }[] = []
        const outcomes = round.calls.map(({ key, ends }, i) =>
          cache
            .getOrLoad(key, () => {
              const id = `${r}.${i}.${n++}`
              log.push(`load ${key} ${id}`)
              if (ends === "throw") throw new Error(`t${id}`)
              return new Promise<string>((resolve, reject) =>
                pending.push({ settle: () => (ends === "value" ? resolve(`v${id}`) : reject(new Error(`e${id}`))) }),
              )
            })
            .then(
              (v) => `${key}: ${v.value} hit=${v.hit}`,
              (e: Error) => `${key}: threw ${e.message}`,
            ),
        )
        await tick()
        for (const k of round.order) if (pending.length) pending.splice(k % pending.length, 1)[0]!.settle()
        for (const p of pending.splice(0)) p.settle()
        log.push(...(await Promise.all(outcomes)), `flights ${cache.flight.size}`)
      }
      return log
    }
    await fc.assert(
      fc.asyncProperty(script, async (sc) => {
        const now = new QuoteCache<string>(new MemoryStore(), sc.ttl)
        const before = new AsyncQuoteCache<string>(new MemoryStore(), sc.ttl)
        expect(await run(now, sc)).toEqual(await run(before, sc))
      }),
      { numRuns: 300 },
    )
    // SingleFlight given a function that throws instead of rejecting: a rejection, then forgotten (the
    // async version kept that rejected promise for the key forever; QuoteCache never handed it such
    // a function, its loads were async arrows: the "throw" calls above go through both)
    const sf = new SingleFlight<number>()
    await expect(
      sf.do("t", () => {
        throw new Error("sync")
      }),
    ).rejects.toThrow("sync")
    expect(sf.size).toBe(0)
    expect(await sf.do("t", async () => 1)).toBe(1)
  })

  it("Medusa's Caching Module and Cache Module as stores: prefixed keys, TTL passed on, errors swallowed", async () => {
    const kv = new Map<string, { data: unknown; ttl?: number }>()
    const caching = {
      get: async ({ key }: { key: string }) => kv.get(key)?.data ?? null,
      set: async ({ key, data, ttl }: { key: string; data: unknown; ttl?: number }) => void kv.set(key, { data, ttl }),
    }
    const store = medusaStore<{ a: number }>(caching)!
    await store.set("h1", { a: 1 }, 300)
    expect(kv.get("sales-tax:quote:h1")).toEqual({ data: { a: 1 }, ttl: 300 })
    expect(await store.get("h1")).toEqual({ a: 1 })
    expect(await store.get("nope")).toBeUndefined()
    const broken = medusaStore({
      get: async () => {
        throw new Error("redis down")
      },
      set: async () => {
        throw new Error("redis down")
      },
    })!
    await expect(broken.get("x")).resolves.toBeUndefined()
    await expect(broken.set("x", 1, 10)).resolves.toBeUndefined()

    const legacy = new Map<string, unknown>()
    const cache = medusaStore<number>(undefined, {
      get: async <T>(k: string) => (legacy.get(k) as T) ?? null,
      set: async (k: string, d: unknown) => void legacy.set(k, d),
    })!
    await cache.set("h2", 5, 60)
    expect(await cache.get("h2")).toBe(5)
    expect([...legacy.keys()]).toEqual(["sales-tax:quote:h2"])
  })
})
