import {
  externalCertificatesMode,
  findRawPluginOptions,
  getPluginOptions,
  PluginOptionsError,
  redactOptions,
  resolvePluginOptions,
} from "./options"
import { resetRuntime } from "./runtime"

const valid = {
  connectionId: "00000000-0000-4000-8000-000000000000",
  apiKey: "sk_live_SECRET_abcdef",
  baseUrl: "https://api.example.com/",
  origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
}

describe("plugin options", () => {
  it("applies the documented defaults", () => {
    const o = resolvePluginOptions(valid)
    expect(o).toMatchObject({
      baseUrl: "https://api.example.com",
      defaultTic: 0,
      shippingTic: 11010,
      failurePolicy: "fallback",
      timeoutMs: 3000,
      backgroundTimeoutMs: 20000,
      cacheTtlSeconds: 300,
      completionMode: "placed",
      filing: { maxAttempts: 8, addressRetentionDays: 120 },
      circuitBreaker: { failures: 5, halfOpenAfterMs: 30000 },
      shopperCertificates: "review",
    })
    expect(o.fallbackRate).toBeUndefined()
    expect(resolvePluginOptions({ ...valid, shopperCertificates: "off" }).shopperCertificates).toBe("off")
    expect(() => resolvePluginOptions({ ...valid, shopperCertificates: "auto" })).toThrow(
      /shopperCertificates: shopperCertificates must be "review", "immediate" or "off"/,
    )
  })

  it("filing.addressRetentionDays: whole days, 1-3650, never fewer than sweep.days (the sweep files with the street)", () => {
    expect(resolvePluginOptions({ ...valid, filing: { addressRetentionDays: 400 } }).filing).toEqual({
      maxAttempts: 8,
      addressRetentionDays: 400,
    })
    expect(() => resolvePluginOptions({ ...valid, filing: { addressRetentionDays: 1.5 } })).toThrow(
      /filing\.addressRetentionDays: filing\.addressRetentionDays must be a whole number of days/,
    )
    expect(() => resolvePluginOptions({ ...valid, filing: { addressRetentionDays: 30 } })).toThrow(
      /filing\.addressRetentionDays: filing\.addressRetentionDays must be at least sweep\.days \(35\)/,
    )
    expect(resolvePluginOptions({ ...valid, filing: { addressRetentionDays: 30 }, sweep: { days: 30 } }).filing.addressRetentionDays).toBe(
      30,
    )
  })

  it("externalCertificates: review by default while shopper certificates are on, exempt when they are off; validated", () => {
    expect(externalCertificatesMode(resolvePluginOptions(valid))).toBe("review")
    expect(externalCertificatesMode(resolvePluginOptions({ ...valid, shopperCertificates: "immediate" }))).toBe("review")
    expect(externalCertificatesMode(resolvePluginOptions({ ...valid, shopperCertificates: "off" }))).toBe("exempt")
    expect(externalCertificatesMode(resolvePluginOptions({ ...valid, externalCertificates: "exempt" }))).toBe("exempt")
    expect(externalCertificatesMode(resolvePluginOptions({ ...valid, shopperCertificates: "off", externalCertificates: "review" }))).toBe(
      "review",
    )
    expect(() => resolvePluginOptions({ ...valid, externalCertificates: "trust" })).toThrow(
      /externalCertificates: externalCertificates must be "exempt" or "review"/,
    )
  })

  it("names every bad option, never echoes the key", () => {
    let err: unknown
    try {
      resolvePluginOptions({
        ...valid,
        connectionId: "short",
        failurePolicy: "ignore",
        fallbackRate: 120,
        apiKey: "sk_live_SECRET_abcdef",
        origin: { ...valid.origin, state: "Washington" },
      })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(PluginOptionsError)
    const msg = (err as Error).message
    expect(msg).toMatch(/connectionId: connectionId must be at least 36/)
    expect(msg).toMatch(/failurePolicy: failurePolicy must be "block" or "fallback"/)
    expect(msg).toMatch(/fallbackRate/)
    expect(msg).toMatch(/origin\.state/)
    expect(msg).not.toContain("sk_live_SECRET_abcdef")
    expect(() => resolvePluginOptions(undefined)).toThrow(/apiKey is required/)
    expect(redactOptions(resolvePluginOptions(valid)).apiKey).toBe("****")
    // Medusa adds `database` (with a client URL that may hold a password) to plugin options
    const withDb = redactOptions(resolvePluginOptions({ ...valid, database: { clientUrl: "postgres://u:db-secret@h/db" } }))
    expect(JSON.stringify(withDb)).not.toContain("db-secret")
    expect(withDb.connectionId).toBe(valid.connectionId)
  })

  it("finds the options in plugins, else in the tax provider's registration", () => {
    expect(findRawPluginOptions({ plugins: [{ resolve: "medusa-sales-tax", options: { a: 1 } }] })).toEqual({ a: 1 })
    const fromProvider = {
      modules: {
        tax: {
          resolve: "@medusajs/medusa/tax",
          options: { providers: [{ resolve: "medusa-sales-tax/providers/sales-tax", options: valid }] },
        },
      },
    }
    expect(findRawPluginOptions(fromProvider)).toBe(valid)
    expect(
      findRawPluginOptions({
        modules: [
          { resolve: "@medusajs/medusa/tax", options: { providers: [{ resolve: "./src/providers/sales-tax", options: valid }] } },
        ] as never,
      }),
    ).toBe(valid)
    expect(findRawPluginOptions({ plugins: [] })).toBeUndefined()
    const config = { plugins: [{ resolve: "medusa-sales-tax", options: valid }] }
    const container = { resolve: () => config as never }
    const first = getPluginOptions(container)
    expect(first.shippingTic).toBe(11010)
    // resolved once per config and runtime: a fresh runtime resolves again
    expect(getPluginOptions(container)).toBe(first)
    resetRuntime()
    expect(getPluginOptions(container)).not.toBe(first)
    expect(getPluginOptions(container)).toEqual(first)
    expect(() => getPluginOptions({ resolve: () => ({}) as never })).toThrow(/no options found/)
  })
})

describe("redacted connections", () => {
  it("masks every connection's key", () => {
    const o = resolvePluginOptions({
      ...valid,
      connections: [{ salesChannelIds: ["sc_1"], connectionId: "11111111-2222-4333-8444-555555555555", apiKey: "sk_other_SECRET" }],
    })
    const r = redactOptions(o)
    expect(r.connections).toEqual([{ salesChannelIds: ["sc_1"], connectionId: "11111111-2222-4333-8444-555555555555", apiKey: "****" }])
    expect(JSON.stringify(r)).not.toContain("SECRET")
  })

  it("trustProxy: false by default (the TCP peer), or a whole number of hops; verifyAddressAnonymousRateLimit an integer ≥ 1", () => {
    expect(resolvePluginOptions(valid).trustProxy).toBe(false)
    expect(resolvePluginOptions({ ...valid, trustProxy: 2 }).trustProxy).toBe(2)
    expect(resolvePluginOptions(valid).verifyAddressAnonymousRateLimit).toBeUndefined()
    expect(resolvePluginOptions({ ...valid, verifyAddressAnonymousRateLimit: 5 }).verifyAddressAnonymousRateLimit).toBe(5)
    for (const bad of [true, -1, 1.5, "1"]) expect(() => resolvePluginOptions({ ...valid, trustProxy: bad })).toThrow(/trustProxy/)
    expect(() => resolvePluginOptions({ ...valid, verifyAddressAnonymousRateLimit: 0 })).toThrow(/verifyAddressAnonymousRateLimit/)
  })
})
