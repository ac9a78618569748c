import { SalesTaxError } from "../client"
import type { Address } from "../../../packages/contract/src/index"
import { askVerdict, isUsd, quoteDestination, stampDestination, type VerifyDeps } from "./destination"
import { recordedData } from "../../medusa/tax-line-record"

let n = 0
/** A verify-address double answering as the service does (the ZIP's state wins), counting its calls; a fresh cache each. */
function deps(answer: (a: Address) => Address | Error): VerifyDeps & { calls: Address[] } {
  const calls: Address[] = []
  return {
    calls,
    options: { baseUrl: `http://verify.test/${++n}`, connectionId: "c".repeat(36), verifyAddressRateLimit: 20 },
    client: () => ({
      verifyAddress: async (a: Address) => {
        calls.push(a)
        const r = answer(a)
        if (r instanceof Error) throw r
        return r
      },
    }),
  }
}
const austin = (a: Address): Address => ({ ...a, city: "AUSTIN", state: "TX", zip: "78701-1234" })
const addr = (province: string | null, postal_code: string | null, country_code = "us") => ({
  country_code,
  province_code: province,
  postal_code,
  address_1: "500 Congress Ave",
  city: "Austin",
})
const refused = (status: number) =>
  new SalesTaxError({
    operation: "verifyAddress",
    status,
    title: status === 422 ? "the address could not be verified" : "unavailable",
    errors: status === 422 ? [{ location: "body.zip", message: "ZIP code 99999 is not a known US ZIP code", value: "99999" }] : [],
    retryable: status >= 500,
    code: "http",
    attempts: 1,
  })

describe("quoteDestination", () => {
  it("quotes a typed state its ZIP agrees with as typed, without a call", async () => {
    for (const typed of ["TX", "Texas", "texas", " Texas ", "US-TX", "Tex."]) {
      const d = deps(austin)
      const got = await quoteDestination(addr(typed, "78701"), "usd", d)
      expect(got).toMatchObject({ address: { state: "TX", zip: "78701", line1: "500 Congress Ave", city: "Austin" } })
      expect(got.address && got.destination).toEqual({ state: "TX", zip: "78701", source: "typed" })
      expect(d.calls).toHaveLength(0)
    }
  })

  it("asks verify-address once per normalized address for a blank or mismatched state, and uses its state and ZIP", async () => {
    const d = deps(austin)
    const first = await quoteDestination(addr("", "78701"), "usd", d)
    expect(first.address && first.destination).toEqual({ state: "TX", zip: "78701", zip4: "1234", source: "verified" })
    // the shopper's lines and city stay; the state and ZIP are the verified ones
    expect(first.address).toMatchObject({ state: "TX", zip: "78701-1234", city: "Austin" })
    expect(d.calls).toEqual([{ line1: "500 Congress Ave", city: "Austin", state: "TX", zip: "78701" }])
    // the same address again, spelled with other spaces: the cached verdict
    await quoteDestination({ ...addr(" ", " 78701 "), address_1: " 500  Congress Ave " }, "usd", d)
    expect(d.calls).toHaveLength(1)
    // a state that disagrees with the ZIP: the ZIP's state is asked about (the ZIP wins)
    const mismatched = await quoteDestination(addr("California", "78701"), "usd", d)
    expect(mismatched.address?.state).toBe("TX")
    expect(d.calls).toHaveLength(1)
  })

  it("leaves unresolved what the service cannot verify, and what has no usable ZIP (without a call)", async () => {
    const d = deps(() => refused(422))
    expect(await quoteDestination(addr("Zzyzx", "99999"), "usd", d)).toMatchObject({
      address: null,
      reason: "unresolved",
      code: "sales_tax_address_unresolved",
    })
    expect(d.calls).toHaveLength(1)
    expect(await quoteDestination(addr("TX", "7870"), "usd", d)).toMatchObject({ address: null, reason: "unresolved" })
    expect(d.calls).toHaveLength(1)
  })

  it("a refusal that names no field: the checkout's one error at the body (its detail), or the caller's handling", async () => {
    const bare = new SalesTaxError({
      operation: "verifyAddress",
      status: 400,
      title: "Bad Request",
      detail: "no such street",
      retryable: false,
      code: "http",
    })
    const client = { verifyAddress: async () => Promise.reject(bare) }
    const request = { line1: "1 Nowhere", city: "Austin", state: "TX", zip: "78701" }
    expect(await askVerdict(client, request)).toEqual({
      kind: "invalid",
      errors: [{ location: "body", message: "no such street", value: null }],
    })
    const own = await askVerdict(client, request, (e) => [{ location: "address", message: e.title }])
    expect(own).toEqual({ kind: "invalid", errors: [{ location: "address", message: "Bad Request" }] })
    const d = deps(() => bare)
    expect(await quoteDestination(addr("", "78701"), "usd", d)).toMatchObject({
      reason: "unresolved",
      detail: "verify-address: no such street",
    })
  })

  it("does not keep an outage: the next ask calls again", async () => {
    let down = true
    const d = deps((a) => (down ? refused(503) : austin(a)))
    expect(await quoteDestination(addr(null, "78701"), "usd", d)).toMatchObject({ address: null, reason: "unavailable" })
    down = false
    expect((await quoteDestination(addr(null, "78701"), "usd", d)).address?.state).toBe("TX")
    expect(d.calls).toHaveLength(2)
  })

  it("refuses a US cart in another currency, leaves other countries and territories alone", async () => {
    const d = deps(austin)
    expect(await quoteDestination(addr("TX", "78701"), "eur", d)).toMatchObject({
      reason: "currency",
      code: "sales_tax_currency_unsupported",
    })
    expect(await quoteDestination(addr("ON", "K1A 0B1", "ca"), "cad", d)).toEqual({ address: null, reason: "not_us" })
    expect(await quoteDestination(addr("", "00901"), "usd", d)).toEqual({ address: null, reason: "territory" })
    expect(d.calls).toHaveLength(0)
    expect(isUsd(" USD ")).toBe(true)
    expect(isUsd(null)).toBe(false)
  })
})

