/** Pure: the checklist's catalogue items: stock at the US locations, and a TIC on every product sold. */
import { NO_SELLING_CHANNEL, channelLocations, item, list, nameOf } from "./selectors"
import type { SetupInput, SetupItem } from "./types"

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
  return say(
    false,
    `${missing.join("; ")}: a US order ships from there, and fulfilling it fails ("Inventory level for item … and location … not found").`,
    {
      help: {
        text: `Add ${at} to each of these items with its quantity (Inventory → the item → Locations), or import the levels.`,
        href: "/inventory",
      },
    },
  )
}

/** Every published product of a selling channel has a TIC (its own, its type's or a category's). */
export function ticItem(input: SetupInput): SetupItem {
  const say = item("us_tics", "Every product sold to the US has a TIC")
  const selling = new Set(channelLocations(input).map((r) => r.channel.id))
  const sold = input.products.filter((p) => p.sales_channel_ids.some((c) => selling.has(c)))
  const unclassified = sold.filter((p) => p.on_default_tic)
  const tics = "/settings/sales-tax/tics"
  if (!unclassified.length)
    return input.productsTruncated
      ? say(
          false,
          `The first ${plural(sold.length, "product")} read have a TIC; the rest were not read (see Settings → Sales Tax → TICs).`,
          {
            help: { text: "Open the unclassified products list.", href: tics },
          },
        )
      : say(true, `${plural(sold.length, "product")} sold, each with a TIC (on the product, its type or a category).`)
  const n = unclassified.length
  return say(
    false,
    `${input.productsTruncated ? "at least " : ""}${n} of ${plural(sold.length, "product")} sold ${n === 1 ? "has" : "have"} no TIC (on the product, its type or a category): they are taxed as the default TIC ${input.defaultTic}${input.defaultTic === 0 ? " (general goods)" : ""}, clothing and food included (${some(unclassified.map((p) => p.title))}).`,
    {
      help: {
        text: "Classify them: Settings → Sales Tax → TICs → Unclassified products suggests a TIC for each, to accept; or set a TIC on the product, its type or category.",
        href: tics,
      },
    },
  )
}
