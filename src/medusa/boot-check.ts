/**
 * The start-up checks: what the plugin assumes of the app's Medusa (ONE error naming what is missing and
 * what is turned off), then each sales-tax provider's `bootCheck`, fetched from the Tax Module: Medusa
 * builds a provider at its first calculation and runs no provider loader.
 */
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { Modules } from "@medusajs/framework/utils"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../constants"
import { unknownSalesChannelsWarning } from "../options"
import type { PluginOptions } from "../options"
import { setDirectTaxRun, updateTaxLinesMatchesInstalled } from "./update-tax-lines"
import { nestedWorkflowContextDifferences, setNestedRun } from "./nested-workflow"
import { errorHandlerRoutingDifferences } from "./error-handler"
import { taxRateServiceDifferences } from "./tax-rate-service"
import { refundBookkeepingDifferences } from "./refund-credit-lines"
import { DRAFT_ORDER_CONVERT_ROUTE_FILE } from "./draft-order-convert-route"
import { storeCartRouteDifferences } from "./store-cart-routes"
import { installedSource } from "./installed"
import { hasHook } from "./workflow-hooks"
import { cartRestoreDifferences, setCartRestore, type CartSurface } from "./cart-restore"
import { orderTablesDifferences, pgConnectionDifferences, setOrderSales, type PgLike } from "./order-sales-by-state"
import { rootMiddlewareDifferences } from "./root-middleware"
import { fallbackReaderDifferences } from "./tax-line-context-fallback"
import { recordCarrierDifferences } from "./tax-line-record"
import { belowMinimumError, installedMedusaVersion, versionBelow } from "./medusa-range"

/** The ids the Tax Module gives this plugin's providers: `tp_sales-tax` or `tp_sales-tax_<id>`. */
export function isSalesTaxProviderId(id: string): boolean {
  const base = `tp_${SALES_TAX_PROVIDER_IDENTIFIER}`
  return id === base || id.startsWith(`${base}_`)
}

/** Checks the Medusa assumptions, then each sales-tax provider's boot check. Returns the messages logged. */
export async function runProviderBootChecks(
  log: { warn(m: string): void; error?(m: string): void },
  /** tests: a Medusa to check instead of the app's */
  surface?: MedusaSurface,
  /** for the check of the Order Module's tables */
  pg?: PgLike,
): Promise<string[]> {
  const out: string[] = []
  try {
    const s = surface ?? installedSurface()
    if (pg && !s.files?.orderTables) s.files = { ...s.files, orderTables: await orderTablesDifferences(pg) }
    const missing = checkMedusaAssumptions(log, s)
    if (missing) out.push(missing)
  } catch (e) {
    log.warn(`sales-tax: the check of Medusa's workflows and hooks could not run (${(e as Error)?.message ?? e})`)
  }
  const instances = MedusaModule.getModuleInstance(Modules.TAX) as
    | Record<string, { listTaxProviders(filters: unknown, config: unknown): Promise<{ id: string }[]>; getProvider(id: string): unknown }>
    | undefined
  for (const tax of Object.values(instances ?? {})) {
    if (typeof tax?.listTaxProviders !== "function") continue
    const ids = (await tax.listTaxProviders({}, { take: null })).map((p) => p.id).filter(isSalesTaxProviderId)
    for (const id of ids) {
      try {
        const provider = tax.getProvider(id) as { bootCheck?: Promise<string | null>; options?: PluginOptions } | undefined
        const warning = await provider?.bootCheck
        if (warning) out.push(warning)
        const channels = provider?.options ? await checkConnectionChannels(provider.options, log) : null
        if (channels) out.push(channels)
      } catch (e) {
        log.warn(`sales-tax: the start-up check of tax provider ${id} could not run (${(e as Error)?.message ?? e})`)
      }
    }
  }
  return out
}

/** Option `connections` against the Sales Channel Module: ONE warning naming each unknown sales channel, or null. */
export async function checkConnectionChannels(
  options: Pick<PluginOptions, "connectionId" | "apiKey" | "connections">,
  log: { warn(m: string): void },
): Promise<string | null> {
  const ids = [...new Set((options.connections ?? []).flatMap((c) => c.salesChannelIds))]
  if (!ids.length) return null
  const instances = MedusaModule.getModuleInstance(Modules.SALES_CHANNEL) as
    Record<string, { listSalesChannels(filters: unknown, config: unknown): Promise<{ id: string }[]> }> | undefined
  const svc = Object.values(instances ?? {}).find((s) => typeof s?.listSalesChannels === "function")
  if (!svc) return null
  const found = new Set((await svc.listSalesChannels({ id: ids }, { select: ["id"], take: null })).map((c) => c.id))
  const msg = unknownSalesChannelsWarning(options, found)
  if (msg) log.warn(msg)
  return msg
}

export type WorkflowLike = { hooks?: Record<string, unknown> }

