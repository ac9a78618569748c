/**
 * The setup checklist (issue 30), the pure part: what a store needs before it quotes US sales tax
 * through this plugin, from what Medusa's Query returned. Each item is done, or names the one
 * action that fixes it: a fix (a button in Settings → Sales Tax, `--fix` of the setup script) when
 * that action is unambiguous, else instructions. `planFix` turns a fix id into the exact records
 * to create or change (src/setup/medusa.ts runs them through Medusa's workflows).
 *
 * Items, in the order a merchant does them:
 *   us_region      a region in USD holding the United States
 *   us_tax_region  the US tax region (country, no province) on this plugin's provider
 *   us_location    per enabled sales channel: a stock location of that channel with a complete US address
 *   us_shipping    per enabled sales channel: a shipping option for US addresses from such a location
 *   connection     the Sales Tax Service answers (ping) with the configured key and connection
 */
import type { Address } from "../service/contract"
import { locationOrigin, type LocationAddressLike } from "../checkout/origins/origins"

export interface SetupRegion {
  id: string
  name?: string | null
  currency_code?: string | null
  countries?: { iso_2?: string | null }[] | null
  payment_providers?: { id: string }[] | null
}

export interface SetupTaxRegion {
  id: string
  country_code?: string | null
  province_code?: string | null
  parent_id?: string | null
  provider_id?: string | null
}

export interface SetupSalesChannel {
  id: string
  name?: string | null
  is_disabled?: boolean | null
}

export interface SetupShippingOption {
  id: string
  name?: string | null
  price_type?: string | null
  provider_id?: string | null
  shipping_profile_id?: string | null
  type?: { label?: string | null; description?: string | null; code?: string | null } | null
  prices?: { currency_code?: string | null; amount?: number | string | null; price_rules?: unknown[] | null }[] | null
  rules?: { attribute?: string | null; operator?: string | null; value?: unknown }[] | null
}

export interface SetupServiceZone {
  id: string
  name?: string | null
  geo_zones?: { type?: string | null; country_code?: string | null }[] | null
  shipping_options?: SetupShippingOption[] | null
}

export interface SetupLocation {
  id: string
  name?: string | null
  address?: LocationAddressLike | null
  sales_channels?: { id: string }[] | null
  fulfillment_providers?: { id: string }[] | null
  fulfillment_sets?: { id: string; name?: string | null; type?: string | null; service_zones?: SetupServiceZone[] | null }[] | null
}

/** What the checks read (Query's rows, the registered providers, the options' origin, a ping). */
export interface SetupInput {
  regions: SetupRegion[]
  taxRegions: SetupTaxRegion[]
  /** the Tax Module's providers of this plugin (`tp_sales-tax_<id>`) */
  salesTaxProviderIds: string[]
  salesChannels: SetupSalesChannel[]
  locations: SetupLocation[]
  /** the `origin` option: the fallback ship-from address */
  origin: Address
  connection: { ok: boolean; error?: string | null }
}

export const SETUP_CHECK_IDS = ["us_region", "us_tax_region", "us_location", "us_shipping", "connection"] as const
export type SetupCheckId = (typeof SETUP_CHECK_IDS)[number]
export const SETUP_FIX_IDS = [
  "create_us_region",
  "create_us_tax_region",
  "use_provider_for_us_tax_region",
  "create_us_location",
  "link_us_location",
  "add_us_shipping",
] as const
export type SetupFixId = (typeof SETUP_FIX_IDS)[number]

export interface SetupItem {
  id: SetupCheckId
  title: string
  done: boolean
  /** what is there, or what is missing */
  detail: string
  /** the unambiguous action (a button) */
  fix?: { id: SetupFixId; label: string }
  /** the action when it needs a person's choice: what to do and where */
  help?: { text: string; href?: string }
}

const US = "us"
const lc = (s: string | null | undefined) => String(s ?? "").toLowerCase()
const nameOf = (x: { id: string; name?: string | null }) => x.name?.trim() || x.id
const list = (names: string[]) => names.join(", ")
export const addressLine = (a: Address) => [a.line1, a.line2, a.city, `${a.state} ${a.zip}`].filter(Boolean).join(", ")

