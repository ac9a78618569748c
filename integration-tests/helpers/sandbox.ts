/**
 * The sandbox in-process for Medusa integration tests: started on an ephemeral port, with a
 * control client for its /_sandbox test controls (counts, faults, clock, reset).
 */
import { startSandbox, type RunningSandbox } from "../../src/sandbox"
import { SalesTaxClient } from "../../src/client"
import type { OperationId } from "../../src/contract"

export const TEST_API_KEY = "sk_test_provider_0123456789-SECRET"
export const TEST_CONNECTION_ID = "11111111-2222-4333-8444-555555555555"

export interface FaultSpec {
  operation: OperationId | "*"
  status?: number
  delayMs?: number
  retryAfter?: string
  probability?: number
  count?: number
  drop?: boolean
  phase?: "before" | "after"
}

export interface TestSandbox {
  url: string
  apiKey: string
  connectionId: string
  running: RunningSandbox
  /** A client on the same connection (retries off), for asserting what the service holds. */
  client: SalesTaxClient
  call(method: string, path: string, body?: unknown): Promise<any>
  counts(): Promise<Record<string, number>>
  resetCounts(): Promise<void>
  fault(spec: FaultSpec): Promise<{ id: string }>
  clearFaults(): Promise<void>
  reset(): Promise<void>
  setClock(now: Date): Promise<void>
  close(): Promise<void>
}

export type SandboxCall = (method: string, path: string, body?: unknown) => Promise<any>

/**
 * A JSON caller for the sandbox at `url` with `apiKey` (for its /_sandbox controls): throws on a
 * non-2xx status with the body, returns undefined for 204 and the parsed JSON otherwise.
 */
export function sandboxCaller(url: string, apiKey: string): SandboxCall {
  return async function call(method, path, body) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return res.status === 204 ? undefined : res.json()
  }
}

/** Starts the sandbox on 127.0.0.1:<ephemeral> with a test key and connection. */
export async function startTestSandbox(opts: { apiKey?: string; connectionId?: string } = {}): Promise<TestSandbox> {
  const apiKey = opts.apiKey ?? TEST_API_KEY
  const connectionId = opts.connectionId ?? TEST_CONNECTION_ID
  const running = await startSandbox({ port: 0, host: "127.0.0.1", apiKey, connectionId })
  const url = running.url
  const call = sandboxCaller(url, apiKey)
  return {
    url,
    apiKey,
    connectionId,
    running,
    client: new SalesTaxClient({ baseUrl: url, apiKey, connectionId, retry: false }),
    call,
    counts: async () => (await call("GET", "/_sandbox/counts")).counts ?? {},
    resetCounts: async () => void (await call("DELETE", "/_sandbox/counts")),
    fault: (spec) => call("POST", "/_sandbox/faults", spec),
    clearFaults: async () => void (await call("DELETE", "/_sandbox/faults")),
    reset: async () => void (await call("POST", "/_sandbox/reset")),
    setClock: async (now) => void (await call("PUT", "/_sandbox/clock", { now: now.toISOString() })),
    close: () => running.close(),
  }
}
