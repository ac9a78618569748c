/**
 * The sandbox in-process for Medusa integration tests: started on an ephemeral port, with a
 * control client for its /_sandbox test controls (counts, faults, clock, reset).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startSandbox, type RunningSandbox } from "@medusa-sales-tax/sandbox"
import { SalesTaxClient } from "../../src/service/client"
import type { OperationId } from "../../packages/contract/src/index"

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
  /** only requests on this connection */
  connectionId?: string
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

/** Data directories held by a test sandbox of this process (see claimDataDir). */
const claimedDirs = new Set<string>()
const LOCK_FILE = ".test-sandbox.lock"

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * Claims a sandbox data directory for one test sandbox: two sandboxes on one journal overwrite
 * each other's acknowledged writes, so a directory held by a running test sandbox (of this
 * process, or of another live one through `<dir>/.test-sandbox.lock`) is refused. Returns the
 * release function.
 */
export function claimDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true })
  const real = realpathSync(dir)
  if (claimedDirs.has(real)) throw new Error(`sandbox data dir ${real} is already used by a running test sandbox of this process`)
  const lock = join(real, LOCK_FILE)
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" })
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      const pid = Number(readFileSync(lock, "utf8"))
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(`sandbox data dir ${real} is already used by a running test sandbox (pid ${pid})`, { cause: e })
      }
      unlinkSync(lock) // left by a process that is gone
    }
  }
  claimedDirs.add(real)
  return () => {
    claimedDirs.delete(real)
    rmSync(lock, { force: true })
  }
}

export interface StartTestSandboxOptions {
  apiKey?: string
  connectionId?: string
  /**
   * Journal the sandbox to disk. `true`: a fresh unique temporary directory (removed on close);
   * a path: that directory, refused while another test sandbox runs on it (claimDataDir).
   * Default: memory only.
   */
  persist?: boolean | string
}

/** Starts the sandbox on 127.0.0.1:<ephemeral> with a test key and connection. */
export async function startTestSandbox(opts: StartTestSandboxOptions = {}): Promise<TestSandbox & { dataDir?: string }> {
  const apiKey = opts.apiKey ?? TEST_API_KEY
  const connectionId = opts.connectionId ?? TEST_CONNECTION_ID
  let dataDir: string | undefined
  let cleanup = () => {}
  if (opts.persist) {
    const temp = opts.persist === true
    dataDir = temp ? mkdtempSync(join(tmpdir(), "sales-tax-sandbox-")) : (opts.persist as string)
    const release = claimDataDir(dataDir)
    cleanup = () => {
      release()
      if (temp) rmSync(dataDir!, { recursive: true, force: true })
    }
  }
  let running: RunningSandbox
  try {
    running = await startSandbox({ port: 0, host: "127.0.0.1", apiKey, connectionId, ...(dataDir ? { dataDir } : {}) })
  } catch (e) {
    cleanup()
    throw e
  }
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
    close: async () => {
      try {
        await running.close()
      } finally {
        cleanup()
      }
    },
    ...(dataDir ? { dataDir } : {}),
  }
}
