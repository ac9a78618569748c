// Pure: which region, tax region, channels, locations and shipping options the setup checks count.
import type { Address } from "../../packages/contract/src/index"
import { locationOrigin } from "../service/origins/origins"
import type {
  SetupCheckId,
  SetupInput,
  SetupItem,
  SetupLocation,
  SetupRegion,
  SetupServiceZone,
  SetupShippingOption,
  SetupTaxRegion,
} from "./types"

export const US = "us"
export const lc = (s: string | null | undefined) => String(s ?? "").toLowerCase()
export const nameOf = (x: { id: string; name?: string | null }) => x.name?.trim() || x.id
export const list = (names: string[]) => names.join(", ")
export const NO_SELLING_CHANNEL = "No enabled sales channel has a published product."
/** An item of the checklist: `item(id, title)(done, detail, { fix | help })`. */
export const item =
  (id: SetupCheckId, title: string) =>
  (done: boolean, detail: string, action?: Pick<SetupItem, "fix" | "help">): SetupItem => ({ id, title, done, detail, ...action })
export const addressLine = (a: Address) => [a.line1, a.line2, a.city, `${a.state} ${a.zip}`].filter(Boolean).join(", ")

export function usRegion(regions: readonly SetupRegion[]): SetupRegion | undefined {
  return regions.find((r) => (r.countries ?? []).some((c) => lc(c.iso_2) === US))
}

/** The US country-level tax region. */
export function usTaxRegion(taxRegions: readonly SetupTaxRegion[]): SetupTaxRegion | undefined {
  return taxRegions.find((t) => lc(t.country_code) === US && !t.province_code && !t.parent_id)
}

/** A location with a complete US address. */
export const isUsOrigin = (l: SetupLocation) => !!locationOrigin(l.address).origin
export const coversUs = (z: SetupServiceZone) => (z.geo_zones ?? []).some((g) => lc(g.country_code) === US)
export const isReturnOption = (o: SetupShippingOption) =>
  (o.rules ?? []).some((r) => r.attribute === "is_return" && String(r.value).toLowerCase() === "true")

/** A location's service zones, in every fulfillment set. */
const zonesOf = (l: SetupLocation) => (l.fulfillment_sets ?? []).flatMap((f) => f.service_zones ?? [])

/** A location's shipping options (not returns) for US addresses. */
export function usShippingOptions(l: SetupLocation): SetupShippingOption[] {
  return zonesOf(l)
    .filter(coversUs)
    .flatMap((z) => z.shipping_options ?? [])
    .filter((o) => !isReturnOption(o))
}

/** Each enabled channel with a published product (any, when not all were read; an empty one needs nothing), its locations and US ones. */
export function channelLocations(input: SetupInput) {
  const stocked = new Set(input.products.flatMap((p) => p.sales_channel_ids))
  return input.salesChannels
    .filter((c) => !c.is_disabled && (input.productsTruncated || stocked.has(c.id)))
    .map((c) => {
      const all = input.locations.filter((l) => (l.sales_channels ?? []).some((x) => x.id === c.id))
      return { channel: c, all, us: all.filter(isUsOrigin) }
    })
}

/** The store's shipping options with a USD price, one per name, to offer to US addresses. */
export function shippingTemplates(locations: readonly SetupLocation[]): SetupShippingOption[] {
  const usable = locations
    .flatMap(zonesOf)
    .flatMap((z) => z.shipping_options ?? [])
    .filter((o) => usdPrice(o) !== null && o.provider_id && o.shipping_profile_id)
  const seen = new Set<string>()
  const first = (k: string) => !seen.has(k) && !!seen.add(k)
  // the first of each name; the same list (and button label) whatever order Query answered in
  return usable
    .filter((o) => first(`${isReturnOption(o) ? "return" : "ship"}|${o.name ?? o.id}`))
    .sort((a, b) => nameOf(a).localeCompare(nameOf(b)) || a.id.localeCompare(b.id))
}

/** A shipping option's USD currency price (not a region's or a rule's), or null. */
export function usdPrice(o: SetupShippingOption): number | null {
  const p = (o.prices ?? []).find((x) => lc(x.currency_code) === "usd" && !(x.price_rules ?? []).length)
  const n = p?.amount === null || p?.amount === undefined ? NaN : Number(p.amount)
  return Number.isFinite(n) && n >= 0 ? n : null
}
