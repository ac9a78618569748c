/**
 * The provider's start-up checks, run at boot.
 *
 * Medusa (2.19-2.21) creates a tax provider lazily: the Tax Module registers it at boot but constructs it
 * at the first tax calculation, and a provider module's own `loaders` are not run. So the plugin's
 * own module (`salesTax`), from its `onApplicationStart` hook (called by Medusa once every module
 * is loaded, before the server takes requests), asks the Tax Module for each sales-tax provider it
 * registered. Creating the provider runs its boot check (`bootCheck`: the fallback-coverage
 * warning, src/checkout/quote/provider.ts), awaited here so the warning is in the log when
 * boot ends. Without the `salesTax` module loaded, the check runs at the first tax calculation.
 */
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { Modules } from "@medusajs/framework/utils"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../constants"
import { unknownSalesChannels, unknownSalesChannelsWarning } from "../service/connections"
import type { PluginOptions } from "../options"

interface TaxModuleLike {
  listTaxProviders(filters?: unknown, config?: unknown): Promise<{ id: string }[]>
  getProvider(id: string): unknown
}

/** The ids the Tax Module gives this plugin's providers: `tp_sales-tax` or `tp_sales-tax_<id>`. */
export function isSalesTaxProviderId(id: string): boolean {
  const base = `tp_${SALES_TAX_PROVIDER_IDENTIFIER}`
  return id === base || id.startsWith(`${base}_`)
}

/**
 * Checks what the plugin assumes of the app's Medusa (checkMedusaAssumptions below: ONE error when
 * something is missing), then creates each sales-tax provider the Tax Module holds and waits for
 * its boot check. Returns the messages logged.
 */
export async function runProviderBootChecks(
  log: { warn(m: string): void; error?(m: string): void },
  /** tests: a Medusa to check instead of the app's */
  surface?: MedusaSurface,
): Promise<string[]> {
  const out: string[] = []
  try {
    const missing = checkMedusaAssumptions(log, surface)
    if (missing) out.push(missing)
  } catch (e) {
    log.warn(`sales-tax: the check of Medusa's workflows and hooks could not run (${(e as Error)?.message ?? e})`)
  }
  const instances = MedusaModule.getModuleInstance(Modules.TAX) as Record<string, TaxModuleLike> | undefined
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

interface SalesChannelModuleLike {
  listSalesChannels(filters?: unknown, config?: unknown): Promise<{ id: string }[]>
}

/**
 * Option `connections` against the Sales Channel Module: a configured sales channel that does not
 * exist is logged as ONE warning naming each (connections[i].salesChannelIds[j] = id). A warning,
 * not a stop: see unknownSalesChannels (src/service/connections.ts). Returns the warning, or null.
 */
export async function checkConnectionChannels(
  options: Pick<PluginOptions, "connectionId" | "apiKey" | "connections">,
  log: { warn(m: string): void },
): Promise<string | null> {
  const ids = [...new Set((options.connections ?? []).flatMap((c) => c.salesChannelIds))]
  if (!ids.length) return null
  const instances = MedusaModule.getModuleInstance(Modules.SALES_CHANNEL) as Record<string, SalesChannelModuleLike> | undefined
  const svc = Object.values(instances ?? {}).find((s) => typeof s?.listSalesChannels === "function")
  if (!svc) return null
  const found = new Set((await svc.listSalesChannels({ id: ids }, { select: ["id"], take: null })).map((c) => c.id))
  const msg = unknownSalesChannelsWarning(unknownSalesChannels(options, found))
  if (msg) log.warn(msg)
  return msg
}

// ------------------------------------------------------------------------------------------------
// What the plugin assumes of Medusa (issue 28): checked at boot, ONE error when something is missing
// ------------------------------------------------------------------------------------------------

/** A Medusa workflow as far as the plugin uses it: the hooks it registers handlers on. */
export interface WorkflowLike {
  hooks?: Record<string, unknown>
}

/** What the check reads: the workflows of @medusajs/core-flows and the exports of @medusajs/framework/utils. */
export interface MedusaSurface {
  workflows: Record<string, WorkflowLike | undefined>
  utils: Record<string, unknown>
}

/** One thing the plugin relies on, and what it turns off (or does instead) without it. */
export interface MedusaAssumption {
  /** e.g. `updateTaxLinesWorkflow.hooks.setTaxLineContext` */
  name: string
  present(s: MedusaSurface): boolean
  without: string
}

const NO_CART_CONTEXT =
  "its tax-line context is not passed (discounts are not seen, items and shipping are quoted separately, tax-inclusive prices are quoted as tax-exclusive)"

function hook(workflow: string, name: string, without: string): MedusaAssumption {
  return {
    name: `${workflow}.hooks.${name}`,
    present: (s) => typeof s.workflows[workflow]?.hooks?.[name] === "function",
    without,
  }
}

/**
 * The hooks the plugin registers handlers on (src/workflows/hooks/tax-line-context.ts,
 * cart-refresh-tax.ts) and the framework helpers it calls. The workflow ids and step ids the plugin
 * runs are its own (`sales-tax-*`), and Medusa's events it subscribes to are strings that an older
 * Medusa simply never emits: neither needs a check here.
 */
export const MEDUSA_ASSUMPTIONS: readonly MedusaAssumption[] = [
  hook("updateTaxLinesWorkflow", "setTaxLineContext", `cart tax: ${NO_CART_CONTEXT}`),
  hook("upsertTaxLinesWorkflow", "setTaxLineContext", `cart tax on new lines: ${NO_CART_CONTEXT}`),
  hook("updateOrderTaxLinesWorkflow", "setTaxLineContext", `order edits, exchanges and claims: ${NO_CART_CONTEXT}`),
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
]

/** The assumptions `surface` does not meet. Pure. */
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

/** ONE message naming Medusa's version, each missing piece and what is turned off; null when nothing is missing. Pure. */
export function medusaAssumptionsError(version: string, missing: readonly MedusaAssumption[]): string | null {
  if (!missing.length) return null
  const list = missing.map((m) => `${m.name} is missing, so ${m.without}`).join("; ")
  return (
    `sales-tax: Medusa ${version} lacks ${missing.length === 1 ? "a feature" : `${missing.length} features`} this plugin uses: ${list}. ` +
    `Supported Medusa versions: see the plugin's README (Compatibility).`
  )
}

/** The version of @medusajs/medusa the app runs, or "(version unknown)". */
export function installedMedusaVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require("@medusajs/medusa/package.json") as { version: string }).version
  } catch {
    return "(version unknown)"
  }
}

/** The app's own Medusa: its core-flows workflows and framework utils. */
function installedSurface(): MedusaSurface {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const workflows = require("@medusajs/core-flows") as Record<string, WorkflowLike | undefined>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const utils = require("@medusajs/framework/utils") as Record<string, unknown>
  return { workflows, utils }
}

/**
 * Checks MEDUSA_ASSUMPTIONS against the app's Medusa and logs ONE error when something is
 * missing (never a silent misbehaviour). Returns the message, or null.
 */
export function checkMedusaAssumptions(
  log: { error?(m: string): void; warn(m: string): void },
  surface: MedusaSurface = installedSurface(),
  version: string = installedMedusaVersion(),
): string | null {
  const msg = medusaAssumptionsError(version, missingMedusaAssumptions(surface))
  if (msg) (log.error ?? log.warn).call(log, msg)
  return msg
}
