import { clearSalesTaxClients, getBackgroundClient, getCheckoutClient, getSalesTaxClient } from "./client-factory"

const base = { baseUrl: "http://127.0.0.1:9", apiKey: "k-secret", connectionId: "11111111-2222-4333-8444-555555555555" }

describe("client factory: one client per path, each with its own time bounds", () => {
  afterEach(() => clearSalesTaxClients())

  it("checkout: timeoutMs per attempt and for the whole call", () => {
    const c = getCheckoutClient({ ...base, timeoutMs: 3000, backgroundTimeoutMs: 20000 }).settings
    expect(c).toMatchObject({ timeoutMs: 3000, background: false })
    expect(c.retry).toMatchObject({ maxAttempts: 2, maxElapsedMs: 3000 })
  })

  it("background (admin, filing): backgroundTimeoutMs per attempt, 60 s in all", () => {
    const b = getBackgroundClient({ ...base, timeoutMs: 3000, backgroundTimeoutMs: 20000 }).settings
    expect(b).toMatchObject({ timeoutMs: 20000, background: true })
    expect(b.retry).toMatchObject({ maxAttempts: 4, maxElapsedMs: 60000 })
  })

  it("shares instances per option set, and the provider's own checkout client is the same one", () => {
    const o = { ...base, timeoutMs: 2500, backgroundTimeoutMs: 15000 }
    expect(getCheckoutClient(o)).toBe(getCheckoutClient({ ...o }))
    expect(getBackgroundClient(o)).toBe(getBackgroundClient({ ...o }))
    expect(getBackgroundClient(o)).not.toBe(getCheckoutClient(o))
    // what the provider builds by hand (src/checkout/quote/provider.ts) is the checkout client
    expect(getSalesTaxClient(o, { retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: 2500 } })).toBe(
      getCheckoutClient(o),
    )
  })
})
