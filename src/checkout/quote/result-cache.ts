/**
 * Where quotes are kept between Medusa's calls: an in-process TTL map (bounded, least recently used out), or Medusa's Caching
 * Module when the Tax Module reaches it; in front of either, single-flight: concurrent misses share one call.
 */
import { LRUCache } from "lru-cache"

export interface QuoteStore<V> {
  get(key: string): Promise<V | undefined>
  set(key: string, value: V, ttlSeconds: number): Promise<void>
}

/**
 * lru-cache's clock is `now` read at every call (ttlResolution 0), so a test's clock is seen at once; an entry lives through
 * the last millisecond of its TTL, and a clock must not start at 0 (lru-cache reads a start of 0 as no TTL).
 */
export class MemoryStore<V> implements QuoteStore<V> {
  readonly #lru: LRUCache<string, { value: V }>
  constructor(maxEntries = 5000, now: () => number = Date.now) {
    this.#lru = new LRUCache<string, { value: V }>({ max: maxEntries, ttlResolution: 0, perf: { now } })
  }

  async get(key: string): Promise<V | undefined> {
    return this.getSync(key)
  }
  getSync(key: string): V | undefined {
    return this.#lru.get(key)?.value
  }
  async set(key: string, value: V, ttlSeconds: number): Promise<void> {
    this.setSync(key, value, ttlSeconds)
  }
  setSync(key: string, value: V, ttlSeconds: number): void {
    if (ttlSeconds > 0) this.#lru.set(key, { value }, { ttl: ttlSeconds * 1000 })
  }
  delete(key: string): void {
    this.#lru.delete(key)
  }
  get size(): number {
    return this.#lru.size
  }
  clear(): void {
    this.#lru.clear()
  }
}

/** Medusa Caching Module (`caching`, 2.11+). */
export interface CachingModuleLike {
  get(args: { key: string }): Promise<unknown>
  set(args: { key: string; data: unknown; ttl?: number }): Promise<unknown>
}
/** Deprecated Cache Module (`cache`). */
export interface CacheModuleLike {
  get<T>(key: string): Promise<T | null>
  set(key: string, data: unknown, ttl?: number): Promise<void>
}

/** A Medusa cache as a store (the Caching Module, else the Cache Module), or undefined; a cache's error is a miss. */
export function medusaStore<V>(
  caching: CachingModuleLike | undefined,
  cache?: CacheModuleLike,
  keyOf = (key: string) => `sales-tax:quote:${key}`,
): QuoteStore<V> | undefined {
  const usable = (c?: { get?: unknown; set?: unknown }) => typeof c?.get === "function" && typeof c.set === "function"
  const m: CachingModuleLike | undefined = usable(caching)
    ? caching
    : usable(cache)
      ? { get: ({ key }) => cache!.get(key), set: ({ key, data, ttl }) => cache!.set(key, data, ttl) }
      : undefined
  if (!m) return undefined
  return {
    async get(key) {
      try {
        return ((await m.get({ key: keyOf(key) })) ?? undefined) as V | undefined
      } catch {
        return undefined
      }
    },
    async set(key, value, ttlSeconds) {
      try {
        if (ttlSeconds > 0) await m.set({ key: keyOf(key), data: value, ttl: ttlSeconds })
      } catch {
        /* a cache write failure only costs a later call */
      }
    },
  }
}

/** Concurrent calls with the same key share one promise, forgotten once settled (written with `then`: it is on every miss path). */
export class SingleFlight<V> {
  readonly #inflight = new Map<string, Promise<V>>()
  do(key: string, fn: () => Promise<V>): Promise<V> {
    const existing = this.#inflight.get(key)
    if (existing) return existing
    // the executor runs fn now; a throw becomes the rejection
    const p = new Promise<V>((resolve) => resolve(fn())).then(
      (v) => {
        this.#inflight.delete(key)
        return v
      },
      (e: unknown) => {
        this.#inflight.delete(key)
        throw e
      },
    )
    this.#inflight.set(key, p)
    return p
  }
  get size(): number {
    return this.#inflight.size
  }
}

/** get → single-flight miss → set. `hit` tells whether the value came from the store. */
export class QuoteCache<V> {
  readonly flight = new SingleFlight<{ value: V; hit: boolean }>()
  constructor(
    public store: QuoteStore<V>,
    public ttlSeconds: number,
  ) {}

  getOrLoad(key: string, load: () => Promise<V>): Promise<{ value: V; hit: boolean }> {
    // the in-process store answers synchronously: no await on the checkout path, its miss one chain in the single-flight
    const memory = this.store instanceof MemoryStore ? this.store : null
    if (!memory) return this.#viaStore(key, load)
    if (this.ttlSeconds > 0) {
      const v = memory.getSync(key)
      if (v !== undefined) return Promise.resolve({ value: v, hit: true })
    }
    return this.flight.do(key, () =>
      load().then((value) => {
        memory.setSync(key, value, this.ttlSeconds)
        return { value, hit: false }
      }),
    )
  }

  async #viaStore(key: string, load: () => Promise<V>): Promise<{ value: V; hit: boolean }> {
    if (this.ttlSeconds > 0) {
      const v = await this.store.get(key)
      if (v !== undefined) return { value: v, hit: true }
    }
    return this.flight.do(key, async () => {
      const value = await load()
      await this.store.set(key, value, this.ttlSeconds)
      return { value, hit: false }
    })
  }
}
