import { createHash } from "node:crypto"
import { SalesTaxClient, type SalesTaxClientOptions } from "./client"
import type { RetryPolicy } from "./client/retry"
import type { PluginOptions } from "../options"
import { callLog } from "./call-log"
import { runtimeSlot } from "../runtime"

/** One client per option set, in the plugin's runtime (the provider, the routes and the jobs share them). */
const clients = runtimeSlot("salesTaxClients", () => new Map<string, SalesTaxClient>())

type ClientOptionBits = Pick<PluginOptions, "baseUrl" | "apiKey" | "connectionId"> &
  Partial<Pick<PluginOptions, "timeoutMs" | "backgroundTimeoutMs" | "log">>

/** Key of an option set; the API key enters only hashed. */
function keyOf(o: ClientOptionBits, extra?: Partial<SalesTaxClientOptions>): string {
  const h = createHash("sha256")
  h.update(
    JSON.stringify([o.baseUrl, o.connectionId, o.timeoutMs ?? null, o.backgroundTimeoutMs ?? null, extra?.retry ?? null, o.log ?? null]),
  )
  h.update("\0")
  h.update(o.apiKey)
  return h.digest("hex")
}

/**
 * The service-call log (option `log`, on by default): each attempt goes to the process's buffer,
 * written off the request path (service/call-log.ts); bodies only with `log.bodies`.
 */
function logHook(o: ClientOptionBits): Partial<SalesTaxClientOptions> {
  if (o.log && !o.log.enabled) return {}
  if (o.log) callLog.retentionDays = o.log.retentionDays
  const connectionId = o.connectionId
  return { onAttempt: (info) => callLog.record(connectionId, info), attemptBodies: o.log?.bodies ?? false }
}

/** One SalesTaxClient per option set, shared by the app. `extra` may set retry/onAttempt (onAttempt is not in the key: the first caller's wins). */
export function getSalesTaxClient(options: ClientOptionBits, extra?: Partial<SalesTaxClientOptions>): SalesTaxClient {
  const key = keyOf(options, extra)
  let c = clients().get(key)
  if (!c) {
    c = new SalesTaxClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      connectionId: options.connectionId,
      timeoutMs: options.timeoutMs,
      backgroundTimeoutMs: options.backgroundTimeoutMs,
      ...logHook(options),
      ...extra,
    })
    clients().set(key, c)
  }
  return c
}

/**
 * Retry policy of the checkout path: two attempts, short backoff, and the WHOLE call (attempts and
 * waits) within `timeoutMs`, so a shopper never waits longer than the option says.
 */
export function checkoutRetryPolicy(timeoutMs: number): Partial<RetryPolicy> {
  return { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: timeoutMs }
}

/** The client of the checkout path: `timeoutMs` per attempt and for the whole call. */
export function getCheckoutClient(options: ClientOptionBits & Pick<PluginOptions, "timeoutMs">): SalesTaxClient {
  return getSalesTaxClient(options, { retry: checkoutRetryPolicy(options.timeoutMs) })
}

/** The client of work no shopper waits on (filing, jobs, the admin): `backgroundTimeoutMs` per attempt. */
export function getBackgroundClient(options: ClientOptionBits): SalesTaxClient {
  return getSalesTaxClient(options).background()
}

/** Test helper: forget every client (e.g. between sandboxes on different ports). */
export function clearSalesTaxClients(): void {
  clients().clear()
}
