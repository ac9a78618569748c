import {
  groupByOrigin,
  knownRefusals,
  locationOrigin,
  originServiceId,
  parseRefusals,
  refusedLocations,
  REFUSED_LOCATIONS_KEY,
  sameAddress,
  SERVICE_ID_MAX,
  shareRefusal,
  stillRefused,
  type RefusalCache,
} from "./origins"
import { resetRuntime, SalesTaxRuntime } from "../../runtime"

const FALLBACK = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const LOCS = {
  sloc_a: { name: "Seattle", address_1: "400 Broad St", city: "Seattle", country_code: "us", province: "WA", postal_code: "98109" },
  sloc_b: { name: "Austin", address_1: "500 Congress Ave", city: "Austin", country_code: "US", province: "us-tx", postal_code: "78701" },
  sloc_bad: { name: "Toronto", address_1: "1 Queen St", city: "Toronto", country_code: "ca", province: "ON", postal_code: "M5H" },
}

describe("origin per stock location", () => {
  it("a stock location's address is an origin when it is a complete US address; else why not", () => {
    expect(locationOrigin(LOCS.sloc_b)).toEqual({
      origin: { line1: "500 Congress Ave", city: "Austin", state: "TX", zip: "78701" },
    })
    expect(locationOrigin(LOCS.sloc_bad).reason).toBe("not in the US (country CA)")
    expect(locationOrigin(null).reason).toBe("the location has no address")
    expect(locationOrigin({ ...LOCS.sloc_a, address_1: " " }).reason).toMatch(/street/)
    expect(locationOrigin({ ...LOCS.sloc_a, city: null }).reason).toBe("no city")
    expect(locationOrigin({ ...LOCS.sloc_a, province: "Zzyzx" }).reason).toMatch(/"Zzyzx" is not a US state/)
    // a state as a person writes it is read like its code (us-address.ts)
    expect(locationOrigin({ ...LOCS.sloc_a, province: " washington " }).origin?.state).toBe("WA")
    expect(locationOrigin({ ...LOCS.sloc_a, postal_code: "981" }).reason).toMatch(/"981" is not a US ZIP/)
  })

  it("derives ids within the service's 50 characters: the primary keeps the Medusa id, the others a stable suffix", () => {
    const order = "order_01KAB4Z1VQ8Y0M5W6T3ZC7H2XN"
    expect(originServiceId(order, "sloc_b", true)).toBe(order)
    const b = originServiceId(order, "sloc_b", false)
    expect(b).toMatch(new RegExp(`^${order}~[0-9a-f]{8}$`))
    expect(originServiceId(order, "sloc_b", false)).toBe(b) // stable
    expect(originServiceId(order, "sloc_c", false)).not.toBe(b)
    const long = "x".repeat(60)
    const l = originServiceId(long, "sloc_b", false)
    expect(l.length).toBeLessThanOrEqual(SERVICE_ID_MAX)
    expect(l).toMatch(/^[0-9a-f]{32}~[0-9a-f]{8}$/)
    expect(originServiceId(long, "", true)).toHaveLength(SERVICE_ID_MAX)
  })

  it("groups lines by origin, the fallback for lines without a usable or with a refused location; sorted by key, the first primary", () => {
    const lines = [
      { id: "i1", loc: "sloc_b" },
      { id: "i2", loc: "sloc_a" },
      { id: "i3", loc: "sloc_b" },
      { id: "s1", loc: "sloc_bad" },
      { id: "i4", loc: null },
    ]
    const g = groupByOrigin(lines, (l) => l.loc, LOCS, FALLBACK, "cart_1")
    expect(g.map((x) => [x.key, x.primary, x.lines.map((l) => l.id)])).toEqual([
      ["", true, ["s1", "i4"]],
      ["sloc_a", false, ["i2"]],
      ["sloc_b", false, ["i1", "i3"]],
    ])
    expect(g[0]!.serviceId).toBe("cart_1")
    expect(g[0]!.origin).toBe(FALLBACK)
    expect(g[2]!.origin.state).toBe("TX")
    expect(g[2]!.serviceId).toBe(originServiceId("cart_1", "sloc_b", false))
    // the order of the lines does not move the ids
    const again = groupByOrigin([...lines].reverse(), (l) => l.loc, LOCS, FALLBACK, "cart_1")
    expect(again.map((x) => x.serviceId)).toEqual(g.map((x) => x.serviceId))
    // a refused location falls back
    const refused = groupByOrigin(lines, (l) => l.loc, LOCS, FALLBACK, "cart_1", new Set(["sloc_b"]))
    expect(refused.map((x) => [x.key, x.lines.length])).toEqual([
      ["", 4],
      ["sloc_a", 1],
    ])
    // one location: one group with the Medusa id (as before the feature)
    const one = groupByOrigin([lines[0]!, lines[2]!], (l) => l.loc, LOCS, FALLBACK, "cart_1")
    expect(one.map((x) => [x.key, x.serviceId])).toEqual([["sloc_b", "cart_1"]])
  })

  it("a refused location stays refused while its address is the refused one (whatever the key order), and is tried again once it changes", () => {
    const refusedAt = { zip: "78701", state: "TX", line1: "500 Congress Ave", city: "Austin" } // keys as the service cart sorts them
    expect(sameAddress(refusedAt, locationOrigin(LOCS.sloc_b).origin!)).toBe(true)
    resetRuntime()
    refusedLocations().set("sloc_b", { locationId: "sloc_b", name: "Austin", address: refusedAt, reason: "x", at: "now" })
    try {
      expect([...stillRefused(LOCS)]).toEqual(["sloc_b"])
      expect([...stillRefused({ ...LOCS, sloc_b: { ...LOCS.sloc_b, postal_code: "78702" } })]).toEqual([])
      expect(refusedLocations().has("sloc_b")).toBe(false)
    } finally {
      resetRuntime()
    }
  })

  it("refusals are shared through the Caching Module: an instance that never saw a refusal lists the other's (its own win); a malformed entry is ignored; no module: this process's only", async () => {
    const entries = new Map<string, unknown>()
    const cache: RefusalCache = {
      get: async ({ key }) => entries.get(key),
      set: async ({ key, data }) => void entries.set(key, data),
    }
    const austin = { locationId: "sloc_b", name: "Austin", address: locationOrigin(LOCS.sloc_b).origin!, reason: "zip", at: "t1" }
    const denver = { ...austin, locationId: "sloc_d", name: null, reason: "street" }
    // instance 1 shares two refusals (the second refusal of a location replaces the first)
    await shareRefusal(cache, { ...austin, reason: "old" })
    await shareRefusal(cache, austin)
    await shareRefusal(cache, denver)
    expect(parseRefusals(entries.get(REFUSED_LOCATIONS_KEY))).toEqual([austin, denver])
    // instance 2 (an empty process list) sees them; what it found itself wins
    resetRuntime()
    refusedLocations().set("sloc_d", { ...denver, reason: "mine" })
    try {
      const known = await knownRefusals(cache)
      expect([...known.values()].map((r) => [r.locationId, r.reason])).toEqual([
        ["sloc_b", "zip"],
        ["sloc_d", "mine"],
      ])
      expect([...(await knownRefusals(undefined)).keys()]).toEqual(["sloc_d"])
      const broken: RefusalCache = { get: async () => Promise.reject(new Error("redis down")), set: async () => undefined }
      expect([...(await knownRefusals(broken)).keys()]).toEqual(["sloc_d"])
      await expect(shareRefusal(broken, austin)).resolves.toBeUndefined()
      // another runtime (another process) holds none of this one's refusals
      expect([...(await knownRefusals(undefined, new SalesTaxRuntime())).keys()]).toEqual([])
    } finally {
      resetRuntime()
    }
    expect(parseRefusals([{ locationId: "x" }, null, "y", { ...austin, address: { city: "Austin" } }])).toEqual([])
    expect(parseRefusals("nope")).toEqual([])
  })
})
