// The setup checklist against a running Medusa: what the checks need read through Query, a fix
// applied through Medusa's workflows. Shared by the admin routes and the setup script.
import {
  batchLinksWorkflow,
  createLocationFulfillmentSetWorkflow,
  createRegionsWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateTaxRegionsWorkflow,
} from "@medusajs/medusa/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { getBackgroundClient } from "../service/client-factory"
import { SalesTaxError } from "../service/client"
import { graph, type QueryScope as Scope } from "../query"
import { LOCATION_ADDRESS_FIELDS } from "../service/origins/origins"
import { isSalesTaxProviderId } from "../medusa/boot-check"
import { getPluginOptions } from "../options"
import { scrubServiceText } from "../http/answers"
import { readProductTics, type ProductTicFields } from "../service/tics/product-tics"
import { setupChecklist } from "./checklist"
import { planFix, type FixPlan } from "./fixes"
import type { SetupFixId, SetupInput, SetupItem, SetupLocation, SetupRegion, SetupSalesChannel, SetupTaxRegion } from "./types"

const ALL = { take: 1000, skip: 0 }

const under = (prefix: string, fields: string[]) => fields.map((f) => `${prefix}.${f}`)
const OPTION = "fulfillment_sets.service_zones.shipping_options"
const LOCATION_FIELDS = [
  ...LOCATION_ADDRESS_FIELDS,
  ...["sales_channels.id", "fulfillment_providers.id", "fulfillment_sets.id", "fulfillment_sets.name", "fulfillment_sets.type"],
  ...under("fulfillment_sets.service_zones", ["id", "name", "geo_zones.type", "geo_zones.country_code"]),
  ...under(OPTION, ["id", "name", "price_type", "provider_id", "shipping_profile_id", "type.label", "type.description", "type.code"]),
  ...under(OPTION, ["rules.attribute", "rules.operator", "rules.value", "prices.currency_code", "prices.amount", "prices.price_rules.id"]),
]

async function salesTaxProviderIds(scope: Scope): Promise<string[]> {
  return (await scope.resolve(Modules.TAX).listTaxProviders({}, { take: null }))
    .filter((p) => p.is_enabled !== false && isSalesTaxProviderId(p.id))
    .map((p) => p.id)
    .sort()
}

/** Does the default connection answer? The error scrubbed of the key, connection and URL. */
async function pingConnection(scope: Scope): Promise<SetupInput["connection"]> {
  const options = getPluginOptions(scope)
  try {
    await getBackgroundClient(options).ping()
    return { ok: true }
  } catch (e) {
    const text = e instanceof SalesTaxError ? e.message : (e as Error)?.message || "unexpected error"
    return { ok: false, error: scrubServiceText(text, options) }
  }
}

interface ProductRow extends ProductTicFields {
  title?: string | null
  sales_channels?: { id: string }[] | null
  variants?:
    | {
        manage_inventory?: boolean | null
        inventory_items?: { inventory_item_id: string; inventory?: { location_levels?: { location_id: string }[] | null } | null }[] | null
      }[]
    | null
}

/** The published products with their channels, whether on the default TIC, and their managed stock's locations. */
async function readPublished(scope: Scope, defaultTic: number): Promise<Pick<SetupInput, "products" | "productsTruncated">> {
  const stock = under("variants.inventory_items", ["inventory_item_id", "inventory.location_levels.location_id"])
  const fields = ["title", "sales_channels.id", "variants.manage_inventory", ...stock]
  const { rows, truncated, tics } = await readProductTics<ProductRow>(scope, defaultTic, fields, { status: "published" })
  const products = rows.map((p) => {
    const items = (p.variants ?? []).filter((v) => v.manage_inventory).flatMap((v) => v.inventory_items ?? [])
    const inventory = items.map((i) => ({
      id: i.inventory_item_id,
      location_ids: (i.inventory?.location_levels ?? []).map((l) => l.location_id),
    }))
    return {
      id: p.id,
      title: p.title || p.id,
      sales_channel_ids: (p.sales_channels ?? []).map((c) => c.id),
      on_default_tic: (tics.get(p.id)?.source ?? "default") === "default",
      inventory: [...new Map(inventory.map((i) => [i.id, i])).values()],
    }
  })
  return { products, productsTruncated: truncated }
}

async function readSetupInput(scope: Scope): Promise<SetupInput> {
  const options = getPluginOptions(scope)
  const all = <T>(entity: string, fields: string[], filters = {}) => graph<T>(scope, { entity, fields, filters, pagination: ALL })
  const [regions, taxRegions, salesChannels, locations, providers, connection, products] = await Promise.all([
    all<SetupRegion>("region", ["id", "name", "currency_code", "countries.iso_2", "payment_providers.id"]),
    all<SetupTaxRegion>("tax_region", ["id", "country_code", "province_code", "parent_id", "provider_id"], { country_code: "us" }),
    all<SetupSalesChannel>("sales_channel", ["id", "name", "is_disabled"]),
    all<SetupLocation>("stock_location", LOCATION_FIELDS),
    salesTaxProviderIds(scope),
    pingConnection(scope),
    readPublished(scope, options.defaultTic),
  ])
  return {
    regions,
    taxRegions,
    salesChannels,
    locations,
    salesTaxProviderIds: providers,
    ...products,
    defaultTic: options.defaultTic,
    origin: options.origin,
    connection,
  }
}

