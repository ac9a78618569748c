import { SalesTaxClient, type SalesTaxClientOptions } from "./client"
import type { PluginOptions } from "../options"
import { sha256Hex } from "./cart/build-service-cart"
import { callLog } from "./call-log"
import { runtimeSlot } from "../runtime"

/** One client per option set, in the plugin's runtime (the provider, the routes and the jobs share them). */
const clients = runtimeSlot("salesTaxClients", () => new Map<string, SalesTaxClient>())

type ClientOptionBits = Pick<PluginOptions, "baseUrl" | "apiKey" | "connectionId"> &
  Partial<Pick<PluginOptions, "timeoutMs" | "backgroundTimeoutMs" | "log">>

/** Key of an option set; the API key enters only hashed. */
function keyOf(o: ClientOptionBits, extra?: Partial<SalesTaxClientOptions>): string {
  const settings = [o.baseUrl, o.connectionId, o.timeoutMs ?? null, o.backgroundTimeoutMs ?? null, extra?.retry ?? null, o.log ?? null]
  return sha256Hex(`${JSON.stringify(settings)}\0${o.apiKey}`)
}

/** The service-call log (option `log`, on by default; bodies only with `log.bodies`). */
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
    const { baseUrl, apiKey, connectionId, timeoutMs, backgroundTimeoutMs } = options
    c = new SalesTaxClient({ baseUrl, apiKey, connectionId, timeoutMs, backgroundTimeoutMs, ...logHook(options), ...extra })
    clients().set(key, c)
  }
  return c
}

/** The client of the checkout path: two attempts, short backoff, `timeoutMs` per attempt and for the WHOLE call. */
export function getCheckoutClient(options: ClientOptionBits & Pick<PluginOptions, "timeoutMs">): SalesTaxClient {
  return getSalesTaxClient(options, { retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, maxElapsedMs: options.timeoutMs } })
}

/** The client of work no shopper waits on (filing, jobs, the admin): `backgroundTimeoutMs` per attempt. */
export function getBackgroundClient(options: ClientOptionBits): SalesTaxClient {
  return getSalesTaxClient(options).background()
}

/** Test helper: forget every client (e.g. between sandboxes on different ports). */
export function clearSalesTaxClients(): void {
  clients().clear()
}
