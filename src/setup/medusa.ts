/**
 * The setup checklist against a running Medusa (issue 30): reads what the checks need through
 * Query (src/setup/checks.ts is the pure part) and applies a fix through Medusa's public
 * workflows. Shared by the admin routes (GET /admin/sales-tax/setup, POST …/setup/fix) and the
 * script (src/scripts/sales-tax-setup.ts).
 */
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
import { graph } from "../query"
import { LOCATION_ADDRESS_FIELDS } from "../checkout/origins/origins"
import { isSalesTaxProviderId } from "../medusa/boot-check"
import { getPluginOptions } from "../options"
import { scrubServiceText } from "../api/admin/sales-tax/helpers"
import {
  planFix,
  setupChecklist,
  type FixPlan,
  type SetupFixId,
  type SetupInput,
  type SetupItem,
  type SetupLocation,
  type SetupRegion,
  type SetupSalesChannel,
  type SetupTaxRegion,
} from "./checks"

type Scope = Pick<MedusaContainer, "resolve">

const ALL = { take: 1000, skip: 0 }

export const LOCATION_FIELDS = [
  ...LOCATION_ADDRESS_FIELDS,
  "sales_channels.id",
  "fulfillment_providers.id",
  "fulfillment_sets.id",
  "fulfillment_sets.name",
  "fulfillment_sets.type",
  "fulfillment_sets.service_zones.id",
  "fulfillment_sets.service_zones.name",
  "fulfillment_sets.service_zones.geo_zones.type",
  "fulfillment_sets.service_zones.geo_zones.country_code",
  "fulfillment_sets.service_zones.shipping_options.id",
  "fulfillment_sets.service_zones.shipping_options.name",
  "fulfillment_sets.service_zones.shipping_options.price_type",
  "fulfillment_sets.service_zones.shipping_options.provider_id",
  "fulfillment_sets.service_zones.shipping_options.shipping_profile_id",
  "fulfillment_sets.service_zones.shipping_options.type.label",
  "fulfillment_sets.service_zones.shipping_options.type.description",
  "fulfillment_sets.service_zones.shipping_options.type.code",
  "fulfillment_sets.service_zones.shipping_options.rules.attribute",
  "fulfillment_sets.service_zones.shipping_options.rules.operator",
  "fulfillment_sets.service_zones.shipping_options.rules.value",
  "fulfillment_sets.service_zones.shipping_options.prices.currency_code",
  "fulfillment_sets.service_zones.shipping_options.prices.amount",
  "fulfillment_sets.service_zones.shipping_options.prices.price_rules.id",
] as const

export async function readLocations(scope: Scope): Promise<SetupLocation[]> {
  return graph<SetupLocation>(scope, { entity: "stock_location", fields: LOCATION_FIELDS, pagination: ALL })
}

/** The Tax Module's enabled providers of this plugin. */
async function salesTaxProviderIds(scope: Scope): Promise<string[]> {
  const tax = scope.resolve<{ listTaxProviders(f?: unknown, c?: unknown): Promise<{ id: string; is_enabled?: boolean }[]> }>(Modules.TAX)
  return (await tax.listTaxProviders({}, { take: null }))
    .filter((p) => p.is_enabled !== false && isSalesTaxProviderId(p.id))
    .map((p) => p.id)
    .sort()
}

/** Does the default connection answer? The error scrubbed of the key, connection and service URL. */
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

/** What the checks read, from Query, the Tax Module, the options and a ping. */
export async function readSetupInput(scope: Scope): Promise<SetupInput> {
  const [regions, taxRegions, salesChannels, locations, providers, connection] = await Promise.all([
    graph<SetupRegion>(scope, {
      entity: "region",
      fields: ["id", "name", "currency_code", "countries.iso_2", "payment_providers.id"],
      pagination: ALL,
    }),
    graph<SetupTaxRegion>(scope, {
      entity: "tax_region",
      fields: ["id", "country_code", "province_code", "parent_id", "provider_id"],
      filters: { country_code: "us" },
      pagination: ALL,
    }),
    graph<SetupSalesChannel>(scope, { entity: "sales_channel", fields: ["id", "name", "is_disabled"], pagination: ALL }),
    readLocations(scope),
    salesTaxProviderIds(scope),
    pingConnection(scope),
  ])
  return {
    regions,
    taxRegions,
    salesChannels,
    locations,
    salesTaxProviderIds: providers,
    origin: getPluginOptions(scope).origin,
    connection,
  }
}