/** Pure: the region holding the US, if any. */
export function usRegion(regions: readonly SetupRegion[]): SetupRegion | undefined {
  return regions.find((r) => (r.countries ?? []).some((c) => lc(c.iso_2) === US))
}

/** Pure: the US country-level tax region (no province, no parent), if any. */
export function usTaxRegion(taxRegions: readonly SetupTaxRegion[]): SetupTaxRegion | undefined {
  return taxRegions.find((t) => lc(t.country_code) === US && !t.province_code && !t.parent_id)
}

/** Pure: the sales channels a storefront can sell through (enabled). */
export function sellingChannels(channels: readonly SetupSalesChannel[]): SetupSalesChannel[] {
  return channels.filter((c) => !c.is_disabled)
}

const servesChannel = (l: SetupLocation, channelId: string) => (l.sales_channels ?? []).some((c) => c.id === channelId)
/** Pure: a location whose address is a complete US address (an origin of its own). */
export const isUsOrigin = (l: SetupLocation) => !!locationOrigin(l.address).origin
const coversUs = (z: SetupServiceZone) => (z.geo_zones ?? []).some((g) => lc(g.country_code) === US)
/** Pure: a shipping option is a return option (rule is_return = true). */
export const isReturnOption = (o: SetupShippingOption) =>
  (o.rules ?? []).some((r) => r.attribute === "is_return" && String(r.value).toLowerCase() === "true")

/** Pure: the shipping options (not returns) of a location for US addresses. */
export function usShippingOptions(l: SetupLocation): SetupShippingOption[] {
  return (l.fulfillment_sets ?? [])
    .flatMap((f) => f.service_zones ?? [])
    .filter(coversUs)
    .flatMap((z) => z.shipping_options ?? [])
    .filter((o) => !isReturnOption(o))
}

/**
 * Pure: does a location serve US orders? It is linked to a sales channel and one of its service
 * zones covers the US (a zone of the US, a state, a city or ZIP in it). A location that does not
 * is never the origin of a US order's line.
 */
export function servesUsOrders(l: SetupLocation): boolean {
  return (l.fulfillment_sets ?? []).some((f) => (f.service_zones ?? []).some(coversUs))
}

/** Pure: the checklist. */
export function setupChecklist(input: SetupInput): SetupItem[] {
  return [regionItem(input), taxRegionItem(input), locationItem(input), shippingItem(input), connectionItem(input)]
}

function regionItem({ regions }: SetupInput): SetupItem {
  const title = "A region for the United States in USD"
  const r = usRegion(regions)
  if (!r)
    return {
      id: "us_region",
      title,
      done: false,
      detail: "No region holds the United States: a US address cannot check out.",
      fix: { id: "create_us_region", label: "Create the United States region (USD)" },
    }
  if (lc(r.currency_code) !== "usd")
    return {
      id: "us_region",
      title,
      done: false,
      detail: `The United States is in the region ${nameOf(r)}, whose currency is ${String(r.currency_code ?? "?").toUpperCase()}: US sales tax is quoted in USD only.`,
      help: {
        text: `Move the United States out of ${nameOf(r)} into a region in USD (Settings → Regions).`,
        href: `/settings/regions/${r.id}`,
      },
    }
  return { id: "us_region", title, done: true, detail: `Region ${nameOf(r)} (USD).` }
}

