import { MedusaError } from "@medusajs/framework/utils"
import { SalesTaxError } from "../../service/client"
import { SALES_TAX_PROVIDER_IDENTIFIER, TAX_LINE_CODE_FALLBACK, TAX_LINE_NAME_FALLBACK } from "../../constants"
import { addressRefusal, fallbackTaxLines, fallbackTics } from "./failure-policy"

const located = (status: number, ...locations: string[]) =>
  new SalesTaxError({
    operation: "calculateCarts",
    status,
    title: "Unprocessable",
    retryable: false,
    code: "http",
    errors: locations.map((location) => ({ location, message: "is not a valid ZIP" })),
  })
const item = (id: string, rates: { rate: number; code: string; name: string }[] = []) =>
  ({ line_item: { id, product_id: "p", quantity: 1, unit_price: 1 }, rates }) as never
const ship = (id: string, rates: { rate: number; code: string; name: string }[] = []) =>
  ({ shipping_line: { id, unit_price: 1 }, rates }) as never
const o = { defaultTic: 0, shippingTic: 11010 }

describe("addressRefusal", () => {
  it("a located destination refusal is the shopper's error, naming the fields; anything else is none", () => {
    const e = addressRefusal(located(422, "body.items[0].destination.zip", "body.items[0].destination"))
    expect(e).toBeInstanceOf(MedusaError)
    expect(e?.type).toBe(MedusaError.Types.INVALID_DATA)
    expect(e?.message).toBe("The shipping address could not be used for sales tax: zip is not a valid ZIP; address is not a valid ZIP")
    expect(addressRefusal(located(422, "body.items[0].origin.zip"))).toBeNull()
    // an outage whose detail names the destination is still an outage
    expect(addressRefusal(located(503, "body.items[0].destination.zip"))).toBeNull()
    expect(addressRefusal(new Error("destination"))).toBeNull()
  })
})

describe("fallbackTics", () => {
  it("each item's TIC (else defaultTic), the distinct TICs, shipping's when shipped", () => {
    const snapshot = {
      items: [
        { id: "a", tic: 20010 },
        { id: "b", tic: null },
      ],
    } as never
    expect(fallbackTics(snapshot, [item("a"), item("b"), item("c")], [], o)).toEqual({
      ticOf: new Map([
        ["a", 20010],
        ["b", 0],
      ]),
      tics: [20010, 0],
    })
    expect(fallbackTics(snapshot, [item("a")], [ship("s")], o).tics).toEqual([20010, 11010])
  })
})

describe("fallbackTaxLines", () => {
  const base = {
    ticOf: new Map([["a", 20010]]),
    options: o,
    known: new Map(),
    configured: undefined,
    providerId: SALES_TAX_PROVIDER_IDENTIFIER,
    why: "x".repeat(300),
  }
  it("per line: the last-known rate of its TIC, else the configured rate, else its region rates; the reason cut to 200", () => {
    const known = new Map([[20010, { zip: "55415", tic: 20010, rate: "9.025", quotedAt: new Date() }]])
    const got = fallbackTaxLines({
      ...base,
      known,
      itemLines: [item("a"), item("b", [{ rate: 5, code: "MN", name: "Minnesota" }])],
      shippingLines: [ship("s", [{ rate: 6, code: "US", name: "" }])],
    })
    expect(got.missing).toEqual([])
    expect(got.lines).toEqual([
      {
        rate: 9.025,
        code: TAX_LINE_CODE_FALLBACK,
        name: TAX_LINE_NAME_FALLBACK,
        provider_id: SALES_TAX_PROVIDER_IDENTIFIER,
        data: { fallback: true, fallback_source: "last_known", reason: "x".repeat(200) },
        line_item_id: "a",
      },
      {
        rate: 5,
        code: TAX_LINE_CODE_FALLBACK,
        name: `${TAX_LINE_NAME_FALLBACK}: Minnesota`,
        provider_id: SALES_TAX_PROVIDER_IDENTIFIER,
        data: { fallback: true, fallback_source: "region", reason: "x".repeat(200) },
        line_item_id: "b",
      },
      {
        rate: 6,
        code: TAX_LINE_CODE_FALLBACK,
        // an empty region rate name: no label (the name, not the code, is the label when present)
        name: TAX_LINE_NAME_FALLBACK,
        provider_id: SALES_TAX_PROVIDER_IDENTIFIER,
        data: { fallback: true, fallback_source: "region", reason: "x".repeat(200) },
        shipping_line_id: "s",
      },
    ])
    const configured = fallbackTaxLines({
      ...base,
      configured: 7,
      itemLines: [item("b", [{ rate: 5, code: "MN", name: "MN" }])],
      shippingLines: [],
    })
    expect(configured.lines.map((l) => [l.rate, (l.data as { fallback_source: string }).fallback_source])).toEqual([[7, "option"]])
  })

  it("a line nothing applies to is missing (the cart is then refused, never a silent 0 %)", () => {
    const got = fallbackTaxLines({
      ...base,
      itemLines: [item("a"), item("b", [{ rate: 5, code: "MN", name: "MN" }])],
      shippingLines: [ship("s")],
    })
    expect(got.missing).toEqual(["a", "s"])
    expect(got.lines.map((l) => ("line_item_id" in l ? l.line_item_id : null))).toEqual(["b"])
  })
})