describe("quoteDestination: territory and APO/FPO ZIPs with a typed US state", () => {
  /** The sandbox's verify-address: the ZIP's own state or territory, else 422 on body.zip. */
  const postal = (zipState: Record<string, string>) => (a: Address) =>
    zipState[a.zip] === a.state
      ? { ...a, city: "CITY" }
      : new SalesTaxError({
          operation: "verifyAddress",
          status: 422,
          title: "the address could not be verified",
          errors: [{ location: "body.zip", message: `ZIP code ${a.zip} is in ${zipState[a.zip]}, not in ${a.state}`, value: a.zip }],
          retryable: false,
          code: "http",
          attempts: 1,
        })
  const zips = { "00601": "PR", "34001": "AA", "78701": "TX" }

  it("a Puerto Rico ZIP typed TX is untaxed only once the service placed it there (one call)", async () => {
    const d = deps(postal(zips))
    expect(await quoteDestination(addr("TX", "00601"), "usd", d)).toEqual({ address: null, reason: "territory" })
    expect(d.calls.map((c) => [c.state, c.zip])).toEqual([["PR", "00601"]])
  })

  it("an APO ZIP typed TX that the service does not reconcile is unresolved (refused at completion), never untaxed", async () => {
    const d = deps(postal(zips))
    expect(await quoteDestination(addr("TX", "34001"), "usd", d)).toMatchObject({ address: null, reason: "unresolved" })
    expect(d.calls.map((c) => [c.state, c.zip])).toEqual([["TX", "34001"]])
  })

  it("with verify-address down, such a cart is unavailable (refused at completion), not untaxed", async () => {
    const d = deps(() => refused(503))
    expect(await quoteDestination(addr("Texas", "00601"), "usd", d)).toMatchObject({ address: null, reason: "unavailable" })
  })
})

describe("stampDestination", () => {
  it("puts the destination on every line's data, keeping what is there", () => {
    const lines = stampDestination<{ data: Record<string, unknown> | null; rate_id?: string }>([{ data: { amount: 1 } }, { data: null }], {
      state: "TX",
      zip: "78701",
      source: "verified",
    })
    expect(lines.map((l) => l.data)).toEqual([
      { amount: 1, destination: { state: "TX", zip: "78701", source: "verified" } },
      { destination: { state: "TX", zip: "78701", source: "verified" } },
    ])
    // and the whole data in rate_id, which Medusa keeps where it drops data (before 2.18)
    expect(lines.map((l) => recordedData({ tax_rate_id: l.rate_id }))).toEqual(lines.map((l) => l.data))
  })
})
