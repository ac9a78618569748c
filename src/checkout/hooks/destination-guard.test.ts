import type { Address } from "../../../packages/contract/src/index"
import { belowMinimumRefusal, destinationRefusal, refusalOf } from "./destination-guard"

let n = 0
const deps = (answer: (a: Address) => Address) => {
  const calls: Address[] = []
  return {
    calls,
    options: { baseUrl: `http://guard.test/${++n}`, connectionId: "g".repeat(36), verifyAddressRateLimit: 20 },
    client: () => ({
      verifyAddress: async (a: Address) => {
        calls.push(a)
        return answer(a)
      },
    }),
  }
}
const texas = (a: Address): Address => ({ ...a, state: "TX" })
const cart = (province: string | null, postal_code: string | null, currency_code = "usd", country_code = "us") => ({
  currency_code,
  region: { automatic_taxes: true },
  shipping_address: { country_code, province, postal_code, address_1: "500 Congress Ave", city: "Austin" },
})

describe("destinationRefusal", () => {
  it("lets a resolvable US destination through (typed, or verified once)", async () => {
    const d = deps(texas)
    expect(await destinationRefusal(cart("Texas", "78701"), d)).toBeNull()
    expect(await destinationRefusal(cart("", "78701"), d)).toBeNull()
    expect(d.calls).toHaveLength(1)
  })

  it("refuses an unresolvable US destination with sales_tax_address_unresolved (400 INVALID_DATA)", async () => {
    const err = await destinationRefusal(cart("TX", "7870"), deps(texas))
    expect(err).toMatchObject({
      type: "invalid_data",
      code: "sales_tax_address_unresolved",
      message: "We could not find the state for this address; check the state and ZIP.",
    })
  })

  it("refuses a US cart in another currency with sales_tax_currency_unsupported", async () => {
    const err = await destinationRefusal(cart("TX", "78701", "eur"), deps(texas))
    expect(err).toMatchObject({ type: "invalid_data", code: "sales_tax_currency_unsupported" })
    expect(err?.message).toMatch(/EUR/)
  })

  it("leaves alone what is not the plugin's: other countries, territories, automatic taxes off", async () => {
    const d = deps(texas)
    expect(await destinationRefusal(cart("ON", "K1A 0B1", "cad", "ca"), d)).toBeNull()
    expect(await destinationRefusal(cart("Puerto Rico", "00901"), d)).toBeNull()
    // APO/FPO mail (a US address the service does not tax): not refused
    expect(await destinationRefusal(cart("AE", "09001"), d)).toBeNull()
    expect(await destinationRefusal({ ...cart("", "7870"), region: { automatic_taxes: false } }, d)).toBeNull()
    expect(await destinationRefusal({ currency_code: "usd" }, d)).toBeNull()
    expect(d.calls).toHaveLength(0)
  })

  it("refusalOf: an outage at completion refuses too (never completed untaxed)", () => {
    expect(refusalOf({ address: null, reason: "unavailable" }, "usd")?.code).toBe("sales_tax_address_unresolved")
    expect(refusalOf({ address: null, reason: "not_us" }, "usd")).toBeNull()
    expect(refusalOf({ address: null, reason: "territory" }, "usd")).toBeNull()
  })

  it("at the address step an outage of verify-address passes (completion still refuses it); an unresolvable address does not", async () => {
    const down = {
      ...deps(texas),
      client: () => ({
        verifyAddress: async (): Promise<Address> => {
          throw new Error("connect ECONNREFUSED")
        },
      }),
    }
    expect(await destinationRefusal(cart("", "78701"), down, "address-step")).toBeNull()
    expect((await destinationRefusal(cart("", "78701"), down))?.code).toBe("sales_tax_address_unresolved")
    expect((await destinationRefusal(cart("TX", "7870"), deps(texas), "address-step"))?.code).toBe("sales_tax_address_unresolved")
    expect((await destinationRefusal(cart("TX", "78701", "eur"), deps(texas), "address-step"))?.code).toBe("sales_tax_currency_unsupported")
  })
})

describe("belowMinimumRefusal (a store forced below the oldest supported Medusa)", () => {
  it("refuses the US order with sales_tax_medusa_unsupported, naming the version and the minimum; nothing on a supported Medusa", () => {
    expect(belowMinimumRefusal(true, "2.14.2")).toMatchObject({
      type: "not_allowed",
      code: "sales_tax_medusa_unsupported",
      message:
        "Sales tax cannot be calculated for this order: this store runs Medusa 2.14.2, older than the sales tax plugin supports (2.15.0).",
    })
    expect(belowMinimumRefusal(false, "2.21.2")).toBeNull()
  })
})