/** Per reach-in of src/medusa: what differs in the installed Medusa (empty: it holds). */
const installedFiles = () => ({
  updateTaxLines: updateTaxLinesMatchesInstalled(),
  nestedWorkflow: nestedWorkflowContextDifferences(),
  errorHandlerRouting: errorHandlerRoutingDifferences(),
  taxRateService: taxRateServiceDifferences(),
  refundBookkeeping: refundBookkeepingDifferences(),
  storeCartRoutes: storeCartRouteDifferences(),
  taxLineContextFallback: fallbackReaderDifferences(),
  taxLineRecord: recordCarrierDifferences(),
  rootMiddleware: rootMiddlewareDifferences(),
  pgConnection: pgConnectionDifferences(),
})
/** `orderTables`: read from the database (runProviderBootChecks). */
export type FileAssumption = keyof ReturnType<typeof installedFiles> | "orderTables"

/** What the check reads of the app's Medusa; a part left out is not checked (tests give only what they test). */
export interface MedusaSurface {
  workflows: Record<string, WorkflowLike | undefined>
  utils: Record<string, unknown>
  http?: Record<string, unknown>
  cart?: CartSurface
  files?: Partial<Record<FileAssumption, string[]>>
  routeFile?: (rel: string) => boolean
}

/** One thing the plugin relies on, what it does `without` it, its switch, and what differs (added to the name). */
export interface MedusaAssumption {
  name: string
  present(s: MedusaSurface): boolean
  without: string
  turnOff?: () => void
  detail?: (s: MedusaSurface) => string[]
}

const NO_CART_CONTEXT =
  "its tax-line context is not passed (discounts are not seen, items and shipping are quoted separately, tax-inclusive prices are quoted as tax-exclusive)"

function hook(workflow: string, name: string, without: string): MedusaAssumption {
  return {
    name: `${workflow}.hooks.${name}`,
    present: (s) => hasHook(s.workflows[workflow], name),
    without,
  }
}

/** A setTaxLineContext hook, or its replacement, the provider's own read (tax-line-context-fallback.ts). */
function contextHook(workflow: string, without: string): MedusaAssumption {
  const detail = (s: MedusaSurface) => s.files?.taxLineContextFallback ?? []
  return {
    name: `${workflow}.hooks.setTaxLineContext (and its replacement, the provider's read of the cart or order through Query)`,
    present: (s) => hasHook(s.workflows[workflow], "setTaxLineContext") || !detail(s).length,
    without,
    detail,
  }
}

function file(key: FileAssumption, name: string, without: string, turnOff?: () => void): MedusaAssumption {
  return { name, present: (s) => !s.files?.[key]?.length, without, turnOff }
}

/** The hooks, helpers and reach-ins the plugin relies on (its own workflows' events need no check: never emitted). */
export const MEDUSA_ASSUMPTIONS: readonly MedusaAssumption[] = [
  contextHook("updateTaxLinesWorkflow", `cart tax: ${NO_CART_CONTEXT}`),
  contextHook("upsertTaxLinesWorkflow", `cart tax on new lines: ${NO_CART_CONTEXT}`),
  contextHook("updateOrderTaxLinesWorkflow", `order edits, exchanges and claims: ${NO_CART_CONTEXT}`),
  hook(
    "refreshCartItemsWorkflow",
    "beforeRefreshingPaymentCollection",
    "the one tax run inside Medusa's cart refresh: tax lines are refreshed after each store cart route instead (one workflow run more)",
  ),
  {
    name: "@medusajs/core-flows refreshPaymentCollectionForCartWorkflow",
    present: (s) => typeof s.workflows.refreshPaymentCollectionForCartWorkflow === "function",
    without:
      "the store cart routes' after-route tax refresh cannot bring the payment collection to the new total, nor put a cart back after a tax refusal",
  },
  {
    name: "@medusajs/framework/utils applyTranslationsToTaxLines",
    present: (s) => typeof s.utils.applyTranslationsToTaxLines === "function",
    without: "translated tax-rate names on the cart-refresh tax run (the rates' own names are kept)",
  },
  hook(
    "completeCartWorkflow",
    "validate",
    "the completion refusals: an unquotable US destination, a currency other than USD and a cart changed after its tax refresh are not refused when the cart completes",
  ),
  file(
    "updateTaxLines",
    "@medusajs/core-flows updateTaxLinesWorkflow (its cart fields and steps, src/medusa/update-tax-lines.ts)",
    "the refresh hook's direct tax run: updateTaxLinesWorkflow runs instead (6 SQL statements more per store cart mutation)",
    () => setDirectTaxRun(false),
  ),
  file(
    "nestedWorkflow",
    "@medusajs/workflows-sdk runAsStep's nested-run context (src/medusa/nested-workflow.ts)",
    "the tax run nested in Medusa's cart refresh when the plugin cannot run it directly: the after-route refresh does it (one workflow run more)",
    () => setNestedRun(false),
  ),
  {
    name: "@medusajs/framework/http errorHandler, used in place of a middlewares file's errorHandler (src/medusa/error-handler.ts)",
    present: (s) => (!s.http || typeof s.http.errorHandler === "function") && !s.files?.errorHandlerRouting?.length,
    without: "the 400 for an undecodable path of the plugin's routes (Medusa answers 500)",
  },
  file(
    "taxRateService",
    "the Tax Module's taxRateService in its providers' container (src/medusa/tax-rate-service.ts)",
    "the fallback-coverage warning cannot read the tax regions' default rates (it names every state the options do not cover)",
  ),
  file(
    "refundBookkeeping",
    "refundPaymentWorkflow's credit-line bookkeeping (src/medusa/refund-credit-lines.ts)",
    "nothing is turned off, but refunds without a return may be filed with a wrong credit part: check the Filings page after a refund",
  ),
  file(
    "storeCartRoutes",
    "the store cart routes' one res.json answer with the cart (src/medusa/store-cart-routes.ts)",
    "the refresh after a store cart route where Medusa does not recompute tax (the promotion routes): such a route may answer with the tax of the cart before the change",
  ),
  {
    name: `@medusajs/medusa POST /admin/draft-orders/:id/convert-to-order (src/medusa/draft-order-convert-route.ts)`,
    present: (s) => !s.routeFile || s.routeFile(DRAFT_ORDER_CONVERT_ROUTE_FILE),
    without:
      "the draft-order conversion guard: an admin's US draft order with an unquotable destination or in another currency is not refused",
  },
  {
    name: "the Cart Module's methods and columns the cart restore writes (src/medusa/cart-restore.ts)",
    present: (s) => !s.cart || !cartRestoreDifferences(s.cart).length,
    without:
      "the restore of a cart after the request that discovers an outage: that request still answers 400 sales_tax_unavailable, but the cart may keep the refused change",
    turnOff: () => setCartRestore(false),
  },
  file(
    "taxLineRecord",
    "core-flows' copy of a tax line's rate_id to the cart's and the order's tax_rate_id (src/medusa/tax-line-record.ts)",
    "nothing is turned off, but where Medusa drops tax-line data (before 2.18) an order is filed without the TIC, origin, destination and certificate it was charged under: check the Filings page",
  ),
  file(
    "rootMiddleware",
    "Medusa's router running a root middleware first, and answers through res.json (src/medusa/root-middleware.ts)",
    "nothing is turned off, but the hostile-input guard of the plugin's routes may not run: deep or control-character input may answer 500, and an answer may echo the API key",
  ),
  file(
    "pgConnection",
    "a module's container holding the app's database connection (src/medusa/order-sales-by-state.ts)",
    "the start-up check of the Order Module's tables is skipped (a changed table fails the nexus report when it runs, not at start)",
  ),
  file(
    "orderTables",
    "the Order Module's tables and columns the nexus sales statement reads (src/medusa/order-sales-by-state.ts)",
    "the nexus report's sales per state (economic nexus thresholds are not computed; the admin page says so)",
    () => setOrderSales(false),
  ),
]

