import { setupChecklist } from "./checklist"
import { planFix, type FixPlan } from "./fixes"
import { usdPrice } from "./selectors"
import type { SetupCheckId, SetupInput, SetupItem, SetupShippingOption } from "./types"

const PROVIDER = "tp_sales-tax_sales-tax"
const ORIGIN = { line1: "1 Market St", city: "San Francisco", state: "CA", zip: "94105" }
const EU = ["gb", "de", "dk", "se", "fr", "es", "it"]

const option = (id: string, name: string, over: Partial<SetupShippingOption> = {}): SetupShippingOption => ({
  id,
  name,
  price_type: "flat",
  provider_id: "manual_manual",
  shipping_profile_id: "sp_default",
  type: { label: name.split(" ")[0], description: "Ship in 2-3 days.", code: name.split(" ")[0]!.toLowerCase() },
  prices: [
    { currency_code: "usd", amount: 10, price_rules: [] },
    { currency_code: "eur", amount: 10, price_rules: [] },
    { currency_code: "eur", amount: 10, price_rules: [{ id: "prule_region" }] },
  ],
  rules: [
    { attribute: "enabled_in_store", operator: "eq", value: "true" },
    { attribute: "is_return", operator: "eq", value: "false" },
  ],
  ...over,
})

/** What Query returns on Medusa's official starter (its seed: Europe only) with this plugin installed. */
function starter(): SetupInput {
  return {
    regions: [
      {
        id: "reg_eu",
        name: "Europe",
        currency_code: "eur",
        countries: EU.map((iso_2) => ({ iso_2 })),
        payment_providers: [{ id: "pp_system_default" }],
      },
    ],
    taxRegions: [],
    salesTaxProviderIds: [PROVIDER],
    salesChannels: [{ id: "sc_default", name: "Default Sales Channel", is_disabled: false }],
    locations: [
      {
        id: "sloc_eu",
        name: "European Warehouse",
        address: { address_1: "", city: "Copenhagen", country_code: "DK" },
        sales_channels: [{ id: "sc_default" }],
        fulfillment_providers: [{ id: "manual_manual" }],
        fulfillment_sets: [
          {
            id: "fuset_eu",
            name: "European Warehouse delivery",
            type: "shipping",
            service_zones: [
              {
                id: "serzo_eu",
                name: "Europe",
                geo_zones: EU.map((country_code) => ({ type: "country", country_code })),
                shipping_options: [option("so_std", "Standard Shipping"), option("so_exp", "Express Shipping")],
              },
            ],
          },
        ],
      },
    ],
    products: [
      {
        id: "prod_shirt",
        title: "Medusa T-Shirt",
        sales_channel_ids: ["sc_default"],
        on_default_tic: true,
        inventory: [{ id: "iitem_s", location_ids: ["sloc_eu"] }],
      },
    ],
    productsTruncated: false,
    defaultTic: 0,
    origin: ORIGIN,
    connection: { ok: true },
  }
}

/** The starter after its classification and stocking at the US location (what the merchant does by hand). */
function classifiedAndStocked(input: SetupInput, locationId: string): SetupInput {
  const next = structuredClone(input)
  for (const p of next.products) {
    p.on_default_tic = false
    for (const i of p.inventory) i.location_ids.push(locationId)
  }
  return next
}

const item = (items: SetupItem[], id: SetupCheckId) => items.find((i) => i.id === id)!

