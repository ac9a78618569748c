/** Contract: the plugin's record per tax line travels in `tax_rate_id` (tax-line-record.ts), against the installed core-flows. */
import { dirname, join } from "node:path"
import fc from "fast-check"
import { RECORD_MAX, RECORD_PREFIX, recordCarrierDifferences, recordedData, recordRateId, withRecordedData } from "./tax-line-record"

const data = {
  amount: 1.24,
  service_rate: 0.0825,
  tic: 20010,
  exemption_id: "cert-1",
  exemption_basis: "verified_customer",
  origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
  destination: { state: "TX", zip: "78701", source: "verified" },
}

describe("the record in tax_rate_id", () => {
  it("round-trips a line's data (null values left out) and is marked as the plugin's", () => {
    const id = recordRateId({ ...data, net: null, origin_location_id: undefined })!
    expect(id.startsWith(RECORD_PREFIX)).toBe(true)
    expect(recordedData({ tax_rate_id: id, data: null })).toEqual(data)
  })

  it("is JSON.stringify of the kept entries, with or without the JSON of shared values remembered", () => {
    const kept = (d: Record<string, unknown>) =>
      `${RECORD_PREFIX}${JSON.stringify(Object.fromEntries(Object.entries(d).filter(([, v]) => v !== null && v !== undefined)))}`
    const value = fc.oneof(
      fc.jsonValue(),
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.constant(new Date(0)),
    )
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value), fc.array(fc.dictionary(fc.string(), value)), (shared, lines) => {
        const written = new Map<unknown, string>()
        for (const d of [shared, ...lines.map((l) => ({ ...l, ...shared }))]) {
          const want = kept(d)
          expect(recordRateId(d)).toBe(want.length <= RECORD_MAX ? want : undefined)
          expect(recordRateId(d, written)).toBe(want.length <= RECORD_MAX ? want : undefined)
        }
      }),
      { numRuns: 300 },
    )
  })

  it("the record wins over data (one path on every minor); data is read for lines written before, a Tax Module rate id is not a record", () => {
    expect(recordedData({ tax_rate_id: recordRateId({ tic: 1 }), data: { tic: 2 } })).toEqual({ tic: 1 })
    expect(recordedData({ tax_rate_id: null, data: { tic: 2 } })).toEqual({ tic: 2 })
    expect(recordedData({ tax_rate_id: "txr_01ABC", data: { tic: 3 } })).toEqual({ tic: 3 })
    expect(recordedData({ tax_rate_id: `${RECORD_PREFIX}not json`, data: undefined })).toBeNull()
    expect(recordedData(null)).toBeNull()
  })

  it("a record longer than RECORD_MAX is not written (the cart's tax_rate_id is indexed)", () => {
    expect(recordRateId({ origin: { line1: "x".repeat(RECORD_MAX) } })).toBeUndefined()
    expect(recordRateId(null)).toBeUndefined()
  })

  it("withRecordedData puts each tax line's record in its data, in place", () => {
    const items = [{ tax_lines: [{ tax_rate_id: recordRateId(data), data: undefined as unknown }, null] }, { tax_lines: null }]
    withRecordedData(items)
    expect(items[0]!.tax_lines![0]!.data).toEqual(data)
  })
})

/** The installed core-flows' own copy of a cart's tax lines onto the order (complete-cart). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareTaxLinesData } = require(join(dirname(require.resolve("@medusajs/core-flows")), "cart/utils/prepare-line-item-data.js")) as {
  prepareTaxLinesData(lines: Record<string, unknown>[]): { tax_rate_id?: unknown }[]
}

describe("the installed core-flows carries rate_id to the cart's and the order's tax lines", () => {
  it("its steps write rate_id as tax_rate_id and its completion copies tax_rate_id to the order", () => {
    expect(recordCarrierDifferences()).toEqual([])
    const [copied] = prepareTaxLinesData([
      { code: "SALES_TAX", rate: 8.25, provider_id: "p", description: "d", tax_rate_id: recordRateId(data) },
    ] as never)
    expect(recordedData(copied as { tax_rate_id?: unknown })).toEqual(data)
  })

  it("a core-flows that does not is named", () => {
    expect(
      recordCarrierDifferences((rel) =>
        rel.includes("order/")
          ? "tax_rate_id: taxLine.tax_rate_id"
          : rel.includes("upsert")
            ? undefined
            : "tax_rate_id: taxLine.rate_id tax_rate_id: d.tax_rate_id",
      ),
    ).toEqual(["@medusajs/core-flows order/steps/set-tax-lines-for-items.js does not write tax_rate_id: taxLine.rate_id"])
    expect(recordCarrierDifferences(() => undefined)).toHaveLength(3)
  })
})
