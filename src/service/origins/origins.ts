// Origin per stock location: a line's origin is its location's address when complete, in the US and not
// refused by the service, else the `origin` option. One service cart (and order) per origin group, all in
// ONE `POST carts`; the first group by key keeps the Medusa id, the others get "~" + a short hash.
import { z } from "zod"
import type { Address } from "../../../packages/contract/src/index"
import { normalizeUsState, normalizeUsZip, serviceLines, zipText } from "../address/us-address"
import { runtimeSlot, type SalesTaxRuntime } from "../../runtime"
import { sha256Hex } from "../cart/build-service-cart"

/** The fields of a stock location's address an origin is made of. */
export const ADDRESS_KEYS = ["address_1", "address_2", "city", "country_code", "province", "postal_code"] as const

/** A stock location's address as Medusa keeps it. */
export type LocationAddressLike = Partial<Record<(typeof ADDRESS_KEYS)[number], string | null>>

/** A stock location's id, name and address as Query reads them (the locations route and the setup checks read these and more). */
export const LOCATION_ADDRESS_FIELDS: readonly string[] = ["id", "name", ...ADDRESS_KEYS.map((k) => `address.${k}`)]

/** The service's id limit (cartId in a path, orderId). */
export const SERVICE_ID_MAX = 50

/** Pure: a stock location's address as an origin, or why it cannot be one (the fallback is used then). */
export function locationOrigin(
  a: LocationAddressLike | null | undefined,
): { origin: Address; reason?: undefined } | { origin: null; reason: string } {
  if (!a) return { origin: null, reason: "the location has no address" }
  const country = (a.country_code ?? "").trim().toLowerCase()
  if (country !== "us") return { origin: null, reason: country ? `not in the US (country ${country.toUpperCase()})` : "no country" }
  if (!a.address_1?.trim()) return { origin: null, reason: "no street address (address_1)" }
  if (!a.city?.trim()) return { origin: null, reason: "no city" }
  const state = normalizeUsState(a.province)
  if (!state)
    return {
      origin: null,
      reason: a.province ? `province "${a.province}" is not a US state (e.g. WA or Washington)` : "no province (state)",
    }
  const zip = normalizeUsZip(a.postal_code)
  if (!zip) return { origin: null, reason: a.postal_code ? `postal code "${a.postal_code}" is not a US ZIP` : "no postal code (ZIP)" }
  // no countryCode: the service's default (US), and the same shape as the `origin` option
  return { origin: serviceLines(a, state, zipText(zip)) }
}

/** A stock location's fulfillment sets as far as the US matters (their service zones' countries). */
export type FulfillmentSetsLike =
  { service_zones?: { geo_zones?: { country_code?: string | null }[] | null }[] | null }[] | null | undefined

/** Pure: does a service zone of the location cover the US (the country, or a state, city or ZIP in it)? */
export function servesUsAddresses(sets: FulfillmentSetsLike): boolean {
  return (sets ?? []).some((f) =>
    (f.service_zones ?? []).some((z) => (z.geo_zones ?? []).some((g) => (g.country_code ?? "").trim().toLowerCase() === "us")),
  )
}

/**
 * Pure: how the settings page lists a location: "own" (its address is the origin), "not_for_us" (outside
 * the US and serving no US zone: nothing to fix), "fallback" (may ship US orders from the `origin` option).
 */
export function locationClass(a: LocationAddressLike | null | undefined, sets: FulfillmentSetsLike): "own" | "fallback" | "not_for_us" {
  if (locationOrigin(a).origin) return "own"
  const country = (a?.country_code ?? "").trim().toLowerCase()
  return country && country !== "us" && !servesUsAddresses(sets) ? "not_for_us" : "fallback"
}

const SharedRefusal = z.object({
  locationId: z.string(),
  name: z.string().nullable(),
  address: z.object({ line1: z.string(), city: z.string(), state: z.string(), zip: z.string() }),
  reason: z.string(),
  at: z.string(),
})

/** A location whose address the service refused as an origin: its lines use the fallback until the address changes. */
export type RefusedLocation = z.infer<typeof SharedRefusal> & { address: Address }
/** The refusals this process saw: the provider records them, the settings route lists them. */
export const refusedLocations = runtimeSlot("refusedLocations", () => new Map<string, RefusedLocation>())

