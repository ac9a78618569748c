import { Address as AddressSchema, type Address } from "@medusa-sales-tax/contract"
import { lookupZip, verifyAddress } from "."

const us = (city: string, state: string, zip: string, extra: Partial<Address> = {}): Address => ({
  line1: "1 Main St",
  city,
  state,
  zip,
  ...extra,
})

describe("verifyAddress (US)", () => {
  it("normalizes the city to the postal spelling and case for a known ZIP", () => {
    const r = verifyAddress(us("beverly  HILLS", "CA", "90210"))
    expect(r).toEqual({ ok: true, address: { line1: "1 Main St", city: "Beverly Hills", state: "CA", zip: "90210" } })
  })
  it("replaces another name for the place by the postal city of the ZIP", () => {
    const r = verifyAddress(us("NYC", "NY", "10001"))
    expect(r.ok && r.address.city).toBe("New York")
  })
  it("keeps ZIP+4 and tidies lines and state case", () => {
    const r = verifyAddress({ line1: "  350   Fifth Ave ", line2: " Suite  100 ", city: "new york", state: "ny", zip: "10118-0110" })
    expect(r).toEqual({
      ok: true,
      address: { line1: "350 Fifth Ave", line2: "Suite 100", city: "New York", state: "NY", zip: "10118-0110" },
    })
    if (r.ok) expect(() => AddressSchema.parse(r.address)).not.toThrow()
  })
  it("keeps line2 null and countryCode when given", () => {
    const r = verifyAddress(us("x", "DC", "20001", { line2: null, countryCode: "US" }))
    expect(r).toEqual({
      ok: true,
      address: { line1: "1 Main St", line2: null, city: "Washington", state: "DC", zip: "20001", countryCode: "US" },
    })
  })
  it("an unknown ZIP is an error located on zip", () => {
    const r = verifyAddress(us("Nowhere", "NY", "00000"))
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.errors).toHaveLength(1)
      expect(r.errors[0]).toMatchObject({ field: "zip", value: "00000" })
      expect(r.errors[0].message).toMatch(/not a known/)
    }
  })
  it("a ZIP in another state is an error located on zip that names both states", () => {
    const r = verifyAddress(us("Beverly Hills", "NY", "90210"))
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.errors[0]).toMatchObject({ field: "zip", value: "90210" })
      expect(r.errors[0].message).toContain("CA")
      expect(r.errors[0].message).toContain("NY")
    }
  })
  it("a malformed ZIP is an error, never an exception", () => {
    for (const zip of ["1234", "123456", "12345-12", "abcde", ""]) {
      const r = verifyAddress(us("x", "NY", zip))
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.errors[0].field).toBe("zip")
    }
  })
  it("territories verify against their own ZIPs", () => {
    const r = verifyAddress(us("san juan", "PR", "00901"))
    expect(r.ok && r.address.state).toBe("PR")
  })
})

describe("verifyAddress (Canada)", () => {
  it("normalizes the postal code and checks the province", () => {
    const r = verifyAddress({ line1: "290 Bremner Blvd", city: " Toronto ", state: "ON", zip: "m5v3l9", countryCode: "CA" })
    expect(r).toEqual({ ok: true, address: { line1: "290 Bremner Blvd", city: "Toronto", state: "ON", zip: "M5V 3L9", countryCode: "CA" } })
    const wrong = verifyAddress({ line1: "x", city: "Toronto", state: "BC", zip: "M5V 3L9", countryCode: "CA" })
    expect(wrong.ok).toBe(false)
    if (!wrong.ok) expect(wrong.errors[0].field).toBe("zip")
  })
})

describe("lookupZip", () => {
  it("gives the postal city and state of a US ZIP, undefined otherwise", () => {
    expect(lookupZip("02108")).toEqual({ city: "Boston", state: "MA" })
    expect(lookupZip("00000")).toBeUndefined()
    expect(lookupZip("M5V")).toBeUndefined()
    expect(lookupZip("2108")).toBeUndefined()
  })
})
