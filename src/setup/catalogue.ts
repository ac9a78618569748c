/** Pure: the checklist's catalogue items: stock at the US locations, and a TIC on every product sold. */
import { NO_SELLING_CHANNEL, channelLocations, list, nameOf } from "./selectors"
import type { SetupInput, SetupItem } from "./types"

const EXAMPLES = 3
const some = (titles: string[]) => list(titles.slice(0, EXAMPLES)) + (titles.length > EXAMPLES ? ", …" : "")
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/**
 * Pure: every managed inventory item a selling channel sells has a level at one of its US locations;
 * without one, fulfilling a US order there fails in Medusa. The quantities are the merchant's:
 * instructions, never a button.
 */
export function stockItem(input: SetupInput): SetupItem {
  const title = "The US location has stock of what each sales channel sells"
  const rows = channelLocations(input)
  if (!rows.length) return { id: "us_stock", title, done: false, detail: NO_SELLING_CHANNEL }
  if (rows.some((r) => !r.us.length))
    return {
      id: "us_stock",
      title,
      done: false,
      detail: `No US stock location for ${list(rows.filter((r) => !r.us.length).map((r) => nameOf(r.channel)))}.`,
      help: { text: "First give each sales channel a US stock location (the item above)." },
    }
  const lacking = rows.flatMap((r) => {
    const us = new Set(r.us.map((l) => l.id))
    const products = input.products.filter(
      (p) => p.sales_channel_ids.includes(r.channel.id) && p.inventory.some((i) => !i.location_ids.some((l) => us.has(l))),
    )
    return products.length ? [{ ...r, products }] : []
  })
  if (!lacking.length)
    return {
      id: "us_stock",
      title,
      done: true,
      detail: rows.map((r) => `${nameOf(r.channel)}: ${list(r.us.map(nameOf))} stocks every item it sells`).join("; "),
    }
  const at = list([...new Set(lacking.flatMap((r) => r.us.map(nameOf)))])
  return {
    id: "us_stock",
    title,
    done: false,
    detail:
      lacking
        .map(
          (r) =>
            `${list(r.us.map(nameOf))} has no stock of ${plural(r.products.length, "product")} of ${nameOf(r.channel)} (${some(r.products.map((p) => p.title))})`,
        )
        .join("; ") + `: a US order ships from there, and fulfilling it fails ("Inventory level for item … and location … not found").`,
    help: {
      text: `Add ${at} to each of these items with its quantity (Inventory → the item → Locations), or import the levels.`,
      href: "/inventory",
    },
  }
}

/**
 * Pure: every published product of a selling channel has a TIC of its own, of its type or of a
 * category; one on the default is taxed as general goods whatever it is. A product meant to be
 * taxed as the default gets that TIC set on it.
 */
export function ticItem(input: SetupInput): SetupItem {
  const title = "Every product sold to the US has a TIC"
  const selling = new Set(channelLocations(input).map((r) => r.channel.id))
  const sold = input.products.filter((p) => p.sales_channel_ids.some((c) => selling.has(c)))
  const unclassified = sold.filter((p) => p.on_default_tic)
  const atLeast = input.productsTruncated ? "at least " : ""
  if (!unclassified.length)
    return {
      id: "us_tics",
      title,
      done: !input.productsTruncated,
      detail: input.productsTruncated
        ? `The first ${plural(sold.length, "product")} read have a TIC; the rest were not read (see Settings → Sales Tax → TICs).`
        : `${plural(sold.length, "product")} sold, each with a TIC (on the product, its type or a category).`,
      ...(input.productsTruncated ? { help: { text: "Open the unclassified products list.", href: "/settings/sales-tax/tics" } } : {}),
    }
  return {
    id: "us_tics",
    title,
    done: false,
    detail: `${atLeast}${unclassified.length} of ${plural(sold.length, "product")} sold ${unclassified.length === 1 ? "has" : "have"} no TIC (on the product, its type or a category): they are taxed as the default TIC ${input.defaultTic}${input.defaultTic === 0 ? " (general goods)" : ""}, clothing and food included (${some(unclassified.map((p) => p.title))}).`,
    help: {
      text: "Classify them: Settings → Sales Tax → TICs → Unclassified products suggests a TIC for each, to accept; or set a TIC on the product, its type or category.",
      href: "/settings/sales-tax/tics",
    },
  }
}
