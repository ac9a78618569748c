import { buildSandboxApp, type BuildExtras, type SandboxApp, type SandboxOptions } from "./app"

export {
  buildSandboxApp,
  connectionsFromOptions,
  apiKeyOf,
  DEFAULT_API_KEY,
  DEFAULT_API_LOGIN_ID,
  DEFAULT_CONNECTION_ID,
  DEFAULT_BODY_LIMIT,
} from "./app"
export type { SandboxOptions, SandboxContext, SandboxPlugin, BuildExtras, SandboxApp } from "./app"
export { SandboxDomain, EXEMPT_NO_CERTIFICATE } from "./domain"
export type { StoredCart, StoredOrder, VoidedMarker, RefundOutcome } from "./domain"
export { SandboxStore, JOURNAL_FILE, LOCK_FILE, DataDirLockedError } from "./store"
export type { StoreOp, CollectionName } from "./store"
export { SandboxClock } from "./clock"
export { ConnectionRegistry, redact } from "./connections"
export type { SandboxConnection } from "./connections"
export { SandboxControls, FaultSpecSchema, CONTROL_KEYS } from "./controls"
export type { Fault, FaultSpec, ControlKey } from "./controls"
export { SandboxError, problem, statusTitle } from "./problem"
export { voidCutoff, canVoid, sameEasternMonth, EASTERN } from "./cutoff"

export interface RunningSandbox {
  /** http://host:port, no trailing slash */
  url: string
  port: number
  close(): Promise<void>
  /** The app and its parts (domain, store, clock, controls, connections), for in-process tests. */
  sandbox: SandboxApp
}

/** Starts the sandbox listening on `host:port` (ephemeral port by default). */
export async function startSandbox(options: SandboxOptions = {}, extras: BuildExtras = {}): Promise<RunningSandbox> {
  const sandbox = await buildSandboxApp(options, extras)
  const host = options.host ?? "127.0.0.1"
  try {
    await sandbox.app.listen({ port: options.port ?? 0, host })
  } catch (e) {
    await sandbox.app.close()
    throw e
  }
  const addr = sandbox.app.server.address()
  const port = typeof addr === "object" && addr ? addr.port : (options.port ?? 0)
  const urlHost = host.includes(":") ? `[${host}]` : host
  let closed: Promise<void> | null = null
  return {
    url: `http://${urlHost}:${port}`,
    port,
    sandbox,
    close: () => (closed ??= sandbox.app.close().then(() => undefined)),
  }
}
