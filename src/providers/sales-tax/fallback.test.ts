/** The outage path's pure parts: fallback coverage, the quote deadline, the outage flag, refused certificates, the checkout exemption. */
import { fallbackGaps, QuoteTimeoutError, US_STATES, withDeadline } from "./fallback"
import { isDegraded } from "../../core/health"
import { refusesCertificate } from "../../core/exemptions"
import { checkoutExemption } from "../../core/exemption-snapshot"
import { effectiveRatePct, freshestByTic, zipKey } from "../../modules/sales-tax/last-known-rates"

describe("fallbackGaps", () => {
  it("lists the states with no option and no region rate; nothing under block, with fallbackRate or a country-wide rate", () => {
    expect(fallbackGaps({ failurePolicy: "fallback", fallbackRate: undefined, fallbackRates: undefined })).toEqual([...US_STATES])
    expect(
      fallbackGaps({ failurePolicy: "fallback", fallbackRate: undefined, fallbackRates: { TX: 8.25 } }, { all: false, states: ["CA"] }),
    ).toEqual(US_STATES.filter((s) => s !== "TX" && s !== "CA"))
    expect(fallbackGaps({ failurePolicy: "fallback", fallbackRate: 7, fallbackRates: undefined })).toEqual([])
    expect(
      fallbackGaps({ failurePolicy: "fallback", fallbackRate: undefined, fallbackRates: undefined }, { all: true, states: [] }),
    ).toEqual([])
    expect(fallbackGaps({ failurePolicy: "block", fallbackRate: undefined, fallbackRates: undefined })).toEqual([])
  })
})

describe("withDeadline", () => {
  it("answers in time, or rejects with QuoteTimeoutError at the deadline (fake clock: exactly then, however busy the machine)", async () => {
    expect(await withDeadline(async () => 1, 100)).toBe(1)
    jest.useFakeTimers()
    try {
      let outcome: unknown = "pending"
      void withDeadline(() => new Promise((r) => setTimeout(r, 1000)), 50).then(
        (v) => (outcome = v),
        (e) => (outcome = e),
      )
      await jest.advanceTimersByTimeAsync(49)
      expect(outcome).toBe("pending")
      await jest.advanceTimersByTimeAsync(1)
      expect(outcome).toBeInstanceOf(QuoteTimeoutError)
      // an answer before the deadline wins, and its timer is cleared
      let early: unknown = "pending"
      void withDeadline(() => new Promise((r) => setTimeout(() => r("quote"), 30)), 50).then((v) => (early = v))
      await jest.advanceTimersByTimeAsync(30)
      expect(early).toBe("quote")
      expect(jest.getTimerCount()).toBe(1) // only the first call's 1000 ms work is left
    } finally {
      jest.useRealTimers()
    }
    expect(await withDeadline(async () => 1, 0).catch((e) => e)).toBeInstanceOf(QuoteTimeoutError)
  })
})

describe("isDegraded", () => {
  it("an outage not followed by a successful call", () => {
    expect(isDegraded({ outageAt: null, okAt: null })).toBe(false)
    expect(isDegraded({ outageAt: 10, okAt: null })).toBe(true)
    expect(isDegraded({ outageAt: 10, okAt: 5 })).toBe(true)
    expect(isDegraded({ outageAt: 10, okAt: 11 })).toBe(false)
  })
})

describe("refusesCertificate", () => {
  it("a 4xx located at the cart's exemption", () => {
    expect(refusesCertificate({ status: 422, errors: [{ location: "body.items[0].exemption.exemptionId" }] })).toBe(true)
    expect(refusesCertificate({ status: 422, errors: [{ location: "body.items[0].destination.zip" }] })).toBe(false)
    expect(refusesCertificate({ status: 503, errors: [{ location: "body.items[0].exemption.exemptionId" }] })).toBe(false)
    expect(refusesCertificate(new Error("x"))).toBe(false)
  })
})

describe("checkoutExemption", () => {
  it("the certificate recorded on the charged lines, with why; null when none", () => {
    const lines = [
      { tax_lines: [{ data: { exemption_id: null } }] },
      { tax_lines: [{ data: { exemption_id: "c1", exemption_basis: "authenticated_customer", exempt_customer_id: "cus_1" } }] },
    ]
    expect(checkoutExemption(lines)).toEqual({ exemptionId: "c1", basis: "authenticated_customer", customerId: "cus_1" })
    expect(checkoutExemption([{ tax_lines: [{ data: { exemption_id: null } }] }, { tax_lines: null }])).toBeNull()
  })
})

describe("last-known rates", () => {
  it("effective rate = amount ÷ taxable, in percent; none for nothing taxable", () => {
    expect(effectiveRatePct("16.125", "1.46")).toBe("9.054264")
    expect(effectiveRatePct(0, 0)).toBeNull()
    expect(zipKey("55415-1234")).toBe("55415")
  })
  it("the newest row per TIC within 30 days", () => {
    const now = new Date("2026-11-22T00:00:00Z")
    const d = (days: number) => new Date(now.getTime() - days * 86400_000)
    const got = freshestByTic(
      [
        { zip: "55415", tic: 0, rate: "9", quotedAt: d(2) },
        { zip: "55415", tic: 0, rate: "9.5", quotedAt: d(1) },
        { zip: "55415", tic: 20010, rate: "9", quotedAt: d(31) },
      ],
      now,
    )
    expect(got.get(0)?.rate).toBe("9.5")
    expect(got.has(20010)).toBe(false)
  })
})
