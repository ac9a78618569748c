/**
 * Test kit for filing: a sandbox control client and snapshots "as charged at checkout" (the charged
 * tax per line is what the service quoted for the cart, as the provider would have charged it).
 */
import type { Address, OperationId } from "../../packages/contract/src/index"
import type { SalesTaxClient } from "../../src/service/client"
import type { FilingLine, FilingSnapshot } from "../../src/modules/sales-tax-filing/types"
import type { MedusaSuiteOptions } from "@medusajs/test-utils"
import { sandboxCaller, type TestSandbox } from "../helpers/sandbox"
import type { SeededStore } from "../helpers/seed"
import { Modules } from "../../src/medusa/keys"
import { getPluginOptions, type PluginOptions } from "../../src/options"
import { SALES_TAX_PROVIDER_ID } from "../../src/constants"

export const API_KEY = "sk_test_filing_0123456789-SECRET"
export const CONNECTION_ID = "22222222-3333-4444-8555-666666666666"

export const ORIGIN: Address = { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105", countryCode: "US" }
export const DESTINATION: Address = { line1: "200 N Spring St", city: "Los Angeles", state: "CA", zip: "90012", countryCode: "US" }

export function controls(url: string, apiKey = API_KEY) {
  const call = sandboxCaller(url, apiKey)
  return {
    call,
    reset: () => call("POST", "/_sandbox/reset"),
    setClock: (now: Date) => call("PUT", "/_sandbox/clock", { now: now.toISOString() }),
    realClock: () => call("DELETE", "/_sandbox/clock"),
    fault: (spec: {
      operation: OperationId | "*"
      status?: number
      delayMs?: number
      retryAfter?: string
      probability?: number
      count?: number
      drop?: boolean
      phase?: "before" | "after"
    }) => call("POST", "/_sandbox/faults", spec) as Promise<{ id: string }>,
    clearFaults: () => call("DELETE", "/_sandbox/faults"),
    counts: async (): Promise<Record<string, number>> => (await call("GET", "/_sandbox/counts")).counts,
    resetCounts: () => call("DELETE", "/_sandbox/counts"),
  }
}

export interface LineSpec {
  price: number
  quantity: number
  tic?: number
  shipping?: boolean
}

/**
 * Quotes `lines` as the checkout would (POST carts with cartId) and returns the order snapshot
 * with the quoted tax as the charged tax. `adjust` may change a line's charged tax afterwards.
 */
export async function chargedSnapshot(
  client: SalesTaxClient,
  ids: { orderId: string; cartId: string | null; customerId?: string },
  lines: LineSpec[],
  opts: { destination?: Address; placedAt?: Date } = {},
): Promise<FilingSnapshot> {
  const cartId = ids.cartId ?? `quote_${ids.orderId}`
  const lineItems = lines.map((l, i) => ({
    index: i,
    itemId: l.shipping ? `shipping:sm_${ids.orderId}_${i}` : `ordli_${ids.orderId}_${i}`,
    price: l.price,
    quantity: l.quantity,
    tic: l.tic ?? (l.shipping ? 11010 : 0),
  }))
  const quote = await client.calculateCarts({
    items: [
      {
        cartId,
        customerId: ids.customerId ?? `cus_${ids.orderId}`.slice(0, 50),
        currency: { currencyCode: "USD" },
        origin: ORIGIN,
        destination: opts.destination ?? DESTINATION,
        lineItems,
      },
    ],
  })
  const quoted = quote.items[0]!.lineItems
  const fl: FilingLine[] = lineItems.map((li, i) => ({
    index: li.index,
    itemId: li.itemId,
    kind: lines[i]!.shipping ? "shipping" : "item",
    price: li.price,
    quantity: li.quantity,
    tic: li.tic,
    chargedTax: quoted[i]!.tax.amount,
    chargedRate: quoted[i]!.tax.rate,
    fallback: false,
  }))
  return {
    orderId: ids.orderId,
    kind: "order",
    cartId: ids.cartId,
    customerId: ids.customerId ?? `cus_${ids.orderId}`.slice(0, 50),
    currencyCode: "USD",
    placedAt: (opts.placedAt ?? new Date(Date.now() - 1000)).toISOString(),
    origin: ORIGIN,
    destination: opts.destination ?? DESTINATION,
    lines: fl,
  }
}

/**
 * Sets options of the running app (top-level keys of the resolved options objects every handler and
 * the tax provider read when an event or request arrives; a client is made per timeout) and returns
 * a function that puts the previous values back. Lets one Medusa boot test several option sets:
 * manualRefunds "credit" and "ignore", each completion mode, filing's attempts, external certificates.
 */
export function setOptions(container: { resolve(key: string): unknown }, patch: Partial<PluginOptions>): () => void {
  const tax = container.resolve(Modules.TAX) as { getProvider(id: string): { options: PluginOptions } }
  const targets = [getPluginOptions(container as Parameters<typeof getPluginOptions>[0]), tax.getProvider(SALES_TAX_PROVIDER_ID).options]
  const befores = targets.map((o) => Object.fromEntries(Object.keys(patch).map((k) => [k, o[k as keyof PluginOptions]])))
  for (const o of targets) Object.assign(o, patch)
  return () => targets.forEach((o, i) => Object.assign(o, befores[i]))
}

/** setOptions of `manualRefunds`: "credit" (payment.refunded files the credit) or "ignore" (the button). */
export const setManualRefunds = (container: { resolve(key: string): unknown }, mode: "ignore" | "credit") =>
  setOptions(container, { manualRefunds: mode })

/** setOptions of `completionMode`. */
export const setCompletionMode = (container: { resolve(key: string): unknown }, mode: "placed" | "captured" | "fulfilled") =>
  setOptions(container, { completionMode: mode })

/** setOptions for the tests of the enclosing `describe` (set in its beforeAll, put back in its afterAll); `patch` may be made from the options. */
export function useOptions(
  getContainer: () => { resolve(key: string): unknown },
  patch: Partial<PluginOptions> | ((options: PluginOptions) => Partial<PluginOptions>),
): void {
  let restore = () => {}
  beforeAll(() => {
    const container = getContainer()
    const opts = getPluginOptions(container as Parameters<typeof getPluginOptions>[0])
    restore = setOptions(container, typeof patch === "function" ? patch(opts) : patch)
  })
  afterAll(() => restore())
}

/** What a spec that boots Medusa once hands each group of tests it runs: `seeded` is filled by its beforeAll. */
export interface Boot<Seeded> {
  api: MedusaSuiteOptions["api"]
  getContainer: MedusaSuiteOptions["getContainer"]
  dbConnection?: MedusaSuiteOptions["dbConnection"]
  env: { sandbox: TestSandbox }
  seeded: Seeded
}
export type FilingBoot = Boot<{ store: SeededStore; auth: { headers: Record<string, string> } }>
