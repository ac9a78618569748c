// Pure: the setup checklist, what a store needs to quote US sales tax, in the order a merchant does
// it. Each item is done or names its action: a fix when unambiguous, else instructions. The catalogue
// items: stock at the US locations, and a TIC on every product sold.
import { locationOrigin } from "../service/origins/origins"
import {
  NO_SELLING_CHANNEL,
  US,
  addressLine,
  channelLocations,
  isReturnOption,
  isUsOrigin,
  item,
  lc,
  list,
  nameOf,
  shippingTemplates,
  usRegion,
  usShippingOptions,
  usTaxRegion,
} from "./selectors"
import type { SetupFixId, SetupInput, SetupItem } from "./types"

export function setupChecklist(input: SetupInput): SetupItem[] {
  return [regionItem, taxRegionItem, locationItem, shippingItem, stockItem, ticItem, connectionItem].map((check) => check(input))
}

function regionItem({ regions }: SetupInput): SetupItem {
  const say = item("us_region", "A region for the United States in USD")
  const r = usRegion(regions)
  if (!r)
    return say(false, "No region holds the United States: a US address cannot check out.", {
      fix: { id: "create_us_region", label: "Create the United States region (USD)" },
    })
  if (lc(r.currency_code) !== "usd") {
    const detail = `The United States is in the region ${nameOf(r)}, whose currency is ${String(r.currency_code ?? "?").toUpperCase()}: US sales tax is quoted in USD only.`
    const text = `Move the United States out of ${nameOf(r)} into a region in USD (Settings → Regions).`
    return say(false, detail, { help: { text, href: `/settings/regions/${r.id}` } })
  }
  return say(true, `Region ${nameOf(r)} (USD).`)
}

function taxRegionItem({ taxRegions, salesTaxProviderIds: ids }: SetupInput): SetupItem {
  const say = item("us_tax_region", "The US tax region on this plugin's provider")
  const t = usTaxRegion(taxRegions)
  if (t?.provider_id && ids.includes(t.provider_id)) return say(true, `Tax region United States on ${t.provider_id}.`)
  if (ids.length > 1) {
    const detail = `Several providers of this plugin are registered (${list(ids)}): which one the US uses is your choice.`
    const href = t ? `/settings/tax-regions/${t.id}` : "/settings/tax-regions"
    return say(false, detail, { help: { text: "Choose the provider in Settings → Tax Regions → United States.", href } })
  }
  if (!ids.length) {
    const text =
      'Add { resolve: "medusa-sales-tax/providers/sales-tax", id: "sales-tax", options } to the providers of @medusajs/medusa/tax in medusa-config, then restart.'
    return say(false, "The Tax Module has no provider of this plugin: it is not in medusa-config's tax providers.", { help: { text } })
  }
  if (!t)
    return say(false, "No tax region for the United States: US carts get no tax.", {
      fix: { id: "create_us_tax_region", label: `Create the US tax region on this provider (${ids[0]})` },
    })
  return say(false, `The US tax region uses ${t.provider_id ?? "no provider"}, not this plugin.`, {
    fix: { id: "use_provider_for_us_tax_region", label: `Use this provider (${ids[0]}) for the US tax region` },
  })
}

