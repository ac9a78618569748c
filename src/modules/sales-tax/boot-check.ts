/**
 * The provider's start-up checks, run at boot.
 *
 * Medusa 2.21 creates a tax provider lazily: the Tax Module registers it at boot but constructs it
 * at the first tax calculation, and a provider module's own `loaders` are not run. So the plugin's
 * own module (`salesTax`), from its `onApplicationStart` hook (called by Medusa once every module
 * is loaded, before the server takes requests), asks the Tax Module for each sales-tax provider it
 * registered. Creating the provider runs its boot check (`bootCheck`: the fallback-coverage
 * warning, src/providers/sales-tax/service.ts), awaited here so the warning is in the log when
 * boot ends. Without the `salesTax` module loaded, the check runs at the first tax calculation.
 */
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { Modules } from "@medusajs/framework/utils"
import { SALES_TAX_PROVIDER_IDENTIFIER } from "../../core/constants"
import { unknownSalesChannels, unknownSalesChannelsWarning } from "../../connections"
import type { PluginOptions } from "../../options"

interface TaxModuleLike {
  listTaxProviders(filters?: unknown, config?: unknown): Promise<{ id: string }[]>
  getProvider(id: string): unknown
}

/** The ids the Tax Module gives this plugin's providers: `tp_sales-tax` or `tp_sales-tax_<id>`. */
export function isSalesTaxProviderId(id: string): boolean {
  const base = `tp_${SALES_TAX_PROVIDER_IDENTIFIER}`
  return id === base || id.startsWith(`${base}_`)
}

/** Creates each sales-tax provider the Tax Module holds and waits for its boot check. Returns the warnings logged. */
export async function runProviderBootChecks(log: { warn(m: string): void }): Promise<string[]> {
  const instances = MedusaModule.getModuleInstance(Modules.TAX) as Record<string, TaxModuleLike> | undefined
  const out: string[] = []
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
 * not a stop: see unknownSalesChannels (src/connections.ts). Returns the warning, or null.
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
