/**
 * Which stock location each line ships from: its shipping method's option → fulfillment set → stock location (an item
 * goes with its shipping profile's method); with no method yet, the sales channel's first location. And each stock
 * location with the origin its lines use and why, as GET /admin/sales-tax/locations lists it (locationViews).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { LRUCache } from "lru-cache"
import {
  knownRefusals,
  ADDRESS_KEYS,
  LOCATION_ADDRESS_FIELDS,
  locationClass,
  locationOrigin,
  sameAddress,
  type FulfillmentSetsLike,
  type KnownLocations,
  type LocationAddressLike,
  type RefusalCache,
} from "../../service/origins/origins"
import { graph, type QueryScope } from "../../query"
import type { PluginOptions } from "../../options"
import { runtimeOf, runtimeSlot, tryResolve } from "../../runtime"

/** The store configuration read, by key (`option:`, `channel:`, `locations:`), kept briefly. */
const memoOf = runtimeSlot("originLocations", () => new LRUCache<string, { value: unknown }>({ max: 5000, ttl: 60_000 }))
async function remembered<T>(key: string, load: () => Promise<T>): Promise<T> {
  const memo = memoOf()
  const hit = memo.get(key)
  // each key prefix is written by one loader only, with its own T
  if (hit) return hit.value as T
  const value = await load()
  memo.set(key, { value })
  return value
}

/** Test hook: forget the remembered configuration (after changing locations in a test). */
export function clearOriginLocationMemo(): void {
  memoOf().clear()
}

/** A stock location read with LOCATION_ADDRESS_FIELDS. */
export interface LocationRow {
  id: string
  name?: string | null
  address?: LocationAddressLike | null
}

function addressOf(l: LocationRow): KnownLocations[string] {
  return { name: l.name ?? null, ...Object.fromEntries(ADDRESS_KEYS.map((k) => [k, l.address?.[k] ?? null])) }
}

/** A shipping option's stock location and shipping profile. */
async function optionInfo(scope: MedusaContainer, optionId: string): Promise<{ locationId: string | null; profileId: string | null }> {
  return remembered(`option:${optionId}`, async () => {
    const [o] = await graph<{
      id: string
      shipping_profile_id?: string | null
      service_zone?: { fulfillment_set?: { location?: { id?: string | null } | null } | null } | null
    }>(scope, {
      entity: "shipping_option",
      fields: ["id", "shipping_profile_id", "service_zone.fulfillment_set.location.id"],
      filters: { id: optionId },
    })
    return { locationId: o?.service_zone?.fulfillment_set?.location?.id ?? null, profileId: o?.shipping_profile_id ?? null }
  })
}

/** The sales channel's first stock location (by id, so the same one every time). */
async function channelLocation(scope: MedusaContainer, salesChannelId: string): Promise<string | null> {
  return remembered(`channel:${salesChannelId}`, async () => {
    const [c] = await graph<{ id: string; stock_locations?: { id: string }[] | null }>(scope, {
      entity: "sales_channel",
      fields: ["id", "stock_locations.id"],
      filters: { id: salesChannelId },
    })
    const ids = (c?.stock_locations ?? []).map((l) => l.id).sort()
    return ids[0] ?? null
  })
}

export interface LineLocationInput {
  sales_channel_id?: string | null
  items?: readonly { id?: string | null; product_id?: string | null }[] | null
  shipping_methods?: readonly { id?: string | null; shipping_option_id?: string | null }[] | null
}

/** Each line's stock location (items, shipping methods, by line id) and the addresses of those locations. */
export type LineLocations = Awaited<ReturnType<typeof resolveLineLocations>>
export async function resolveLineLocations(container: MedusaContainer, e: LineLocationInput) {
  const items = new Map<string, string>()
  const shipping = new Map<string, string>()
  const methods = (e.shipping_methods ?? []).flatMap((s) =>
    s?.id && s.shipping_option_id ? [{ id: s.id, optionId: s.shipping_option_id }] : [],
  )
  const infos = await Promise.all(methods.map((s) => optionInfo(container, s.optionId)))
  methods.forEach((s, i) => {
    if (infos[i]!.locationId) shipping.set(s.id, infos[i]!.locationId!)
  })
  const lineItems = (e.items ?? []).flatMap((i) => (i?.id ? [{ id: i.id, productId: i.product_id ?? null }] : []))
  const home = e.sales_channel_id ? await channelLocation(container, e.sales_channel_id) : null
  // several methods: an item ships with the method of its product's shipping profile (else, and with one, the first's)
  const productIds = methods.length > 1 ? [...new Set(lineItems.flatMap((i) => (i.productId ? [i.productId] : [])))] : []
  const data = productIds.length
    ? await graph<{ id: string; shipping_profile?: { id?: string | null } | null }>(container, {
        entity: "product",
        fields: ["id", "shipping_profile.id"],
        filters: { id: productIds },
      })
    : []
  const profileOf = new Map(data.map((p) => [p.id, p.shipping_profile?.id ?? null]))
  for (const it of lineItems) {
    const profile = it.productId ? profileOf.get(it.productId) : undefined
    const k = infos.findIndex((x) => x.profileId && x.profileId === profile)
    const loc = infos[Math.max(k, 0)]?.locationId ?? home
    if (loc) items.set(it.id, loc)
  }
  const ids = [...new Set([...items.values(), ...shipping.values()])].sort()
  const locations: KnownLocations = {}
  if (ids.length) {
    const got = await remembered(`locations:${ids.join(",")}`, async () => {
      const data = await graph<LocationRow>(container, {
        entity: "stock_location",
        fields: [...LOCATION_ADDRESS_FIELDS],
        filters: { id: ids },
      })
      return Object.fromEntries(data.map((l) => [l.id, addressOf(l)])) as KnownLocations
    })
    Object.assign(locations, got)
  }
  return { items, shipping, locations }
}

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
