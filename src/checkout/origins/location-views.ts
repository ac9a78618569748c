import { graph, type QueryScope } from "../../query"
import type { PluginOptions } from "../../options"
import { runtimeOf, tryResolve } from "../../runtime"
import {
  knownRefusals,
  LOCATION_ADDRESS_FIELDS,
  locationClass,
  locationOrigin,
  sameAddress,
  type FulfillmentSetsLike,
  type RefusalCache,
} from "../../service/origins/origins"
import type { LocationRow } from "./origin-locations"

/** A stock location as GET /admin/sales-tax/locations lists it: the origin its lines use and why. */
export type LocationView = AdminLocationsResponse["locations"][number]
export type AdminLocationsResponse = Awaited<ReturnType<typeof locationViews>>

interface LocationViewRow extends LocationRow {
  sales_channels?: { id: string; name?: string | null }[] | null
  fulfillment_sets?: FulfillmentSetsLike
}

/**
 * Each stock location with the origin its lines are quoted and filed from: its own complete, accepted US address, else
 * the `origin` option (`fallback`) and why; `notForUs` when outside the US with no service zone covering it.
 */
export async function locationViews(scope: QueryScope, options: Pick<PluginOptions, "origin">) {
  const data = await graph<LocationViewRow>(scope, {
    entity: "stock_location",
    fields: [
      ...LOCATION_ADDRESS_FIELDS,
      "sales_channels.id",
      "sales_channels.name",
      "fulfillment_sets.service_zones.geo_zones.country_code",
    ],
    pagination: { take: 500, skip: 0 },
  })
  const refusals = await knownRefusals(tryResolve(scope, "caching") as RefusalCache | undefined, runtimeOf(scope))
  const locations = data.map((l) => {
    const own = locationOrigin(l.address)
    const refused = refusals.get(l.id)
    const usable = own.origin && !(refused && sameAddress(refused.address, own.origin))
    const notForUs = locationClass(l.address, l.fulfillment_sets) === "not_for_us"
    return {
      id: l.id,
      name: l.name ?? null,
      salesChannels: (l.sales_channels ?? []).map((c) => ({ id: c.id, name: c.name ?? null })),
      origin: usable ? own.origin! : options.origin,
      fallback: !usable && !notForUs,
      reason: usable
        ? null
        : refused
          ? `the service refused the address: ${refused.reason}`
          : notForUs
            ? `${own.reason}; no service zone of it covers the US`
            : own.reason!,
      refusedAt: usable ? null : (refused?.at ?? null),
      notForUs,
    }
  })
  return { locations, fallbackOrigin: options.origin }
}