/** What running a plan does to the store, as Query would then read it (the workflows' effect). */
function applied(input: SetupInput, plan: FixPlan): SetupInput {
  const next: SetupInput = structuredClone(input)
  switch (plan.kind) {
    case "create_us_region":
      next.regions.push({
        id: "reg_us",
        ...plan.region,
        countries: [{ iso_2: "us" }],
        payment_providers: plan.region.payment_providers.map((id) => ({ id })),
      })
      break
    case "create_us_tax_region":
      next.taxRegions.push({ id: "txreg_us", ...plan.taxRegion, province_code: null, parent_id: null })
      break
    case "use_provider_for_us_tax_region":
      next.taxRegions.find((t) => t.id === plan.taxRegionId)!.provider_id = plan.providerId
      break
    case "create_us_location":
      next.locations.push({
        id: "sloc_us",
        name: plan.location.name,
        address: plan.location.address,
        sales_channels: plan.salesChannelIds.map((id) => ({ id })),
        fulfillment_providers: plan.fulfillmentProviderIds.map((id) => ({ id })),
        fulfillment_sets: [],
      })
      break
    case "link_us_location":
      next.locations.find((l) => l.id === plan.locationId)!.sales_channels!.push(...plan.salesChannelIds.map((id) => ({ id })))
      break
    case "add_us_shipping":
      for (const t of plan.targets) {
        const l = next.locations.find((x) => x.id === t.locationId)!
        l.fulfillment_providers!.push(...t.linkProviderIds.map((id) => ({ id })))
        const options = plan.options.map((o, i) => ({
          id: `so_us_${i}`,
          ...o,
          prices: [{ currency_code: "usd", amount: o.amount, price_rules: [] }],
        }))
        if (t.serviceZoneId)
          l.fulfillment_sets!.flatMap((f) => f.service_zones ?? [])
            .find((z) => z.id === t.serviceZoneId)!
            .shipping_options!.push(...options)
        else
          l.fulfillment_sets!.push({
            id: "fuset_us",
            type: "shipping",
            service_zones: [{ id: "serzo_us", geo_zones: [{ type: "country", country_code: "us" }], shipping_options: options }],
          })
      }
  }
  return next
}