function locationItem(input: SetupInput): SetupItem {
  const say = item("us_location", "A US stock location with a complete address for each sales channel")
  const rows = channelLocations(input)
  if (!rows.length)
    return say(false, NO_SELLING_CHANNEL, {
      help: { text: "Publish your products to a sales channel (Products → the product → Sales channels).", href: "/products" },
    })
  const lacking = rows.filter((r) => !r.us.length)
  if (!lacking.length) return say(true, rows.map((r) => `${nameOf(r.channel)}: ${list(r.us.map(nameOf))}`).join("; "))
  const names = list(lacking.map((r) => nameOf(r.channel)))
  const l = lacking.flatMap((r) => r.all).find((x) => lc(x.address?.country_code) === US)
  if (l) {
    const detail = `${nameOf(l)} is in the US but its address is incomplete (${locationOrigin(l.address).reason}); its lines are taxed from the origin option.`
    const text = `Complete the address of ${nameOf(l)} (Settings → Locations & Shipping).`
    return say(false, detail, { help: { text, href: `/settings/locations/${l.id}` } })
  }
  const usLocations = input.locations.filter(isUsOrigin)
  if (usLocations.length === 1)
    return say(false, `No US stock location for ${names}.`, {
      fix: { id: "link_us_location", label: `Make ${nameOf(usLocations[0]!)} a location of ${names}` },
    })
  if (usLocations.length > 1) {
    const detail = `No US stock location for ${names}; the store has several (${list(usLocations.map(nameOf))}).`
    const text = `Add one of them to ${names} (Settings → Locations & Shipping → the location → Sales channels).`
    return say(false, detail, { help: { text, href: "/settings/locations" } })
  }
  const from = [...new Set(rows.flatMap((r) => r.all).map(nameOf))]
  return say(false, `No US stock location for ${names}: US orders would ship from ${from.length ? list(from) : "nowhere"}.`, {
    fix: { id: "create_us_location", label: `Create a US stock location at the origin address (${addressLine(input.origin)})` },
  })
}

function shippingItem(input: SetupInput): SetupItem {
  const say = item("us_shipping", "A shipping option for US addresses, from a US location, in each sales channel")
  const rows = channelLocations(input)
  if (!rows.length) return say(false, NO_SELLING_CHANNEL)
  const lacking = rows.filter((r) => !r.us.some((l) => usShippingOptions(l).length))
  if (!lacking.length) {
    const offered = rows.map((r) => `${nameOf(r.channel)}: ${list([...new Set(r.us.flatMap(usShippingOptions).map(nameOf))].sort())}`)
    return say(true, offered.join("; "))
  }
  const names = list(lacking.map((r) => nameOf(r.channel)))
  const fromAbroad = lacking.flatMap((r) => r.all.filter((l) => !isUsOrigin(l) && usShippingOptions(l).length))
  const detail = fromAbroad.length
    ? `${names}: US addresses are shipped from ${list([...new Set(fromAbroad.map(nameOf))])}, not a US location (taxed from the origin option).`
    : `${names}: no shipping option for US addresses; a US cart cannot check out.`
  if (lacking.some((r) => !r.us.length))
    return say(false, detail, { help: { text: "First give each sales channel a US stock location (the item above)." } })
  const at = list([...new Set(lacking.map((r) => nameOf(r.us[0]!)))])
  const templates = shippingTemplates(input.locations)
  if (!templates.some((t) => !isReturnOption(t))) {
    const text = `Create a shipping option with a USD price for the United States at ${at} (Settings → Locations & Shipping).`
    return say(false, detail, { help: { text, href: "/settings/locations" } })
  }
  return say(false, detail, { fix: { id: "add_us_shipping", label: `Offer ${list(templates.map(nameOf))} to US addresses from ${at}` } })
}

