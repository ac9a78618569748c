import { locationClass, servesUsAddresses } from "./origins"

const DK = { address_1: "", city: "Copenhagen", country_code: "DK" }
const EU_ZONE = [{ service_zones: [{ geo_zones: [{ country_code: "dk" }, { country_code: "de" }] }] }]
const US_ZONE = [{ service_zones: [{ geo_zones: [{ country_code: "US" }] }] }]

describe("how the settings page lists a location (issue 30)", () => {
  it("a European warehouse shipping only to Europe is not used for US orders (neutral), not a fallback", () => {
    expect(locationClass(DK, EU_ZONE)).toBe("not_for_us")
    expect(locationClass(DK, [])).toBe("not_for_us")
    expect(locationClass(DK, null)).toBe("not_for_us")
  })

  it("the same warehouse with a zone covering the US ships US orders from abroad: the fallback origin (to look at)", () => {
    expect(locationClass(DK, [...EU_ZONE, ...US_ZONE])).toBe("fallback")
  })

  it("a complete US address is its own origin; an incomplete US one, or one without a country, falls back", () => {
    const us = { address_1: "500 Congress Ave", city: "Austin", province: "TX", postal_code: "78701", country_code: "us" }
    expect(locationClass(us, [])).toBe("own")
    expect(locationClass({ ...us, postal_code: null }, [])).toBe("fallback")
    expect(locationClass({ ...us, country_code: null }, [])).toBe("fallback")
    expect(locationClass(null, [])).toBe("fallback")
  })

  it("servesUsAddresses: any geo zone in the US (a country, state, city or ZIP zone carries its country)", () => {
    expect(servesUsAddresses(US_ZONE)).toBe(true)
    expect(servesUsAddresses([{ service_zones: [{ geo_zones: [{ country_code: " us " }] }] }])).toBe(true)
    expect(servesUsAddresses(EU_ZONE)).toBe(false)
    expect(servesUsAddresses([{ service_zones: null }, { service_zones: [{ geo_zones: null }] }])).toBe(false)
  })
})
