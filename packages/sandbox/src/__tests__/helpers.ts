import http from "node:http"
import { DEFAULT_API_KEY, DEFAULT_CONNECTION_ID, type SandboxApp, type SandboxOptions } from "../app"
import { startSandbox, type RunningSandbox } from "../index"

export const KEY = DEFAULT_API_KEY
export const CONN = DEFAULT_CONNECTION_ID
export const CONN_B = "11111111-1111-4111-8111-111111111111"
export const KEY_B = "key-of-connection-b"
export const C = (conn = CONN) => `/tax/connections/${conn}`

/** A sandbox listening on an ephemeral loopback port, with the parts exposed for assertions. */
export interface TestSandbox extends SandboxApp {
  url: string
  port: number
  close(): Promise<void>
}

export async function makeSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const r: RunningSandbox = await startSandbox({ connections: [{ connectionId: CONN_B, apiKey: KEY_B }], ...opts }, { loadV1: false })
  return {
    ...r.sandbox,
    url: r.url,
    port: r.port,
    close: async () => {
      await r.close()
      agent.destroy()
    },
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 })

export interface Res {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: any
  raw: string
}

/** One request through Fastify inject; JSON bodies are serialized, the answer parsed when JSON. */
export async function call(
  s: TestSandbox,
  method: string,
  url: string,
  opts: { body?: unknown; key?: string | null; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) }
  if (opts.key !== null) headers["x-api-key"] = opts.key ?? KEY
  let payload: string | undefined
  if (opts.rawBody !== undefined) payload = opts.rawBody
  else if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body)
    headers["content-type"] ??= "application/json"
  }
  const r = await rawRequest(s.port, method, url, headers, payload)
  let body: unknown = undefined
  const ct = String(r.headers["content-type"] ?? "")
  if (r.raw && ct.includes("json")) body = JSON.parse(r.raw)
  return { ...r, body }
}

/** A plain HTTP/1.1 request over a keep-alive agent. Resolves status -1 when the socket is dropped. */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: string | Buffer,
): Promise<Omit<Res, "body">> {
  const h: Record<string, string> = { ...headers }
  if (payload !== undefined) h["content-length"] = String(Buffer.byteLength(payload))
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers: h, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers as Res["headers"], raw: Buffer.concat(chunks).toString("utf8") }),
      )
      res.on("error", () => resolve({ status: -1, headers: {}, raw: "" }))
    })
    req.on("error", () => resolve({ status: -1, headers: {}, raw: "" }))
    if (payload !== undefined) req.end(payload)
    else req.end()
  })
}

export const SEATTLE = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
export const ORIGIN = { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" }
export const NYC = { line1: "350 5th Ave", city: "New York", state: "NY", zip: "10118" }
export const PORTLAND = { line1: "1 SW Main St", city: "Portland", state: "OR", zip: "97204" }

export function cart(over: Record<string, unknown> = {}) {
  return {
    customerId: "cust-1",
    currency: { currencyCode: "USD" },
    origin: ORIGIN,
    destination: SEATTLE,
    lineItems: [
      { index: 0, itemId: "sku-1", price: 10.75, quantity: 1.5, tic: 0 },
      { index: 1, itemId: "sku-2", price: 20, quantity: 2, tic: 0 },
    ],
    ...over,
  }
}

export function orderBody(over: Record<string, unknown> = {}) {
  return {
    orderId: "ord-1",
    customerId: "cust-1",
    transactionDate: "2026-01-15T12:00:00Z",
    completedDate: "2026-01-15T12:00:00Z",
    currency: { currencyCode: "USD" },
    origin: ORIGIN,
    destination: SEATTLE,
    lineItems: [
      { index: 0, itemId: "a", price: 10, quantity: 3, tic: 0, tax: { amount: 1, rate: 0.1 } },
      { index: 1, itemId: "b", price: 5, quantity: 7, tic: 0, tax: { amount: 3.55, rate: 0.1014 } },
    ],
    ...over,
  }
}

export function certBody(over: Record<string, unknown> = {}) {
  return {
    customerId: "cust-1",
    customerName: "Acme Co",
    address: SEATTLE,
    reason: "Resale",
    customerBusinessType: "RetailTrade",
    states: [{ abbreviation: "WA" }],
    ...over,
  }
}

/** Freezes the sandbox clock through the HTTP control. */
export async function setClock(s: TestSandbox, iso: string): Promise<void> {
  const r = await call(s, "PUT", "/_sandbox/clock", { body: { now: iso } })
  if (r.status !== 200) throw new Error(`clock: ${r.status} ${r.raw}`)
}

/** Every path inside a JSON value (the root as []), for mutations in the fuzz tests (v3 and v1). */
export function jsonPaths(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix]
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...jsonPaths(x, [...prefix, i])))
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) out.push(...jsonPaths(x, [...prefix, k]))
  return out
}
