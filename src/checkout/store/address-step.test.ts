import { addressStepBody, cartAfterAddressStep, mayGiveUsAddress, type AddressStepCart, type AddressStepRegion } from "./address-step"

const usd: AddressStepRegion = { id: "reg_us", currency_code: "usd", automatic_taxes: true, countries: [{ iso_2: "us" }, { iso_2: "ca" }] }
const eur: AddressStepRegion = { id: "reg_eu", currency_code: "eur", automatic_taxes: true, countries: [{ iso_2: "us" }, { iso_2: "de" }] }
const cart = (over: Partial<AddressStepCart> = {}): AddressStepCart => ({ id: "cart_1", currency_code: "usd", region: usd, ...over })
const zzyzx = { country_code: "us", province: "Zzyzx", postal_code: "99999", address_1: "1 Nowhere Rd", city: "Austin" }
/** The Next.js starter's one POST of the address step. */
const step = (address: Record<string, string>, extra: Record<string, unknown> = {}) =>
  addressStepBody({ email: "a@example.com", shipping_address: { ...address, first_name: "A" }, billing_address: address, ...extra })!

describe("addressStepBody / mayGiveUsAddress", () => {
  it("reads the storefront's one POST; no shipping address (or a body Medusa refuses) is nothing to check", () => {
    expect(step(zzyzx).shipping_address).toEqual(zzyzx)
    expect(addressStepBody({ email: "a@example.com" })).toBeNull()
    expect(addressStepBody({ shipping_address: "addr_1" })).toBeNull()
    expect(addressStepBody(undefined)).toBeNull()
  })

  it("a US country, or an update by id of the cart's address, may give a US address; another country does not", () => {
    expect(mayGiveUsAddress(step(zzyzx))).toBe(true)
    expect(mayGiveUsAddress(step({ ...zzyzx, country_code: "US" }))).toBe(true)
    expect(mayGiveUsAddress(step({ ...zzyzx, country_code: "ca" }))).toBe(false)
    expect(mayGiveUsAddress(addressStepBody({ shipping_address: { id: "addr_1", postal_code: "99999" } })!)).toBe(true)
    expect(mayGiveUsAddress(addressStepBody({ shipping_address: { province: "Texas" } })!)).toBe(false)
  })
})

describe("cartAfterAddressStep", () => {
  it("a complete US address (a ZIP typed) is checked with the cart's currency and region", () => {
    expect(cartAfterAddressStep(cart(), null, step(zzyzx))).toEqual({
      currency_code: "usd",
      region: { automatic_taxes: true },
      shipping_address: zzyzx,
    })
  })

  it("a half-typed address (no ZIP yet) is never checked", () => {
    expect(cartAfterAddressStep(cart(), null, step({ ...zzyzx, postal_code: "" }))).toBeNull()
    expect(cartAfterAddressStep(cart(), null, step({ ...zzyzx, postal_code: "   " }))).toBeNull()
    expect(cartAfterAddressStep(cart(), null, addressStepBody({ shipping_address: { country_code: "us", province: "Texas" } })!)).toBeNull()
  })

  it("a new region in the same request gives its currency and automatic taxes", () => {
    const after = cartAfterAddressStep(cart(), { ...eur, automatic_taxes: false }, step(zzyzx, { region_id: "reg_eu" }))
    expect(after).toMatchObject({ currency_code: "eur", region: { automatic_taxes: false } })
  })

  it("a region without the US is left to Medusa's own refusal", () => {
    const de: AddressStepRegion = { ...eur, countries: [{ iso_2: "de" }] }
    expect(cartAfterAddressStep(cart({ region: de, currency_code: "eur" }), null, step(zzyzx))).toBeNull()
  })

  it("an update by id changes the cart's address field by field; another id replaces it", () => {
    const current = { id: "addr_1", ...zzyzx, province: "TX", postal_code: "" }
    const byId = addressStepBody({ shipping_address: { id: "addr_1", postal_code: "99999" } })!
    expect(cartAfterAddressStep(cart({ shipping_address: current }), null, byId)?.shipping_address).toEqual({
      ...current,
      postal_code: "99999",
    })
    const other = addressStepBody({ shipping_address: { id: "addr_2", postal_code: "99999" } })!
    expect(cartAfterAddressStep(cart({ shipping_address: current }), null, other)).toBeNull()
  })
})