function taxRegionItem({ taxRegions, salesTaxProviderIds }: SetupInput): SetupItem {
  const title = "The US tax region on this plugin's provider"
  const t = usTaxRegion(taxRegions)
  if (t && t.provider_id && salesTaxProviderIds.includes(t.provider_id))
    return { id: "us_tax_region", title, done: true, detail: `Tax region United States on ${t.provider_id}.` }
  if (salesTaxProviderIds.length !== 1)
    return {
      id: "us_tax_region",
      title,
      done: false,
      detail: salesTaxProviderIds.length
        ? `Several providers of this plugin are registered (${list(salesTaxProviderIds)}): which one the US uses is your choice.`
        : "The Tax Module has no provider of this plugin: it is not in medusa-config's tax providers.",
      help: salesTaxProviderIds.length
        ? {
            text: "Choose the provider in Settings → Tax Regions → United States.",
            href: t ? `/settings/tax-regions/${t.id}` : "/settings/tax-regions",
          }
        : {
            text: 'Add { resolve: "medusa-sales-tax/providers/sales-tax", id: "sales-tax", options } to the providers of @medusajs/medusa/tax in medusa-config, then restart.',
          },
    }
  const provider = salesTaxProviderIds[0]!
  if (!t)
    return {
      id: "us_tax_region",
      title,
      done: false,
      detail: "No tax region for the United States: US carts get no tax.",
      fix: { id: "create_us_tax_region", label: `Create the US tax region on this provider (${provider})` },
    }
  return {
    id: "us_tax_region",
    title,
    done: false,
    detail: `The US tax region uses ${t.provider_id ?? "no provider"}, not this plugin.`,
    fix: { id: "use_provider_for_us_tax_region", label: `Use this provider (${provider}) for the US tax region` },
  }
}

/** Pure: for each selling channel, the locations it has and which of them are US origins. */
function channelLocations(input: SetupInput) {
  return sellingChannels(input.salesChannels).map((c) => {
    const all = input.locations.filter((l) => servesChannel(l, c.id))
    return { channel: c, all, us: all.filter(isUsOrigin) }
  })
}

function locationItem(input: SetupInput): SetupItem {
  const title = "A US stock location with a complete address for each sales channel"
  const rows = channelLocations(input)
  if (!rows.length)
    return {
      id: "us_location",
      title,
      done: false,
      detail: "No enabled sales channel.",
      help: { text: "Create a sales channel (Settings → Sales Channels).", href: "/settings/sales-channels" },
    }
  const lacking = rows.filter((r) => !r.us.length)
  if (!lacking.length)
    return {
      id: "us_location",
      title,
      done: true,
      detail: rows.map((r) => `${nameOf(r.channel)}: ${list(r.us.map(nameOf))}`).join("; "),
    }
  const names = lacking.map((r) => nameOf(r.channel))
  // a US location whose address is incomplete: only its owner can complete it
  const incomplete = lacking.flatMap((r) => r.all).filter((l) => lc(l.address?.country_code) === US)
  if (incomplete.length) {
    const l = incomplete[0]!
    return {
      id: "us_location",
      title,
      done: false,
      detail: `${nameOf(l)} is in the US but its address is incomplete (${locationOrigin(l.address).reason}); its lines are taxed from the origin option.`,
      help: { text: `Complete the address of ${nameOf(l)} (Settings → Locations & Shipping).`, href: `/settings/locations/${l.id}` },
    }
  }
  const usLocations = input.locations.filter(isUsOrigin)
  if (usLocations.length === 1)
    return {
      id: "us_location",
      title,
      done: false,
      detail: `No US stock location for ${list(names)}.`,
      fix: { id: "link_us_location", label: `Make ${nameOf(usLocations[0]!)} a location of ${list(names)}` },
    }
  if (usLocations.length > 1)
    return {
      id: "us_location",
      title,
      done: false,
      detail: `No US stock location for ${list(names)}; the store has several (${list(usLocations.map(nameOf))}).`,
      help: {
        text: `Add one of them to ${list(names)} (Settings → Locations & Shipping → the location → Sales channels).`,
        href: "/settings/locations",
      },
    }
  return {
    id: "us_location",
    title,
    done: false,
    detail: `No US stock location for ${list(names)}: US orders would ship from ${
      rows.flatMap((r) => r.all).length ? list([...new Set(rows.flatMap((r) => r.all).map(nameOf))]) : "nowhere"
    }.`,
    fix: { id: "create_us_location", label: `Create a US stock location at the origin address (${addressLine(input.origin)})` },
  }
}

