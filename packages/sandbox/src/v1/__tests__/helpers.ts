import http from "node:http"
import { DEFAULT_API_KEY, DEFAULT_API_LOGIN_ID, DEFAULT_CONNECTION_ID } from "../../app"
import { startSandbox, type RunningSandbox } from "../../index"

export const LOGIN = DEFAULT_API_LOGIN_ID
export const KEY = DEFAULT_API_KEY
export const CONN = DEFAULT_CONNECTION_ID
export const CONN_B = "22222222-2222-4222-8222-222222222222"
export const KEY_B = "key-of-connection-b"
export const LOGIN_B = "LOGIN-B"
export const CRED = { apiLoginID: LOGIN, apiKey: KEY }
export const CRED_B = { apiLoginID: LOGIN_B, apiKey: KEY_B }

export const SEATTLE = { Address1: "400 Broad St", City: "Seattle", State: "WA", Zip5: "98109" }
export const ORIGIN = { Address1: "1 Main St", City: "Seattle", State: "WA", Zip5: "98101" }
export const PHILLY = { Address1: "1 Market St", City: "Philadelphia", State: "PA", Zip5: "19106" }
export const PORTLAND = { Address1: "1 SW Main St", City: "Portland", State: "OR", Zip5: "97204" }
/** The same Seattle destination as a version 3 address. */
export const SEATTLE_V3 = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }

export interface V1Sandbox {
  run: RunningSandbox
  url: string
  port: number
  close(): Promise<void>
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 })

export async function makeV1Sandbox(): Promise<V1Sandbox> {
  const run = await startSandbox({ connections: [{ connectionId: CONN_B, apiKey: KEY_B, apiLoginId: LOGIN_B }] })
  return {
    run,
    url: run.url,
    port: run.port,
    close: async () => {
      await run.close()
      agent.destroy()
    },
  }
}

export interface Res {
  status: number
  headers: http.IncomingHttpHeaders
  raw: string
  body: any
}

/** A raw HTTP request; status -1 when the socket is dropped. */
export function request(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: string | Buffer,
): Promise<Res> {
  const h: Record<string, string> = { ...headers }
  if (payload !== undefined) h["content-length"] = String(Buffer.byteLength(payload))
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers: h, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        let body: unknown
        try {
          body = raw ? JSON.parse(raw) : undefined
        } catch {
          body = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body })
      })
      res.on("error", () => resolve({ status: -1, headers: {}, raw: "", body: undefined }))
    })
    req.on("error", () => resolve({ status: -1, headers: {}, raw: "", body: undefined }))
    if (payload !== undefined) req.end(payload)
    else req.end()
  })
}

/** POST a v1 operation with a JSON body (credentials of the default connection unless given). */
export function v1(
  s: V1Sandbox,
  op: string,
  body: Record<string, unknown> = {},
  opts: { cred?: Record<string, unknown> | null; query?: string } = {},
): Promise<Res> {
  const payload = JSON.stringify({ ...(opts.cred === null ? {} : (opts.cred ?? CRED)), ...body })
  return request(s.port, "POST", `/1.0/Service/${op}${opts.query ?? ""}`, { "content-type": "application/json" }, payload)
}

/** Flattens a JSON value into form pairs with bracket notation: a[0][B]=1. */
export function toForm(v: unknown, prefix = ""): [string, string][] {
  if (Array.isArray(v)) return v.flatMap((x, i) => toForm(x, `${prefix}[${i}]`))
  if (v !== null && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => toForm(x, prefix ? `${prefix}[${k}]` : k))
  return [[prefix, v === null || v === undefined ? "" : String(v)]]
}

export function formBody(v: Record<string, unknown>): string {
  return new URLSearchParams(toForm(v)).toString()
}

/** A version 3 request with the default connection's key. */
export function v3(s: V1Sandbox, method: string, path: string, body?: unknown, conn = CONN, key = KEY): Promise<Res> {
  const headers: Record<string, string> = { "x-api-key": key }
  if (body !== undefined) headers["content-type"] = "application/json"
  return request(s.port, method, `/tax/connections/${conn}${path}`, headers, body === undefined ? undefined : JSON.stringify(body))
}

export function lookupBody(over: Record<string, unknown> = {}) {
  return {
    customerID: "cust-1",
    cartID: "cart-1",
    deliveredBySeller: false,
    origin: ORIGIN,
    destination: SEATTLE,
    cartItems: [
      { Index: 0, ItemID: "sku-1", TIC: 0, Price: 10.75, Qty: 1.5 },
      { Index: 1, ItemID: "sku-2", TIC: 0, Price: 20, Qty: 2 },
    ],
    ...over,
  }
}

export function detail(over: Record<string, unknown> = {}) {
  return {
    ExemptStates: [{ StateAbbr: "WA", ReasonForExemption: "Resale", IdentificationNumber: "WA-123" }],
    SinglePurchase: false,
    PurchaserFirstName: "Ada",
    PurchaserLastName: "Lovelace",
    PurchaserAddress1: "400 Broad St",
    PurchaserCity: "Seattle",
    PurchaserState: "WA",
    PurchaserZip: "98109",
    PurchaserBusinessType: "RetailTrade",
    PurchaserExemptionReason: "Resale",
    PurchaserExemptionReasonValue: "resale permit",
    ...over,
  }
}

/** ResponseType 3 or throw with the messages (for setup steps). */
export function ok(r: Res): Res {
  if (r.status !== 200 || r.body?.ResponseType !== 3) throw new Error(`expected success, got ${r.status} ${r.raw}`)
  return r
}

/** The Message texts of a v1 answer. */
export const messages = (r: Res): string[] =>
  (r.body?.Messages ?? []).map((m: { Message?: string } | string) => (typeof m === "string" ? m : m.Message))