/** Refusals shared between instances' settings pages through one Caching Module entry (not the quote path). */
export interface RefusalCache {
  get(args: { key: string }): Promise<unknown>
  set(args: { key: string; data: unknown; ttl?: number }): Promise<unknown>
}
export const REFUSED_LOCATIONS_KEY = "medusa-sales-tax:refused-locations"
/** kept 30 days (an address refused that long ago is worth trying again anyway) */
const REFUSED_LOCATIONS_TTL_S = 30 * 24 * 3600

/** Pure: the refusals in a cache entry; anything malformed is left out. */
export function parseRefusals(v: unknown): RefusedLocation[] {
  return Array.isArray(v) ? v.filter((r): r is RefusedLocation => SharedRefusal.safeParse(r).success) : []
}

/** Adds a refusal to the shared entry (best effort: a failure only hides it from the other instances' settings page). */
export async function shareRefusal(cache: RefusalCache | undefined, r: RefusedLocation): Promise<void> {
  if (!cache || typeof cache.get !== "function" || typeof cache.set !== "function") return
  try {
    const others = parseRefusals(await cache.get({ key: REFUSED_LOCATIONS_KEY })).filter((x) => x.locationId !== r.locationId)
    await cache.set({ key: REFUSED_LOCATIONS_KEY, data: [...others, r], ttl: REFUSED_LOCATIONS_TTL_S })
  } catch {
    /* the shared view only */
  }
}

/** The refusals this process knows and, with the shared entry, those of every instance (this process's win). */
export async function knownRefusals(cache: RefusalCache | undefined, rt?: SalesTaxRuntime): Promise<Map<string, RefusedLocation>> {
  const out = new Map<string, RefusedLocation>()
  if (cache && typeof cache.get === "function") {
    try {
      for (const r of parseRefusals(await cache.get({ key: REFUSED_LOCATIONS_KEY }))) out.set(r.locationId, r)
    } catch {
      /* this process's only */
    }
  }
  for (const [id, r] of refusedLocations(rt)) out.set(id, r)
  return out
}

/** Pure: two addresses are the same origin (field by field, whatever the key order). */
export function sameAddress(a: Address, b: Address): boolean {
  return a.line1 === b.line1 && (a.line2 ?? null) === (b.line2 ?? null) && a.city === b.city && a.state === b.state && a.zip === b.zip
}

/** The refused locations whose address is still the refused one (a changed address is tried again). */
export function stillRefused(locations: KnownLocations | null | undefined, rt?: SalesTaxRuntime): Set<string> {
  const out = new Set<string>()
  const refused = refusedLocations(rt)
  for (const [id, r] of refused) {
    const now = locationOrigin(locations?.[id]).origin
    if (!now || sameAddress(now, r.address)) out.add(id)
    else refused.delete(id)
  }
  return out
}

/** Pure: the service id of a group (cart or order): the base for the primary group, else base~<8 hex of the key>. */
export function originServiceId(baseId: string, key: string, primary: boolean): string {
  if (primary) return baseId.slice(0, SERVICE_ID_MAX)
  const suffix = `~${sha256Hex(key).slice(0, 8)}`
  const base = baseId.length + suffix.length <= SERVICE_ID_MAX ? baseId : sha256Hex(baseId).slice(0, 32)
  return `${base}${suffix}`
}

/** A location as the hook describes it (snapshot `locations`). */
export type KnownLocations = Record<string, { name?: string | null } & LocationAddressLike>

/** Pure: lines grouped by origin key (a usable, unrefused location id, else "" for `fallback`), sorted, the first keeping `baseId`. */
export function groupByOrigin<L>(
  lines: readonly L[],
  locationOf: (line: L) => string | null | undefined,
  locations: KnownLocations | null | undefined,
  fallback: Address,
  baseId: string,
  refused: ReadonlySet<string> = new Set(),
) {
  const byKey = new Map<string, { origin: Address; lines: L[] }>()
  const originOf = new Map<string, Address | null>()
  for (const line of lines) {
    const loc = locationOf(line) ?? null
    let key = ""
    let origin = fallback
    if (loc && !refused.has(loc)) {
      let o = originOf.get(loc)
      if (o === undefined) originOf.set(loc, (o = locationOrigin(locations?.[loc]).origin))
      if (o) {
        key = loc
        origin = o
      }
    }
    const g = byKey.get(key)
    if (g) g.lines.push(line)
    else byKey.set(key, { origin, lines: [line] })
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, g], i) => ({ key, origin: g.origin, primary: i === 0, serviceId: originServiceId(baseId, key, i === 0), lines: g.lines }))
}