/** Pure: the store's shipping options with a USD currency price, to be offered to US addresses (one per name). */
export function shippingTemplates(locations: readonly SetupLocation[]): SetupShippingOption[] {
  const seen = new Set<string>()
  const out: SetupShippingOption[] = []
  for (const l of locations)
    for (const f of l.fulfillment_sets ?? [])
      for (const z of f.service_zones ?? [])
        for (const o of z.shipping_options ?? []) {
          const key = `${isReturnOption(o) ? "return" : "ship"}|${o.name ?? o.id}`
          if (seen.has(key) || usdPrice(o) === null || !o.provider_id || !o.shipping_profile_id) continue
          seen.add(key)
          out.push(o)
        }
  // by name, then id: the same list (and button label) whatever order Query answered in
  return out.sort((a, b) => nameOf(a).localeCompare(nameOf(b)) || a.id.localeCompare(b.id))
}

/** Pure: a shipping option's USD currency price (not a region's or a rule's), or null. */
export function usdPrice(o: SetupShippingOption): number | null {
  const p = (o.prices ?? []).find((x) => lc(x.currency_code) === "usd" && !(x.price_rules ?? []).length)
  const n = p?.amount === null || p?.amount === undefined ? NaN : Number(p.amount)
  return Number.isFinite(n) && n >= 0 ? n : null
}

function shippingItem(input: SetupInput): SetupItem {
  const title = "A shipping option for US addresses, from a US location, in each sales channel"
  const rows = channelLocations(input)
  const lacking = rows.filter((r) => !r.us.some((l) => usShippingOptions(l).length))
  if (!rows.length || !lacking.length)
    return {
      id: "us_shipping",
      title,
      done: rows.length > 0,
      detail: rows.length
        ? rows
            .map((r) => `${nameOf(r.channel)}: ${list([...new Set(r.us.flatMap(usShippingOptions).map((o) => nameOf(o)))].sort())}`)
            .join("; ")
        : "No enabled sales channel.",
    }
  const names = lacking.map((r) => nameOf(r.channel))
  const fromAbroad = lacking.flatMap((r) => r.all.filter((l) => !isUsOrigin(l) && usShippingOptions(l).length))
  const detail = fromAbroad.length
    ? `${list(names)}: US addresses are shipped from ${list([...new Set(fromAbroad.map(nameOf))])}, not a US location (taxed from the origin option).`
    : `${list(names)}: no shipping option for US addresses; a US cart cannot check out.`
  if (lacking.some((r) => !r.us.length))
    return {
      id: "us_shipping",
      title,
      done: false,
      detail,
      help: { text: "First give each sales channel a US stock location (the item above)." },
    }
  const templates = shippingTemplates(input.locations)
  if (!templates.some((t) => !isReturnOption(t)))
    return {
      id: "us_shipping",
      title,
      done: false,
      detail,
      help: {
        text: `Create a shipping option with a USD price for the United States at ${list([...new Set(lacking.map((r) => nameOf(r.us[0]!)))])} (Settings → Locations & Shipping).`,
        href: "/settings/locations",
      },
    }
  return {
    id: "us_shipping",
    title,
    done: false,
    detail,
    fix: {
      id: "add_us_shipping",
      label: `Offer ${list(templates.map((t) => nameOf(t)))} to US addresses from ${list([...new Set(lacking.map((r) => nameOf(r.us[0]!)))])}`,
    },
  }
}

function connectionItem({ connection }: SetupInput): SetupItem {
  const title = "The Sales Tax Service answers with the configured key and connection"
  if (connection.ok) return { id: "connection", title, done: true, detail: "Ping answered." }
  return {
    id: "connection",
    title,
    done: false,
    detail: `Ping failed: ${connection.error ?? "no answer"}.`,
    help: {
      text: "Check the options baseUrl, apiKey and connectionId (for the sandbox: `npx sales-tax-sandbox` listens on http://127.0.0.1:8787 with its default key and connection; see the README's install section).",
    },
  }
}

// --- fixes -------------------------------------------------------------------------------------