describe("setup checklist (issue 30)", () => {
  it("the official starter (Europe only): each missing piece named, with its button where the fix is unambiguous", () => {
    const items = setupChecklist(starter())
    expect(items.map((i) => [i.id, i.done, i.fix?.id ?? null])).toEqual([
      ["us_region", false, "create_us_region"],
      ["us_tax_region", false, "create_us_tax_region"],
      ["us_location", false, "create_us_location"],
      // shipping waits for the US location: instructions, no button yet
      ["us_shipping", false, null],
      ["us_stock", false, null],
      // the T-shirt is on the default TIC: instructions and the list of unclassified products
      ["us_tics", false, null],
      ["connection", true, null],
    ])
    expect(item(items, "us_tax_region").fix!.label).toBe(`Create the US tax region on this provider (${PROVIDER})`)
    expect(item(items, "us_location").fix!.label).toBe(
      "Create a US stock location at the origin address (1 Market St, San Francisco, CA 94105)",
    )
    expect(item(items, "us_location").detail).toBe(
      "No US stock location for Default Sales Channel: US orders would ship from European Warehouse.",
    )
    expect(item(items, "us_shipping").help!.text).toMatch(/First give each sales channel a US stock location/)
  })

  it("following the buttons from the starter leaves the stock and the TICs (the merchant's choices); then every item is done", () => {
    let input = starter()
    const clicked: string[] = []
    for (let step = 0; step < 10; step++) {
      const next = setupChecklist(input).find((i) => i.fix)
      if (!next) break
      const planned = planFix(input, next.fix!.id)
      if (!planned.ok) throw new Error(planned.reason)
      clicked.push(next.fix!.id)
      input = applied(input, planned.plan)
    }
    expect(clicked).toEqual(["create_us_region", "create_us_tax_region", "create_us_location", "add_us_shipping"])
    expect(
      setupChecklist(input)
        .filter((i) => !i.done)
        .map((i) => [i.id, i.help?.href]),
    ).toEqual([
      ["us_stock", "/inventory"],
      ["us_tics", "/settings/sales-tax/tics"],
    ])
    const items = setupChecklist(classifiedAndStocked(input, "sloc_us"))
    expect(items.filter((i) => !i.done)).toEqual([])
    expect(item(items, "us_shipping").detail).toBe("Default Sales Channel: Express Shipping, Standard Shipping")
  })

  it("the plans: the region in USD with the store's payment providers, the tax region on this provider, the location at the origin address", () => {
    const input = starter()
    expect(planFix(input, "create_us_region")).toEqual({
      ok: true,
      plan: {
        kind: "create_us_region",
        region: {
          name: "United States",
          currency_code: "usd",
          countries: ["us"],
          automatic_taxes: true,
          payment_providers: ["pp_system_default"],
        },
      },
    })
    expect(planFix(input, "create_us_tax_region")).toEqual({
      ok: true,
      plan: { kind: "create_us_tax_region", taxRegion: { country_code: "us", provider_id: PROVIDER } },
    })
    expect(planFix(input, "create_us_location")).toEqual({
      ok: true,
      plan: {
        kind: "create_us_location",
        location: {
          name: "US Warehouse",
          address: { address_1: "1 Market St", city: "San Francisco", province: "CA", postal_code: "94105", country_code: "us" },
        },
        salesChannelIds: ["sc_default"],
        fulfillmentProviderIds: ["manual_manual"],
      },
    })
  })

  it("the shipping plan copies the store's options with their USD currency price (not a region's), rules and type, into a new US zone", () => {
    let input = starter()
    for (const f of ["create_us_region", "create_us_tax_region", "create_us_location"] as const) {
      const p = planFix(input, f)
      if (!p.ok) throw new Error(p.reason)
      input = applied(input, p.plan)
    }
    input.locations[1]!.fulfillment_providers = []
    const p = planFix(input, "add_us_shipping")
    if (!p.ok || p.plan.kind !== "add_us_shipping") throw new Error("no plan")
    expect(p.plan.targets).toEqual([
      { locationId: "sloc_us", locationName: "US Warehouse", serviceZoneId: null, linkProviderIds: ["manual_manual"] },
    ])
    expect(p.plan.options[1]).toEqual({
      name: "Standard Shipping",
      price_type: "flat",
      provider_id: "manual_manual",
      shipping_profile_id: "sp_default",
      type: { label: "Standard", description: "Ship in 2-3 days.", code: "standard" },
      amount: 10,
      rules: [
        { attribute: "enabled_in_store", operator: "eq", value: "true" },
        { attribute: "is_return", operator: "eq", value: "false" },
      ],
    })
    expect(p.plan.options.map((o) => o.name)).toEqual(["Express Shipping", "Standard Shipping"])
  })

  it("a US tax region on another provider (the starter's tp_system): the button switches it to this provider", () => {
    const input = starter()
    input.taxRegions.push({ id: "txreg_us", country_code: "us", province_code: null, parent_id: null, provider_id: "tp_system" })
    const it = item(setupChecklist(input), "us_tax_region")
    expect(it).toMatchObject({ done: false, detail: "The US tax region uses tp_system, not this plugin." })
    expect(it.fix).toEqual({ id: "use_provider_for_us_tax_region", label: `Use this provider (${PROVIDER}) for the US tax region` })
    expect(planFix(input, "use_provider_for_us_tax_region")).toEqual({
      ok: true,
      plan: { kind: "use_provider_for_us_tax_region", taxRegionId: "txreg_us", providerId: PROVIDER },
    })
    // a state's tax region is not the country's
    const states = starter()
    states.taxRegions.push({ id: "txreg_ca", country_code: "us", province_code: "us-ca", parent_id: "txreg_x", provider_id: PROVIDER })
    expect(item(setupChecklist(states), "us_tax_region").fix!.id).toBe("create_us_tax_region")
  })

  it("ambiguous cases get instructions, never a button: the US in a EUR region, several providers, none", () => {
    const eur = starter()
    eur.regions[0]!.countries!.push({ iso_2: "us" })
    const r = item(setupChecklist(eur), "us_region")
    expect(r.fix).toBeUndefined()
    expect(r.help).toEqual({
      text: "Move the United States out of Europe into a region in USD (Settings → Regions).",
      href: "/settings/regions/reg_eu",
    })

    const two = starter()
    two.salesTaxProviderIds = [PROVIDER, "tp_sales-tax_wholesale"]
    expect(item(setupChecklist(two), "us_tax_region").done).toBe(false)
    expect(item(setupChecklist(two), "us_tax_region").fix).toBeUndefined()
    expect(item(setupChecklist(two), "us_tax_region").help!.href).toBe("/settings/tax-regions")

    const none = starter()
    none.salesTaxProviderIds = []
    expect(item(setupChecklist(none), "us_tax_region").help!.text).toMatch(/medusa-sales-tax\/providers\/sales-tax/)
    expect(planFix(none, "create_us_tax_region")).toEqual({ ok: false, reason: expect.stringMatching(/not offered now/) })
  })

  it("US locations: an incomplete US address asks to complete it; a single US location of another channel is linked by the button", () => {
    const incomplete = starter()
    incomplete.locations.push({
      id: "sloc_us",
      name: "Austin",
      address: { address_1: "500 Congress Ave", city: "Austin", province: "TX", country_code: "us" },
      sales_channels: [{ id: "sc_default" }],
    })
    const l = item(setupChecklist(incomplete), "us_location")
    expect(l.fix).toBeUndefined()
    expect(l.detail).toBe(
      "Austin is in the US but its address is incomplete (no postal code (ZIP)); its lines are taxed from the origin option.",
    )
    expect(l.help!.href).toBe("/settings/locations/sloc_us")

    const unlinked = starter()
    unlinked.locations.push({
      id: "sloc_us",
      name: "Austin",
      address: { address_1: "500 Congress Ave", city: "Austin", province: "TX", postal_code: "78701", country_code: "us" },
      sales_channels: [],
    })
    expect(item(setupChecklist(unlinked), "us_location").fix).toEqual({
      id: "link_us_location",
      label: "Make Austin a location of Default Sales Channel",
    })
    expect(planFix(unlinked, "link_us_location")).toEqual({
      ok: true,
      plan: { kind: "link_us_location", locationId: "sloc_us", salesChannelIds: ["sc_default"] },
    })

    // a disabled channel needs nothing
    const disabled = starter()
    disabled.salesChannels.push({ id: "sc_off", name: "Old", is_disabled: true })
    expect(item(setupChecklist(disabled), "us_location").detail).not.toMatch(/Old/)
  })

  it("shipping to the US from a European location is named (taxed from the origin option); without a USD-priced option to copy, instructions", () => {
    let input = starter()
    for (const f of ["create_us_region", "create_us_tax_region", "create_us_location"] as const) {
      const p = planFix(input, f)
      if (!p.ok) throw new Error(p.reason)
      input = applied(input, p.plan)
    }
    input.locations[0]!.fulfillment_sets![0]!.service_zones![0]!.geo_zones!.push({ type: "country", country_code: "us" })
    const s = item(setupChecklist(input), "us_shipping")
    expect(s.detail).toBe(
      "Default Sales Channel: US addresses are shipped from European Warehouse, not a US location (taxed from the origin option).",
    )
    expect(s.fix!.id).toBe("add_us_shipping")

    for (const o of input.locations[0]!.fulfillment_sets![0]!.service_zones![0]!.shipping_options!)
      o.prices = o.prices!.filter((p) => p.currency_code !== "usd")
    const noUsd = item(setupChecklist(input), "us_shipping")
    expect(noUsd.fix).toBeUndefined()
    expect(noUsd.help!.text).toBe(
      "Create a shipping option with a USD price for the United States at US Warehouse (Settings → Locations & Shipping).",
    )
  })

  it("a return option is copied too, but alone does not make US addresses shippable", () => {
    const input = starter()
    const ret = option("so_ret", "Return", { rules: [{ attribute: "is_return", operator: "eq", value: "true" }] })
    input.locations.push({
      id: "sloc_us",
      name: "US",
      address: { address_1: "1 Market St", city: "San Francisco", province: "ca", postal_code: "94105", country_code: "US" },
      sales_channels: [{ id: "sc_default" }],
      fulfillment_providers: [{ id: "manual_manual" }],
      fulfillment_sets: [{ id: "f", service_zones: [{ id: "z_us", geo_zones: [{ country_code: "us" }], shipping_options: [ret] }] }],
    })
    input.locations[0]!.fulfillment_sets![0]!.service_zones![0]!.shipping_options!.push(ret)
    expect(item(setupChecklist(input), "us_shipping").done).toBe(false)
    const p = planFix(input, "add_us_shipping")
    if (!p.ok || p.plan.kind !== "add_us_shipping") throw new Error("no plan")
    expect(p.plan.targets[0]!.serviceZoneId).toBe("z_us")
    expect(p.plan.options.map((o) => o.name)).toEqual(["Express Shipping", "Return", "Standard Shipping"])
  })

  it("the connection: a failing ping is shown with how to point the options at a sandbox", () => {
    const input = starter()
    input.connection = { ok: false, error: "connect ECONNREFUSED [service]" }
    const c = item(setupChecklist(input), "connection")
    expect(c).toMatchObject({ done: false, detail: "Ping failed: connect ECONNREFUSED [service]." })
    expect(c.help!.text).toMatch(/127\.0\.0\.1:8787/)
  })

  it("usdPrice", () => {
    expect(usdPrice(option("a", "A"))).toBe(10)
    expect(usdPrice(option("a", "A", { prices: [{ currency_code: "USD", amount: "4.5" }] }))).toBe(4.5)
    expect(usdPrice(option("a", "A", { prices: [{ currency_code: "usd", amount: 3, price_rules: [{ id: "r" }] }] }))).toBeNull()
  })
})

