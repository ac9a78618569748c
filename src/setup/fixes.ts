// Pure: a fix of the setup checklist as the records to create or change.
import { setupChecklist } from "./checklist"
import { channelLocations, coversUs, isUsOrigin, nameOf, shippingTemplates, usShippingOptions, usTaxRegion, usdPrice } from "./selectors"
import type { SetupFixId, SetupInput } from "./types"

export type FixPlan = ReturnType<typeof plan>

/** The plan, or why the fix does not apply (not offered now). */
export function planFix(input: SetupInput, fix: SetupFixId) {
  if (!setupChecklist(input).some((i) => i.fix?.id === fix))
    return { ok: false as const, reason: `the fix ${fix} is not offered now: its item is done or needs a choice (see the checklist)` }
  return { ok: true as const, plan: plan(input, fix) }
}

function plan(input: SetupInput, fix: SetupFixId) {
  switch (fix) {
    case "create_us_region": {
      const providers = [...new Set(input.regions.flatMap((r) => (r.payment_providers ?? []).map((p) => p.id)))].sort()
      return {
        kind: fix,
        region: {
          name: "United States",
          currency_code: "usd",
          countries: ["us"],
          automatic_taxes: true,
          payment_providers: providers.length ? providers : ["pp_system_default"],
        },
      }
    }
    case "create_us_tax_region":
      return { kind: fix, taxRegion: { country_code: "us", provider_id: input.salesTaxProviderIds[0]! } }
    case "use_provider_for_us_tax_region":
      return { kind: fix, taxRegionId: usTaxRegion(input.taxRegions)!.id, providerId: input.salesTaxProviderIds[0]! }
    case "create_us_location": {
      const o = input.origin
      const lacking = channelLocations(input).filter((r) => !r.us.length)
      const providers = [...new Set(input.locations.flatMap((l) => (l.fulfillment_providers ?? []).map((p) => p.id)))].sort()
      return {
        kind: fix,
        location: {
          name: "US Warehouse",
          address: {
            address_1: o.line1,
            ...(o.line2 ? { address_2: o.line2 } : {}),
            city: o.city,
            province: o.state,
            postal_code: o.zip,
            country_code: "us",
          },
        },
        salesChannelIds: lacking.map((r) => r.channel.id),
        fulfillmentProviderIds: providers,
      }
    }
    case "link_us_location":
      return {
        kind: fix,
        locationId: input.locations.filter(isUsOrigin)[0]!.id,
        salesChannelIds: channelLocations(input)
          .filter((r) => !r.us.length)
          .map((r) => r.channel.id),
      }
    case "add_us_shipping": {
      const templates = shippingTemplates(input.locations)
      const lacking = channelLocations(input).filter((r) => !r.us.some((l) => usShippingOptions(l).length))
      const targets = [...new Map(lacking.map((r) => [r.us[0]!.id, r.us[0]!])).values()].map((l) => {
        const zone = (l.fulfillment_sets ?? []).flatMap((f) => f.service_zones ?? []).find(coversUs)
        const linked = new Set((l.fulfillment_providers ?? []).map((p) => p.id))
        return {
          locationId: l.id,
          locationName: nameOf(l),
          serviceZoneId: zone?.id ?? null,
          linkProviderIds: [...new Set(templates.map((t) => t.provider_id!))].filter((p) => !linked.has(p)).sort(),
        }
      })
      return {
        kind: fix,
        targets,
        options: templates.map((t) => ({
          name: nameOf(t),
          price_type: "flat" as const,
          provider_id: t.provider_id!,
          shipping_profile_id: t.shipping_profile_id!,
          type: {
            label: t.type?.label ?? nameOf(t),
            description: t.type?.description ?? "",
            code: t.type?.code ?? nameOf(t).toLowerCase().replace(/\W+/g, "-"),
          },
          amount: usdPrice(t)!,
          rules: (t.rules ?? [])
            .filter((r) => r.attribute && r.operator)
            .map((r) => ({ attribute: r.attribute!, operator: r.operator!, value: String(r.value) })),
        })),
      }
    }
  }
}