export type FixPlan =
  | {
      kind: "create_us_region"
      region: { name: string; currency_code: "usd"; countries: ["us"]; automatic_taxes: true; payment_providers: string[] }
    }
  | { kind: "create_us_tax_region"; taxRegion: { country_code: "us"; provider_id: string } }
  | { kind: "use_provider_for_us_tax_region"; taxRegionId: string; providerId: string }
  | {
      kind: "create_us_location"
      location: {
        name: string
        address: { address_1: string; address_2?: string; city: string; province: string; postal_code: string; country_code: "us" }
      }
      salesChannelIds: string[]
      fulfillmentProviderIds: string[]
    }
  | { kind: "link_us_location"; locationId: string; salesChannelIds: string[] }
  | {
      kind: "add_us_shipping"
      targets: {
        locationId: string
        locationName: string
        /** an existing service zone covering the US, or null: a fulfillment set with one is created */
        serviceZoneId: string | null
        /** fulfillment providers of the templates not yet linked to the location */
        linkProviderIds: string[]
      }[]
      options: {
        name: string
        price_type: "flat"
        provider_id: string
        shipping_profile_id: string
        type: { label: string; description: string; code: string }
        amount: number
        rules: { attribute: string; operator: string; value: string }[]
      }[]
    }

/** Pure: the records a fix creates or changes, or why it does not apply (not offered on the list now). */
export function planFix(input: SetupInput, fix: SetupFixId): { ok: true; plan: FixPlan } | { ok: false; reason: string } {
  const offered = setupChecklist(input).find((i) => i.fix?.id === fix)
  if (!offered) return { ok: false, reason: `the fix ${fix} is not offered now: its item is done or needs a choice (see the checklist)` }
  switch (fix) {
    case "create_us_region": {
      const providers = [...new Set(input.regions.flatMap((r) => (r.payment_providers ?? []).map((p) => p.id)))].sort()
      return {
        ok: true,
        plan: {
          kind: fix,
          region: {
            name: "United States",
            currency_code: "usd",
            countries: ["us"],
            automatic_taxes: true,
            payment_providers: providers.length ? providers : ["pp_system_default"],
          },
        },
      }
    }
    case "create_us_tax_region":
      return { ok: true, plan: { kind: fix, taxRegion: { country_code: "us", provider_id: input.salesTaxProviderIds[0]! } } }
    case "use_provider_for_us_tax_region":
      return { ok: true, plan: { kind: fix, taxRegionId: usTaxRegion(input.taxRegions)!.id, providerId: input.salesTaxProviderIds[0]! } }
    case "create_us_location": {
      const o = input.origin
      const lacking = channelLocations(input).filter((r) => !r.us.length)
      const providers = [...new Set(input.locations.flatMap((l) => (l.fulfillment_providers ?? []).map((p) => p.id)))].sort()
      return {
        ok: true,
        plan: {
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
        },
      }
    }
    case "link_us_location":
      return {
        ok: true,
        plan: {
          kind: fix,
          locationId: input.locations.filter(isUsOrigin)[0]!.id,
          salesChannelIds: channelLocations(input)
            .filter((r) => !r.us.length)
            .map((r) => r.channel.id),
        },
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
        ok: true,
        plan: {
          kind: fix,
          targets,
          options: templates.map((t) => ({
            name: nameOf(t),
            price_type: "flat",
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
        },
      }
    }
  }
}

/** Pure: the checklist as the setup script prints it (one line per item, its action indented below). */
export function formatChecklist(items: readonly SetupItem[]): string {
  const out: string[] = []
  for (const i of items) {
    out.push(`${i.done ? "[x]" : "[ ]"} ${i.title}: ${i.detail}`)
    if (i.fix) out.push(`    fix (--fix): ${i.fix.label}`)
    if (i.help) out.push(`    to do: ${i.help.text}${i.help.href ? ` (admin: /app${i.help.href})` : ""}`)
  }
  return out.join("\n")
}

/** Pure: the next fix `--fix` applies: the first offered, unless it was just applied (no progress: stop). */
export function nextFix(items: readonly SetupItem[], applied: readonly SetupFixId[]): SetupFixId | null {
  const next = items.find((i) => i.fix)?.fix?.id ?? null
  return next && applied[applied.length - 1] !== next ? next : null
}
