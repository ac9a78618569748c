import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { clearSalesTaxClients } from "../service/client-factory"
import { resolvePluginOptions, type PluginOptions } from "../options"
import { clearTicCache, lookupTic, rememberTics, ticInfo } from "./lookup"

// TIC lookups ask the service (here the sandbox over HTTP): known, unknown, unverified when the
// service is down, one call per TIC while cached. The client's timeout is a hang guard here (a loaded
// machine can hold an answer past the default 3 s); timeouts themselves are tested in the client.
const KEY = "sk_unit_tic_lookup_key_0123456789"
const CONN = "44444444-5555-4666-8777-888888888888"
const ORIGIN = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
let sb: RunningSandbox
let options: PluginOptions
let raw: Record<string, unknown>
const scope = () => ({ resolve: () => ({ plugins: [{ resolve: "medusa-sales-tax", options: raw }] }) }) as never

async function ctl(method: string, path: string, body?: unknown) {
  const r = await fetch(`${sb.url}${path}`, {
    method,
    headers: { "x-api-key": KEY, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return r.status === 204 ? undefined : r.json()
}
const searches = async () => ((await ctl("GET", "/_sandbox/counts")) as { counts: Record<string, number> }).counts.searchTics ?? 0

beforeAll(async () => {
  sb = await startSandbox({ port: 0, apiKey: KEY, connectionId: CONN })
  raw = { apiKey: KEY, connectionId: CONN, baseUrl: sb.url, timeoutMs: 30_000, origin: ORIGIN }
  options = resolvePluginOptions(raw)
})
afterAll(async () => {
  await sb.close()
})
beforeEach(async () => {
  clearSalesTaxClients()
  clearTicCache()
  await ctl("POST", "/_sandbox/reset")
})

describe("lookupTic: the service is the judge of TICs", () => {
  it("knows a TIC the service's search returns, with the service's label, and asks once while cached", async () => {
    const first = await lookupTic(options, 20010)
    expect(first.status).toBe("known")
    const searched = (await ctl("POST", `/tax/tic/search`, { query: "20010", limit: 10 })) as {
      results: { ticId: number; label: string }[]
    }
    const label = searched.results.find((r) => r.ticId === 20010)!.label
    expect(first).toEqual({ status: "known", ticId: 20010, label })
    await ctl("POST", "/_sandbox/reset")
    expect(await lookupTic(options, 20010)).toEqual({ status: "known", ticId: 20010, label })
    expect(await searches()).toBe(0)
  })

  it("refuses a TIC the service does not return", async () => {
    expect(await lookupTic(options, 424242)).toEqual({ status: "unknown", ticId: 424242 })
    expect(await searches()).toBe(1)
    expect((await ticInfo(scope(), 424242)).label).toBeNull()
    expect(await searches()).toBe(1) // the unknown verdict is cached too
  })

  it("concurrent lookups of one TIC share one service call", async () => {
    const all = await Promise.all([lookupTic(options, 30070), lookupTic(options, 30070), lookupTic(options, 30070)])
    expect(all.map((r) => r.status)).toEqual(["known", "known", "known"])
    expect(await searches()).toBe(1)
  })

  it("is unverified (not refused) while the service is down, and asks again once it is back", async () => {
    await ctl("POST", "/_sandbox/faults", { operation: "searchTics", status: 503 })
    const down = await lookupTic(options, 20010)
    expect(down).toEqual({ status: "unverified", ticId: 20010, reason: "status 503" })
    expect((await ticInfo(scope(), 20010)).label).toBeNull()
    await ctl("DELETE", "/_sandbox/faults")
    expect((await lookupTic(options, 20010)).status).toBe("known")
  })

  it("is unverified when the service does not answer at all", async () => {
    const closed = await startSandbox({ port: 0, apiKey: KEY, connectionId: CONN })
    const url = closed.url
    await closed.close()
    const gone = resolvePluginOptions({ apiKey: KEY, connectionId: CONN, baseUrl: url, timeoutMs: 30_000, origin: ORIGIN })
    expect(await lookupTic(gone, 20010)).toEqual({ status: "unverified", ticId: 20010, reason: "network" })
  })

  it("knows the TICs an admin search returned without asking again", async () => {
    rememberTics(options, [{ ticId: 91000, label: "from the search", description: "", score: 1, rank: 1 }])
    expect(await lookupTic(options, 91000)).toEqual({ status: "known", ticId: 91000, label: "from the search" })
    expect(await searches()).toBe(0)
  })

  it("passes other service failures on (bad credentials are not 'the service is down')", async () => {
    const wrong = resolvePluginOptions({
      apiKey: "sk_wrong_key_0123456789abcdef",
      connectionId: CONN,
      baseUrl: sb.url,
      timeoutMs: 30_000,
      origin: ORIGIN,
    })
    await expect(lookupTic(wrong, 20010)).rejects.toMatchObject({ name: "SalesTaxError", status: 401 })
  })
})