describe("setup checklist: the catalogue (stock at the US location, a TIC on every product sold)", () => {
  /** The starter after its four buttons: a US Warehouse serving the default channel, shipping to the US. */
  function fixed(): SetupInput {
    let input = starter()
    for (const f of ["create_us_region", "create_us_tax_region", "create_us_location", "add_us_shipping"] as const) {
      const p = planFix(input, f)
      if (!p.ok) throw new Error(p.reason)
      input = applied(input, p.plan)
    }
    return input
  }

  it("the US location without stock of what the channel sells: what fails, and where to add it", () => {
    const s = item(setupChecklist(fixed()), "us_stock")
    expect(s).toEqual({
      id: "us_stock",
      title: "The US location has stock of what each sales channel sells",
      done: false,
      detail:
        'US Warehouse has no stock of 1 product of Default Sales Channel (Medusa T-Shirt): a US order ships from there, and fulfilling it fails ("Inventory level for item … and location … not found").',
      help: {
        text: "Add US Warehouse to each of these items with its quantity (Inventory → the item → Locations), or import the levels.",
        href: "/inventory",
      },
    })
    // a variant that does not manage inventory needs no level
    const unmanaged = fixed()
    unmanaged.products[0]!.inventory = []
    expect(item(setupChecklist(unmanaged), "us_stock")).toMatchObject({
      done: true,
      detail: "Default Sales Channel: US Warehouse stocks every item it sells",
    })
    // before a US location: it waits for it
    expect(item(setupChecklist(starter()), "us_stock").help!.text).toMatch(/First give each sales channel a US stock location/)
  })

  it("products on the default TIC: counted with examples and a link to the list; the checklist is not done while any is left", () => {
    const input = classifiedAndStocked(fixed(), "sloc_us")
    input.products.push(
      ...["Sweatpants", "Sweatshirt", "Shorts", "Coffee mug"].map((title, n) => ({
        id: `prod_${n}`,
        title,
        sales_channel_ids: ["sc_default"],
        on_default_tic: true,
        inventory: [],
      })),
      // a draft is not read (published only); a product of no selling channel is not sold
      { id: "prod_nowhere", title: "Nowhere", sales_channel_ids: [], on_default_tic: true, inventory: [] },
    )
    const items = setupChecklist(input)
    expect(item(items, "us_tics")).toEqual({
      id: "us_tics",
      title: "Every product sold to the US has a TIC",
      done: false,
      detail:
        "4 of 5 products sold have no TIC (on the product, its type or a category): they are taxed as the default TIC 0 (general goods), clothing and food included (Sweatpants, Sweatshirt, Shorts, …).",
      help: {
        text: "Classify them: Settings → Sales Tax → TICs → Unclassified products suggests a TIC for each, to accept; or set a TIC on the product, its type or category.",
        href: "/settings/sales-tax/tics",
      },
    })
    expect(items.filter((i) => !i.done).map((i) => i.id)).toEqual(["us_tics"])
    for (const p of input.products) p.on_default_tic = false
    expect(item(setupChecklist(input), "us_tics")).toMatchObject({
      done: true,
      detail: "5 products sold, each with a TIC (on the product, its type or a category).",
    })
    // more products than were read: never "done" on a part of the catalogue
    input.productsTruncated = true
    expect(item(setupChecklist(input), "us_tics").done).toBe(false)
  })

  it("the demo store: Medusa's automatic Default Sales Channel (enabled, nothing published to it) needs no US location; the demo's channel passes", () => {
    const demo = classifiedAndStocked(fixed(), "sloc_us")
    // the products sit in a channel of the demo's own, served by the US Warehouse; the default channel has none
    demo.salesChannels.push({ id: "sc_webshop", name: "Demo webshop", is_disabled: false })
    demo.locations.find((l) => l.id === "sloc_us")!.sales_channels = [{ id: "sc_webshop" }]
    demo.products[0]!.sales_channel_ids = ["sc_webshop"]
    const items = setupChecklist(demo)
    expect(items.filter((i) => !i.done)).toEqual([])
    expect(item(items, "us_location").detail).toBe("Demo webshop: US Warehouse")
    // one product published to the default channel: it then needs its US location
    demo.products[0]!.sales_channel_ids.push("sc_default")
    expect(item(setupChecklist(demo), "us_location")).toMatchObject({
      done: false,
      detail: "No US stock location for Default Sales Channel.",
    })
    // no product published anywhere: nothing to sell, said so
    demo.products = []
    expect(item(setupChecklist(demo), "us_location").detail).toBe("No enabled sales channel has a published product.")
  })
})