export async function readChecklist(scope: Scope): Promise<SetupItem[]> {
  return setupChecklist(await readSetupInput(scope))
}

export class FixNotOffered extends Error {}

/** Applies one fix (re-planned from what the store holds now) and returns the checklist after it. */
export async function applySetupFix(container: MedusaContainer, fix: SetupFixId): Promise<{ applied: string; items: SetupItem[] }> {
  const planned = planFix(await readSetupInput(container), fix)
  if (!planned.ok) throw new FixNotOffered(planned.reason)
  const applied = await runPlan(container, planned.plan)
  return { applied, items: await readChecklist(container) }
}

/** Runs a plan through Medusa's workflows; returns a sentence of what was done. */
export async function runPlan(container: MedusaContainer, plan: FixPlan): Promise<string> {
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
      const {
        result: [location],
      } = await createStockLocationsWorkflow(container).run({ input: { locations: [plan.location] } })
      const id = location!.id
      if (plan.salesChannelIds.length)
        await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id, add: plan.salesChannelIds } })
      if (plan.fulfillmentProviderIds.length)
        await batchLinksWorkflow(container).run({
          input: {
            create: plan.fulfillmentProviderIds.map((p) => ({
              [Modules.STOCK_LOCATION]: { stock_location_id: id },
              [Modules.FULFILLMENT]: { fulfillment_provider_id: p },
            })),
          },
        })
      return `created the stock location ${plan.location.name} (${id}) for ${plan.salesChannelIds.length} sales channel(s)`
    }
    case "link_us_location":
      await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: plan.locationId, add: plan.salesChannelIds } })
      return `linked ${plan.salesChannelIds.length} sales channel(s) to ${plan.locationId}`
    case "add_us_shipping": {
      let created = 0
      for (const t of plan.targets) {
        if (t.linkProviderIds.length)
          await batchLinksWorkflow(container).run({
            input: {
              create: t.linkProviderIds.map((p) => ({
                [Modules.STOCK_LOCATION]: { stock_location_id: t.locationId },
                [Modules.FULFILLMENT]: { fulfillment_provider_id: p },
              })),
            },
          })
        let zoneId = t.serviceZoneId
        if (!zoneId) {
          const setName = `US shipping from ${t.locationName}`
          await createLocationFulfillmentSetWorkflow(container).run({
            input: { location_id: t.locationId, fulfillment_set_data: { name: setName, type: "shipping" } },
          })
          const [loc] = await graph<SetupLocation>(container, {
            entity: "stock_location",
            fields: ["id", "fulfillment_sets.id", "fulfillment_sets.name"],
            filters: { id: t.locationId },
          })
          const set = (loc?.fulfillment_sets ?? []).find((f) => f.name === setName)
          if (!set) throw new Error(`the fulfillment set "${setName}" was not found after its creation`)
          const { result: zones } = await createServiceZonesWorkflow(container).run({
            input: { data: [{ fulfillment_set_id: set.id, name: "United States", geo_zones: [{ type: "country", country_code: "us" }] }] },
          })
          zoneId = zones[0]!.id
        }
        await createShippingOptionsWorkflow(container).run({
          input: plan.options.map((o) => ({
            name: o.name,
            price_type: o.price_type,
            provider_id: o.provider_id,
            service_zone_id: zoneId!,
            shipping_profile_id: o.shipping_profile_id,
            type: o.type,
            prices: [{ currency_code: "usd", amount: o.amount }],
            rules: o.rules.map((r) => ({ attribute: r.attribute, operator: r.operator as "eq", value: r.value })),
          })),
        })
        created += plan.options.length
      }
      return `created ${created} shipping option(s) for US addresses at ${plan.targets.map((t) => t.locationName).join(", ")}`
    }
  }
}