const EXAMPLES = 3
const some = (titles: string[]) => list(titles.slice(0, EXAMPLES)) + (titles.length > EXAMPLES ? ", …" : "")
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`

/** Every managed item a selling channel sells has a level at one of its US locations; quantities are the merchant's: no button. */
export function stockItem(input: SetupInput): SetupItem {
  const say = item("us_stock", "The US location has stock of what each sales channel sells")
  const rows = channelLocations(input)
  if (!rows.length) return say(false, NO_SELLING_CHANNEL)
  if (rows.some((r) => !r.us.length))
    return say(false, `No US stock location for ${list(rows.filter((r) => !r.us.length).map((r) => nameOf(r.channel)))}.`, {
      help: { text: "First give each sales channel a US stock location (the item above)." },
    })
  const lacking = rows.flatMap((r) => {
    const us = new Set(r.us.map((l) => l.id))
    const products = input.products.filter(
      (p) => p.sales_channel_ids.includes(r.channel.id) && p.inventory.some((i) => !i.location_ids.some((l) => us.has(l))),
    )
    return products.length ? [{ ...r, products }] : []
  })
  if (!lacking.length)
    return say(true, rows.map((r) => `${nameOf(r.channel)}: ${list(r.us.map(nameOf))} stocks every item it sells`).join("; "))
  const at = list([...new Set(lacking.flatMap((r) => r.us.map(nameOf)))])
  const missing = lacking.map(
    (r) =>
      `${list(r.us.map(nameOf))} has no stock of ${plural(r.products.length, "product")} of ${nameOf(r.channel)} (${some(r.products.map((p) => p.title))})`,
  )
  const detail = `${missing.join("; ")}: a US order ships from there, and fulfilling it fails ("Inventory level for item … and location … not found").`
  const text = `Add ${at} to each of these items with its quantity (Inventory → the item → Locations), or import the levels.`
  return say(false, detail, { help: { text, href: "/inventory" } })
}

/** Every published product of a selling channel has a TIC (its own, its type's or a category's). */
export function ticItem(input: SetupInput): SetupItem {
  const say = item("us_tics", "Every product sold to the US has a TIC")
  const selling = new Set(channelLocations(input).map((r) => r.channel.id))
  const sold = input.products.filter((p) => p.sales_channel_ids.some((c) => selling.has(c)))
  const unclassified = sold.filter((p) => p.on_default_tic)
  const tics = "/settings/sales-tax/tics"
  if (!unclassified.length && !input.productsTruncated)
    return say(true, `${plural(sold.length, "product")} sold, each with a TIC (on the product, its type or a category).`)
  if (!unclassified.length) {
    const detail = `The first ${plural(sold.length, "product")} read have a TIC; the rest were not read (see Settings → Sales Tax → TICs).`
    return say(false, detail, { help: { text: "Open the unclassified products list.", href: tics } })
  }
  const n = unclassified.length
  const detail = `${input.productsTruncated ? "at least " : ""}${n} of ${plural(sold.length, "product")} sold ${n === 1 ? "has" : "have"} no TIC (on the product, its type or a category): they are taxed as the default TIC ${input.defaultTic}${input.defaultTic === 0 ? " (general goods)" : ""}, clothing and food included (${some(unclassified.map((p) => p.title))}).`
  const text =
    "Classify them: Settings → Sales Tax → TICs → Unclassified products suggests a TIC for each, to accept; or set a TIC on the product, its type or category."
  return say(false, detail, { help: { text, href: tics } })
}

function connectionItem({ connection }: SetupInput): SetupItem {
  const say = item("connection", "The Sales Tax Service answers with the configured key and connection")
  if (connection.ok) return say(true, "Ping answered.")
  const text =
    "Check the options baseUrl, apiKey and connectionId (for the sandbox: `npx sales-tax-sandbox` listens on http://127.0.0.1:8787 with its default key and connection; see the README's install section)."
  return say(false, `Ping failed: ${connection.error ?? "no answer"}.`, { help: { text } })
}

/** The checklist as the setup script prints it. */
export function formatChecklist(items: readonly SetupItem[]): string {
  return items
    .flatMap((i) => [
      `${i.done ? "[x]" : "[ ]"} ${i.title}: ${i.detail}`,
      ...(i.fix ? [`    fix (--fix): ${i.fix.label}`] : []),
      ...(i.help ? [`    to do: ${i.help.text}${i.help.href ? ` (admin: /app${i.help.href})` : ""}`] : []),
    ])
    .join("\n")
}

/** The next fix `--fix` applies: the first offered, unless it was just applied (no progress: stop). */
export function nextFix(items: readonly SetupItem[], applied: readonly SetupFixId[]): SetupFixId | null {
  const next = items.find((i) => i.fix)?.fix?.id ?? null
  return next && applied[applied.length - 1] !== next ? next : null
}
