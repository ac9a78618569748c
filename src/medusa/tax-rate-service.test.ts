/** Contract: the Tax Module's private taxRateService, as the fallback-coverage warning reads it. */
import { installedSource } from "./installed"
import { defaultRegionStates, regionStatesOf, taxRateServiceDifferences } from "./tax-rate-service"

describe("contract: the Tax Module's taxRateService in its providers' container", () => {
  it("the installed @medusajs/tax takes taxRateService from its container, lists rates through it, and TaxRate has is_default and tax_region", () => {
    expect(taxRateServiceDifferences()).toEqual([])
  })

  it("a Tax Module that stops taking it, or a TaxRate without is_default, is named", () => {
    const service = installedSource("@medusajs/tax", "services/tax-module-service.js")!
    const model = installedSource("@medusajs/tax", "models/tax-rate.js")!
    expect(taxRateServiceDifferences(service.replace(/\btaxRateService,/, "rateService,"), model)).toEqual([
      "the Tax Module's container no longer gives it taxRateService",
    ])
    expect(taxRateServiceDifferences(service, model.replace("is_default: ", "isDefault: "))).toEqual(["TaxRate has no is_default"])
    expect(taxRateServiceDifferences("", "")).toHaveLength(4)
  })
})

describe("defaultRegionStates", () => {
  const rows = [
    { rate: 6.875, tax_region: { country_code: "us", province_code: "us-mn" } },
    { rate: null, tax_region: { country_code: "us", province_code: "us-tx" } },
    { rate: 5, tax_region: { country_code: "ca", province_code: null } },
  ]

  it("reads the default rates with their regions; a US country-level rate covers every state", async () => {
    const calls: unknown[] = []
    const cradle = { taxRateService: { list: async (...a: unknown[]) => (calls.push(a), rows) } }
    expect(await defaultRegionStates(cradle)).toEqual({ all: false, states: ["MN"] })
    expect(calls).toEqual([[{ is_default: true }, { relations: ["tax_region"] }]])
    expect(regionStatesOf([{ rate: 0, tax_region: { country_code: "US", province_code: null } }])).toEqual({ all: true, states: [] })
  })

  it("undefined when the service is not there, the cradle throws for it, or the read fails", async () => {
    expect(await defaultRegionStates({})).toBeUndefined()
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error("not registered")
        },
      },
    )
    expect(await defaultRegionStates(throwing)).toBeUndefined()
    expect(await defaultRegionStates({ taxRateService: { list: async () => Promise.reject(new Error("db")) } })).toBeUndefined()
  })
})

describe("regionStatesOf", () => {
  it("the US states with a default region rate; `all` for a country-wide US rate; other countries and rate-less rows ignored", () => {
    expect(
      regionStatesOf([
        { rate: 6, tax_region: { country_code: "US", province_code: "us-ca" } },
        { rate: 0, tax_region: { country_code: "us", province_code: "TX" } },
        { rate: null, tax_region: { country_code: "us", province_code: "NY" } },
        { rate: 5, tax_region: { country_code: "ca", province_code: "ON" } },
      ]),
    ).toEqual({ all: false, states: ["CA", "TX"] })
  })
})