export async function readChecklist(scope: Scope): Promise<SetupItem[]> {
  return setupChecklist(await readSetupInput(scope))
}

export class FixNotOffered extends Error {}
export class FixBusy extends Error {}

const SETUP_FIX_LOCK = "sales-tax:setup-fix"
const FIX_LOCK_WAIT_SECONDS = 120

/** Applies one fix, planned inside the lock so concurrent clicks make one of each record; then the checklist. */
export async function applySetupFix(container: MedusaContainer, fix: SetupFixId): Promise<{ applied: string; items: SetupItem[] }> {
  let held = false
  const applied = await container
    .resolve(Modules.LOCKING)
    .execute(
      SETUP_FIX_LOCK,
      async () => {
        held = true
        const planned = planFix(await readSetupInput(container), fix)
        if (!planned.ok) throw new FixNotOffered(planned.reason)
        return runPlan(container, planned.plan)
      },
      { timeout: FIX_LOCK_WAIT_SECONDS },
    )
    .catch((e: unknown) => {
      if (held) throw e
      throw new FixBusy(`another setup fix has been running for over ${FIX_LOCK_WAIT_SECONDS} s; try again when it is done`)
    })
  return { applied, items: await readChecklist(container) }
}

/** The fulfillment set for a location's US zone: one an interrupted run made, else a new one with a store-unique name. */
async function usShippingSet(container: MedusaContainer, locationId: string, locationName: string): Promise<string> {
  const base = `US shipping from ${locationName}`
  const setsOf = async () => {
    const fields = ["id", "fulfillment_sets.id", "fulfillment_sets.name"]
    const [loc] = await graph<SetupLocation>(container, { entity: "stock_location", fields, filters: { id: locationId } })
    return loc?.fulfillment_sets ?? []
  }
  const own = (await setsOf()).find((f) => f.name === base)
  if (own) return own.id
  const taken = await graph<{ id: string }>(container, { entity: "fulfillment_set", fields: ["id"], filters: { name: base } })
  const name = taken.length ? `${base} (${locationId})` : base
  await createLocationFulfillmentSetWorkflow(container).run({
    input: { location_id: locationId, fulfillment_set_data: { name, type: "shipping" } },
  })
  const set = (await setsOf()).find((f) => f.name === name)
  if (!set) throw new Error(`the fulfillment set "${name}" was not found after its creation`)
  return set.id
}

async function linkProviders(container: MedusaContainer, locationId: string, providerIds: string[]): Promise<void> {
  if (!providerIds.length) return
  const create = providerIds.map((p) => ({
    [Modules.STOCK_LOCATION]: { stock_location_id: locationId },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: p },
  }))
  // `delete` given, as Medusa's own route does: before 2.16 a missing one reaches the dismiss step as an undefined link, which throws
  await batchLinksWorkflow(container).run({ input: { create, delete: [] } })
}

/** Runs a plan through Medusa's workflows; a sentence of what was done. */
async function runPlan(container: MedusaContainer, plan: FixPlan): Promise<string> {
  switch (plan.kind) {
    case "create_us_region": {
      const { result } = await createRegionsWorkflow(container).run({ input: { regions: [plan.region] } })
      return `created the region ${plan.region.name} (${result[0]?.id})`
    }
    case "create_us_tax_region": {
      const { result } = await createTaxRegionsWorkflow(container).run({ input: [plan.taxRegion] })
      return `created the US tax region (${result[0]?.id}) on ${plan.taxRegion.provider_id}`
    }
    case "use_provider_for_us_tax_region":
      await updateTaxRegionsWorkflow(container).run({ input: [{ id: plan.taxRegionId, provider_id: plan.providerId }] })
      return `the US tax region (${plan.taxRegionId}) now uses ${plan.providerId}`
    case "create_us_location": {
      const { result } = await createStockLocationsWorkflow(container).run({ input: { locations: [plan.location] } })
      const id = result[0]!.id
      if (plan.salesChannelIds.length)
        await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id, add: plan.salesChannelIds } })
      await linkProviders(container, id, plan.fulfillmentProviderIds)
      return `created the stock location ${plan.location.name} (${id}) for ${plan.salesChannelIds.length} sales channel(s)`
    }
    case "link_us_location":
      await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: plan.locationId, add: plan.salesChannelIds } })
      return `linked ${plan.salesChannelIds.length} sales channel(s) to ${plan.locationId}`
    case "add_us_shipping": {
      for (const t of plan.targets) {
        await linkProviders(container, t.locationId, t.linkProviderIds)
        let zoneId = t.serviceZoneId
        if (!zoneId) {
          const setId = await usShippingSet(container, t.locationId, t.locationName)
          const { result: zones } = await createServiceZonesWorkflow(container).run({
            input: { data: [{ fulfillment_set_id: setId, name: "United States", geo_zones: [{ type: "country", country_code: "us" }] }] },
          })
          zoneId = zones[0]!.id
        }
        await createShippingOptionsWorkflow(container).run({
          input: plan.options.map(({ amount, rules, ...o }) => ({
            ...o,
            service_zone_id: zoneId!,
            prices: [{ currency_code: "usd", amount }],
            rules: rules.map((r) => ({ ...r, operator: r.operator as "eq" })),
          })),
        })
      }
      return `created ${plan.targets.length * plan.options.length} shipping option(s) for US addresses at ${plan.targets.map((t) => t.locationName).join(", ")}`
    }
  }
}
