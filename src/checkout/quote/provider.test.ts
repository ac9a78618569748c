import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { clearSalesTaxClients } from "../../service/client-factory"
import {
  CONTEXT_KEY,
  TAX_LINE_CODE,
  TAX_LINE_CODE_EXEMPT,
  TAX_LINE_CODE_FALLBACK,
  BLOCK_ERROR_MESSAGE,
  TAX_INCLUSIVE_ERROR_CODE,
} from "../../constants"
import { medusaInclusiveTax } from "../inclusive/inclusive"
import { SalesTaxProviderService } from "./provider"
import type { CartSnapshotInput } from "../../service/cart/context"
import { markServesRequests, servesRequests } from "../../core/serving"

const KEY = "sk_unit_provider_key_0123456789"
const CONN = "33333333-4444-4555-8666-777777777777"
let sb: RunningSandbox

async function ctl(method: string, path: string, body?: unknown) {
  const r = await fetch(`${sb.url}${path}`, {
    method,
    headers: { "x-api-key": KEY, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return r.status === 204 ? undefined : r.json()
}
const calls = async () => ((await ctl("GET", "/_sandbox/counts")) as { counts: Record<string, number> }).counts.calculateCarts ?? 0

beforeAll(async () => {
  sb = await startSandbox({ port: 0, apiKey: KEY, connectionId: CONN })
})
afterAll(async () => {
  await sb.close()
})
beforeEach(async () => {
  clearSalesTaxClients()
  await ctl("POST", "/_sandbox/reset")
})

const silent = { info() {}, warn() {}, error() {}, debug() {} }
function provider(over: Record<string, unknown> = {}) {
  return new SalesTaxProviderService(
    { logger: silent as never },
    {
      connectionId: CONN,
      apiKey: KEY,
      baseUrl: sb.url,
      origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
      timeoutMs: 10_000, // a loaded machine must not turn a quote into a timeout; the timeout tests set their own
      ...over,
    },
  )
}

const snapshot = (cartId: string, qty = 2): CartSnapshotInput => ({
  v: 1,
  cart_id: cartId,
  customer_id: null,
  currency_code: "usd",
  items: [{ id: "item_a", quantity: String(qty), unit_price: "10.75", discount: "0", tic: 0 }],
  shipping_methods: [{ id: "sm_1", amount: "8", discount: "0" }],
})
const ctx = (snap: CartSnapshotInput, zip = "55415", state = "MN") =>
  ({
    address: { country_code: "us", province_code: state, postal_code: zip, city: "Minneapolis", address_1: "350 S 5th St" },
    additional_context: { [CONTEXT_KEY]: snap },
  }) as never
const items = [
  {
    line_item: { id: "item_a", product_id: "p", quantity: 2, unit_price: 10.75, currency_code: "usd" },
    rates: [{ rate: 5, code: "US", name: "US" }],
  },
] as never
const ships = [
  {
    shipping_line: { id: "sm_1", shipping_option_id: "so", unit_price: 8, currency_code: "usd" },
    rates: [{ rate: 5, code: "US", name: "US" }],
  },
] as never

describe("SalesTaxProviderService against the sandbox", () => {
  it("items and shipping asked separately (as Medusa does) cost one POST carts; the rates land on the service's amounts", async () => {
    const p = provider()
    const s = snapshot("cart_unit_1")
    const itemLines = await p.getTaxLines(items, [], ctx(s))
    const shipLines = await p.getTaxLines([], ships, ctx(s))
    expect(await calls()).toBe(1)
    const svc = (await ctl("GET", `/tax/connections/${CONN}/carts/cart_unit_1`)) as {
      lineItems: { itemId: string; tax: { amount: number } }[]
    }
    const amount = svc.lineItems.find((l) => l.itemId === "item_a")!.tax.amount
    expect(itemLines).toHaveLength(1)
    expect(itemLines[0].code).toBe(TAX_LINE_CODE)
    expect(Math.round(21.5 * itemLines[0].rate)).toBe(Math.round(amount * 100))
    expect(shipLines.every((l) => "shipping_line_id" in l)).toBe(true)
    // a different state of the same cart: one more call; back to the first: cached
    await p.getTaxLines(items, [], ctx(snapshot("cart_unit_1", 3)))
    await p.getTaxLines(items, [], ctx(s))
    expect(await calls()).toBe(2)
  })

  it("concurrent identical requests share one call", async () => {
    const p = provider()
    const s = snapshot("cart_unit_2")
    await Promise.all([p.getTaxLines(items, [], ctx(s)), p.getTaxLines(items, [], ctx(s)), p.getTaxLines([], ships, ctx(s))])
    expect(await calls()).toBe(1)
  })

  it("no call for a destination that cannot be taxed", async () => {
    const p = provider()
    const s = snapshot("cart_unit_3")
    expect(
      await p.getTaxLines(items, ships, { address: { country_code: "ca", province_code: "on", postal_code: "M5H 2N2" } } as never),
    ).toEqual([])
    expect(await p.getTaxLines(items, ships, ctx(s, ""))).toEqual([])
    expect(await calls()).toBe(0)
  })

  it("fallback: region rates with the fallback code; the breaker opens after N failures and stops calling", async () => {
    const p = provider({ circuitBreaker: { failures: 2, halfOpenAfterMs: 60_000 } })
    await ctl("POST", "/_sandbox/faults", { operation: "calculateCarts", status: 503 })
    const l1 = await p.getTaxLines(items, [], ctx(snapshot("cart_unit_4")))
    expect(l1).toEqual([expect.objectContaining({ rate: 5, code: TAX_LINE_CODE_FALLBACK, line_item_id: "item_a" })])
    await p.getTaxLines(items, [], ctx(snapshot("cart_unit_4", 3)))
    expect(p.breaker.state).toBe("open")
    const before = await calls()
    const l3 = await p.getTaxLines(items, [], ctx(snapshot("cart_unit_4", 4)))
    expect(l3[0].code).toBe(TAX_LINE_CODE_FALLBACK)
    expect(await calls()).toBe(before)
    const fixed = await provider({ fallbackRate: 7.5 }).getTaxLines(items, [], ctx(snapshot("cart_unit_5")))
    expect(fixed).toEqual([expect.objectContaining({ rate: 7.5, code: TAX_LINE_CODE_FALLBACK })])
  })

  it("block: a clear shopper-facing error, without the API key", async () => {
    const p = provider({ failurePolicy: "block" })
    await ctl("POST", "/_sandbox/faults", { operation: "calculateCarts", status: 500 })
    const err = await p.getTaxLines(items, [], ctx(snapshot("cart_unit_6"))).catch((e) => e)
    expect(err.message).toBe(BLOCK_ERROR_MESSAGE)
    expect(JSON.stringify(err)).not.toContain(KEY)
  })

  it("tax-inclusive price (mixed with tax-exclusive shipping): the net quoted, Medusa's inclusive tax on the shown price is the service's; cached", async () => {
    const p = provider()
    const s = snapshot("cart_unit_7")
    s.items[0].is_tax_inclusive = true // 2 × 10.75 = 21.50 shown, tax included
    type Line = {
      line_item_id?: string
      shipping_line_id?: string
      rate: number
      data: { net?: string; amount: number; tax_inclusive?: boolean; inclusive_residual?: string }
    }
    const lines = (await p.getTaxLines(items, ships, ctx(s))) as unknown as Line[]
    // the shown price, then the net it contains: 2 calls; the exclusive shipping rides along
    expect(await calls()).toBe(2)
    const item = lines.find((l) => l.line_item_id === "item_a")!
    const net = Number(item.data.net)
    expect(item.data.tax_inclusive).toBe(true)
    expect(item.data.inclusive_residual).toBe("0")
    expect(Math.round((net + item.data.amount) * 100)).toBe(2150)
    const inclTax = medusaInclusiveTax({ gross: 21.5, quantity: 2, ratePct: item.rate })
    expect(inclTax.decimalPlaces(2, 4).toNumber()).toBe(item.data.amount)
    const ship = lines.find((l) => l.shipping_line_id === "sm_1")!
    expect(ship.data.tax_inclusive).toBeUndefined()
    await p.getTaxLines(items, ships, ctx(s))
    expect(await calls()).toBe(2)
  })

  it("refuses a tax-exclusive promotion on a tax-inclusive price (and the reverse) with a clear error", async () => {
    const p = provider()
    const s = snapshot("cart_unit_7b")
    s.items[0].is_tax_inclusive = true
    s.items[0].discount = "2"
    s.items[0].inclusive_discount = "0"
    await expect(p.getTaxLines(items, [], ctx(s))).rejects.toMatchObject({ code: TAX_INCLUSIVE_ERROR_CODE })
    const r = snapshot("cart_unit_7c")
    r.items[0].discount = "2"
    r.items[0].has_tax_inclusive_discount = true
    await expect(p.getTaxLines(items, [], ctx(r))).rejects.toThrow(/tax-inclusive promotion on a tax-exclusive price/)
    expect(await calls()).toBe(0)
  })

  it("uses Medusa's Caching Module when the Tax Module can resolve it (shared between instances)", async () => {
    const kv = new Map<string, unknown>()
    const caching = {
      get: async ({ key }: { key: string }) => kv.get(key) ?? null,
      set: async ({ key, data }: { key: string; data: unknown }) => void kv.set(key, data),
    }
    const opts = {
      connectionId: CONN,
      apiKey: KEY,
      baseUrl: sb.url,
      origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
    }
    const a = new SalesTaxProviderService({ logger: silent as never, caching }, opts)
    const b = new SalesTaxProviderService({ logger: silent as never, caching }, opts)
    const s = snapshot("cart_unit_8")
    await a.getTaxLines(items, [], ctx(s))
    await b.getTaxLines(items, [], ctx(s))
    expect(await calls()).toBe(1)
    expect([...kv.keys()].every((k) => k.startsWith("sales-tax:quote:"))).toBe(true)
  })

  it("validates options at boot with messages that name the option", () => {
    expect(() => SalesTaxProviderService.validateOptions({ apiKey: "k" })).toThrow(/connectionId/)
    expect(() =>
      SalesTaxProviderService.validateOptions({
        connectionId: CONN,
        apiKey: KEY,
        baseUrl: "ftp://x",
        origin: { line1: "", city: "", state: "California", zip: "1" },
      }),
    ).toThrow(/baseUrl[\s\S]*origin\.state[\s\S]*origin\.zip/)
    const err = thrownBy(() => SalesTaxProviderService.validateOptions({ connectionId: "short", apiKey: KEY, baseUrl: "http://x" }))
    expect(err?.message).toMatch(/connectionId must be at least 36 characters/)
    expect(err?.message).not.toContain(KEY)
  })
})

function thrownBy(fn: () => unknown): Error | null {
  try {
    fn()
    return null
  } catch (e) {
    return e as Error
  }
}

describe("exemptions, deadline, breaker and fallback order", () => {
  const MN = { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" }
  async function certFor(customerId: string, states = ["MN"]) {
    return (await ctl("POST", `/tax/connections/${CONN}/exemption-certificates`, {
      customerId,
      customerName: "Buyer Inc",
      address: MN,
      reason: "Resale",
      customerBusinessType: "RetailTrade",
      states: states.map((abbreviation) => ({ abbreviation })),
    })) as { certificateId: string }
  }
  const verified = (cartId: string, customerId: string): CartSnapshotInput => ({
    ...snapshot(cartId),
    customer_id: customerId,
    exemption_customer_id: customerId,
    exemption_basis: "authenticated_customer",
  })
  const recording = () => {
    const warns: string[] = []
    return { warns, logger: { info() {}, debug() {}, error() {}, warn: (m: string) => void warns.push(m) } }
  }
  const lines = () =>
    [{ line_item: { id: "item_a", product_id: "p", quantity: 2, unit_price: 10.75, currency_code: "usd" }, rates: [] }] as never

  it("a certificate applies only to a verified identity; the exempt line records the certificate and why", async () => {
    const cert = await certFor("cus_school")
    const p = provider()
    const guest = await p.getTaxLines(items, [], ctx({ ...snapshot("cart_ex_1"), customer_id: "cus_school" }))
    expect(guest[0]).toMatchObject({ code: TAX_LINE_CODE })
    expect(guest[0].rate).toBeGreaterThan(0)
    const [exempt] = await p.getTaxLines(items, [], ctx(verified("cart_ex_1", "cus_school")))
    expect(exempt).toMatchObject({
      code: TAX_LINE_CODE_EXEMPT,
      rate: 0,
      data: { exemption_id: cert.certificateId, exemption_basis: "authenticated_customer", exempt_customer_id: "cus_school" },
    })
  })

  it("a certificate the service refuses is dropped from the quote: taxed normally, one warning, no outage", async () => {
    const cert = await certFor("cus_refused")
    const rec = recording()
    const p = new SalesTaxProviderService(
      { logger: rec.logger as never },
      { connectionId: CONN, apiKey: KEY, baseUrl: sb.url, origin: MN, failurePolicy: "block" },
    )
    expect((await p.getTaxLines(items, [], ctx(verified("cart_ex_2", "cus_refused"))))[0].code).toBe(TAX_LINE_CODE_EXEMPT)
    await ctl("DELETE", `/tax/connections/${CONN}/exemption-certificates/${cert.certificateId}`) // behind the cached list's back
    // new cart states (the first one's exempt quote is cached, as any quote of the same state)
    const state = (qty: number) => ({
      ...verified("cart_ex_2", "cus_refused"),
      items: [{ id: "item_a", quantity: String(qty), unit_price: "10.75", discount: "0", tic: 0 }],
    })
    const a = await p.getTaxLines(items, [], ctx(state(3)))
    const b = await p.getTaxLines(items, [], ctx(state(4)))
    expect([a[0].code, b[0].code]).toEqual([TAX_LINE_CODE, TAX_LINE_CODE])
    expect(rec.warns.filter((w) => w.includes(`refused exemption certificate ${cert.certificateId}`))).toHaveLength(1)
    expect(p.stats.refusedCertificates).toBeGreaterThanOrEqual(1)
  })

  it("timeoutMs bounds the whole quote, certificate lookup included, and the lookup counts for the breaker", async () => {
    await ctl("POST", "/_sandbox/faults", { operation: "listCertificates", delayMs: 3000 })
    const p = provider({ timeoutMs: 400, failurePolicy: "block", circuitBreaker: { failures: 2, halfOpenAfterMs: 60_000 } })
    for (const id of ["cart_to_1", "cart_to_2"]) {
      const t0 = Date.now()
      const err = await p.getTaxLines(items, [], ctx(verified(id, `cus_slow_${id}`))).then(
        () => null,
        (e: Error) => e,
      )
      expect(err?.message).toBe(BLOCK_ERROR_MESSAGE)
      // cut long before the 3 s lookup answers (the exact bound is withDeadline's, fake-clock tested
      // in fallback.test.ts; this leaves a loaded machine 1.6 s of slack)
      expect(Date.now() - t0).toBeLessThan(2000)
    }
    expect(p.breaker.state).toBe("open")
    await ctl("DELETE", "/_sandbox/faults")
  })

  it("timeoutMs is one bound: a slow certificate lookup leaves the cart call only what is left of it", async () => {
    await ctl("POST", "/_sandbox/faults", { operation: "listCertificates", delayMs: 900, count: 1 })
    await ctl("POST", "/_sandbox/faults", { operation: "calculateCarts", delayMs: 5000 })
    const p = provider({ timeoutMs: 1000, failurePolicy: "block" })
    const t0 = Date.now()
    const err = await p.getTaxLines(items, [], ctx(verified("cart_to_left", "cus_slow_left"))).then(
      () => null,
      (e: Error) => e,
    )
    expect(err?.message).toBe(BLOCK_ERROR_MESSAGE)
    // one bound: ~1000 ms. Two bounds (900 ms of lookup, then the cart call's own 1000 ms) could not
    // end before 1900 ms: the gap leaves a loaded machine 900 ms of slack
    expect(Date.now() - t0).toBeLessThan(1900)
    await ctl("DELETE", "/_sandbox/faults")
  })

  it("open breaker under block: a fresh cached quote of the same cart state is served, a new state is refused", async () => {
    const p = provider({ failurePolicy: "block", circuitBreaker: { failures: 1, halfOpenAfterMs: 60_000 } })
    const ok = await p.getTaxLines(items, [], ctx(snapshot("cart_bo_1")))
    await ctl("POST", "/_sandbox/faults", { operation: "calculateCarts", status: 503 })
    expect(
      await p.getTaxLines(items, [], ctx(snapshot("cart_bo_1", 5))).then(
        () => null,
        (e: Error) => e.message,
      ),
    ).toBe(BLOCK_ERROR_MESSAGE)
    expect(p.breaker.state).toBe("open")
    expect(await p.getTaxLines(items, [], ctx(snapshot("cart_bo_1")))).toEqual(ok)
    expect(
      await p.getTaxLines(items, [], ctx(snapshot("cart_bo_1", 6))).then(
        () => null,
        (e: Error) => e.message,
      ),
    ).toBe(BLOCK_ERROR_MESSAGE)
  })

  it("fallback order: last-known rate of the ZIP and TIC → fallbackRates[state] → fallbackRate → region rates → refused", async () => {
    const p = provider({ fallbackRates: { KY: 6, MN: 1 } }) // MN has an option too: the last-known rate comes first
    await p.getTaxLines(items, [], ctx(snapshot("cart_fb_1")))
    // the rate memory is written after the answer: wait for it (a deadline, not a count of short sleeps: a loaded machine is slow)
    for (
      const until = Date.now() + 30_000;
      !(p as unknown as { rateMemory(): { rows?: Map<string, unknown> } }).rateMemory().rows?.size && Date.now() < until;
    )
      await new Promise((r) => setTimeout(r, 10))
    await ctl("POST", "/_sandbox/faults", { operation: "calculateCarts", status: 503 })
    const known = await p.getTaxLines(lines(), [], ctx(snapshot("cart_fb_2", 1)))
    expect(known[0]).toMatchObject({ code: TAX_LINE_CODE_FALLBACK, data: { fallback_source: "last_known" } })
    expect(known[0].rate).toBeCloseTo(9.025, 2)
    const ky = await p.getTaxLines(lines(), [], ctx(snapshot("cart_fb_3"), "40202", "KY"))
    expect(ky[0]).toMatchObject({ rate: 6, data: { fallback_source: "option" } })
    const flat = await provider({ fallbackRate: 7 }).getTaxLines(lines(), [], ctx(snapshot("cart_fb_4"), "40202", "KY"))
    expect(flat[0]).toMatchObject({ rate: 7, data: { fallback_source: "option" } })
    const region = await p.getTaxLines(items, [], ctx(snapshot("cart_fb_5"), "94105", "CA"))
    expect(region[0]).toMatchObject({ rate: 5, data: { fallback_source: "region" } })
    const none = await p.getTaxLines(lines(), [], ctx(snapshot("cart_fb_6"), "94105", "CA")).then(
      () => null,
      (e: Error) => e.message,
    )
    expect(none).toBe(BLOCK_ERROR_MESSAGE)
  })

  it("one warning at start when fallback has nothing for some US state, naming the option; none in a process that serves no requests (a CLI command)", async () => {
    const rec = recording()
    const base0 = { connectionId: CONN, apiKey: KEY, baseUrl: sb.url, origin: MN }
    expect(servesRequests()).toBe(false)
    expect(
      await new SalesTaxProviderService({ logger: rec.logger as never }, { ...base0, fallbackRates: { TX: 8.25 } }).bootCheck,
    ).toBeNull()
    expect(rec.warns).toEqual([])
    markServesRequests()
    const base = { connectionId: CONN, apiKey: KEY, baseUrl: sb.url, origin: MN }
    const p = new SalesTaxProviderService({ logger: rec.logger as never }, { ...base, fallbackRates: { TX: 8.25 } })
    const msg = await p.bootCheck
    expect(msg).toMatch(/for AL, AK, .*WY.*`fallbackRates`/)
    expect(msg).not.toMatch(/, TX,/)
    expect(rec.warns.filter((w) => w === msg)).toHaveLength(1)
    expect(await new SalesTaxProviderService({ logger: rec.logger as never }, { ...base, fallbackRate: 7 }).bootCheck).toBeNull()
    expect(await new SalesTaxProviderService({ logger: rec.logger as never }, { ...base, failurePolicy: "block" }).bootCheck).toBeNull()
  })

  it("429s from the service follow the policy but never open the breaker; a Retry-After that fits the time bound is waited for, one past it is not", async () => {
    const p = provider({ fallbackRate: 7, circuitBreaker: { failures: 2, halfOpenAfterMs: 60_000 } })
    await ctl("POST", "/_sandbox/faults", { operation: "calculateCarts", status: 429, retryAfter: "30" })
    for (let q = 1; q <= 5; q++) {
      const got = await p.getTaxLines(lines(), [], ctx(snapshot("cart_429", q)))
      expect(got[0]).toMatchObject({ rate: 7, code: TAX_LINE_CODE_FALLBACK, data: { fallback_source: "option" } })
    }
    // each new cart state was sent (one attempt: 30 s is past timeoutMs), none failed fast
    expect(await calls()).toBe(5)
    expect(p.breaker.state).toBe("closed")
    expect(p.breaker.consecutiveFailures).toBe(0)
    // a short Retry-After within timeoutMs: waited for, then the service's own answer
    await ctl("DELETE", "/_sandbox/faults")
    await ctl("POST", "/_sandbox/faults", { operation: "calculateCarts", status: 429, retryAfter: "0.1", count: 1 })
    const live = await p.getTaxLines(lines(), [], ctx(snapshot("cart_429", 9)))
    expect(live[0]!.code).toBe(TAX_LINE_CODE)
    expect(await calls()).toBe(7)
    await ctl("DELETE", "/_sandbox/faults")
  })

  it("a refused API key at checkout follows the failure policy and logs ONE error a minute per connection, naming the problem, never the key", async () => {
    const errors: string[] = []
    const warns: string[] = []
    const logger = { info() {}, debug() {}, warn: (m: string) => void warns.push(m), error: (m: string) => void errors.push(m) }
    const badKey = "sk_wrong_key_for_this_connection_000"
    const p = new SalesTaxProviderService(
      { logger: logger as never },
      {
        connectionId: CONN,
        apiKey: badKey,
        baseUrl: sb.url,
        origin: MN,
        fallbackRate: 7,
        circuitBreaker: { failures: 2, halfOpenAfterMs: 60_000 },
      },
    )
    for (let q = 1; q <= 4; q++) {
      const got = await p.getTaxLines(lines(), [], ctx(snapshot("cart_401", q)))
      expect(got[0]).toMatchObject({ rate: 7, data: { fallback: true, fallback_source: "option" } })
    }
    // the breaker opened after two refusals: requests 3 and 4 failed fast, and still logged nothing more
    expect(p.breaker.state).toBe("open")
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`the service refused the API key for connection ${CONN} (401`)
    expect(errors.join(" ") + warns.join(" ")).not.toContain(badKey)
    expect(warns.filter((w) => /service unavailable/.test(w))).toHaveLength(0)
    // under block: refused, the same way
    const b = new SalesTaxProviderService(
      { logger: logger as never },
      { connectionId: CONN, apiKey: badKey, baseUrl: sb.url, origin: MN, failurePolicy: "block" },
    )
    for (const q of [1, 2]) {
      const err = await b.getTaxLines(lines(), [], ctx(snapshot("cart_401b", q))).then(
        () => null,
        (e: Error) => e.message,
      )
      expect(err).toBe(BLOCK_ERROR_MESSAGE)
    }
    expect(errors).toHaveLength(2)
  })
})