export function missingMedusaAssumptions(
  surface: MedusaSurface,
  assumptions: readonly MedusaAssumption[] = MEDUSA_ASSUMPTIONS,
): MedusaAssumption[] {
  return assumptions.filter((a) => {
    try {
      return !a.present(surface)
    } catch {
      return true
    }
  })
}

/** Pure: ONE message naming Medusa's version and each missing piece with what is turned off; null when none. */
export function medusaAssumptionsError(version: string, missing: readonly MedusaAssumption[]): string | null {
  if (!missing.length) return null
  const list = missing.map((m) => `${m.name} is missing, so ${m.without}`).join("; ")
  return (
    `sales-tax: Medusa ${version} lacks ${missing.length === 1 ? "a feature" : `${missing.length} features`} this plugin uses: ${list}. ` +
    `Supported Medusa versions: see the plugin's README (Compatibility).`
  )
}

/** The app's own Medusa: its core-flows workflows, framework utils and http, Cart Module, files and routes. */
export function installedSurface(): MedusaSurface {
  const [workflows, utils, http] = ["@medusajs/medusa/core-flows", "@medusajs/framework/utils", "@medusajs/framework/http"].map(
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (m) => require(m) as Record<string, unknown>,
  )
  const carts = MedusaModule.getModuleInstance(Modules.CART) as Record<string, object> | undefined
  const cartService = Object.values(carts ?? {})[0]
  return {
    workflows: workflows as Record<string, WorkflowLike | undefined>,
    utils,
    http,
    // its models: the contract test's
    cart: cartService ? { service: cartService, models: undefined } : undefined,
    files: installedFiles(),
    routeFile: (rel) => installedSource("@medusajs/medusa", rel) !== undefined,
  }
}

/** Checks MEDUSA_ASSUMPTIONS against the app's Medusa and logs ONE error when something is missing. */
export function checkMedusaAssumptions(
  log: { error?(m: string): void; warn(m: string): void },
  surface: MedusaSurface = installedSurface(),
  version: string = installedMedusaVersion(),
): string | null {
  const missing = missingMedusaAssumptions(surface).map((m) => {
    const d = m.detail?.(surface) ?? []
    return d.length ? { ...m, name: `${m.name} [${d.join("; ")}]` } : m
  })
  for (const m of missing) m.turnOff?.()
  const msg = versionBelow(version) ? belowMinimumError(version) : medusaAssumptionsError(version, missing)
  if (msg) (log.error ?? log.warn).call(log, msg)
  return msg
}
