/**
 * The exemption of a filing snapshot: the customer's active certificate (the provider's lookup),
 * else the one recorded on the charged tax lines; and it reaches both filing requests.
 */
import { chargedExemption, snapshotExemption } from "./snapshot"
import { directOrderRequest, requoteRequest } from "./decisions"
import type { FilingSnapshot } from "../modules/sales-tax-filing/types"

const CERT = "5f0c1a4e-0000-4000-8000-00000000000a"
const exemptLines = [{ tax_lines: [{ data: { tic: 0, exemption_id: CERT } }] }, { tax_lines: [] }]
const taxedLines = [{ tax_lines: [{ data: { tic: 0, exemption_id: null } }] }]

describe("chargedExemption", () => {
  it("reads the certificate the provider charged under, or null", () => {
    expect(chargedExemption(exemptLines)).toBe(CERT)
    expect(chargedExemption(taxedLines)).toBeNull()
    expect(chargedExemption([{ tax_lines: null }, {}])).toBeNull()
  })
})

describe("snapshotExemption", () => {
  it("uses the lookup for the destination state", async () => {
    const calls: [string, string][] = []
    const id = await snapshotExemption(async (c, s) => (calls.push([c, s]), "looked-up"), "cus_1", "MN", taxedLines)
    expect(id).toBe("looked-up")
    expect(calls).toEqual([["cus_1", "MN"]])
  })
  it("no certificate found and none charged: null", async () => {
    expect(await snapshotExemption(async () => null, "cus_1", "MN", taxedLines)).toBeNull()
  })
  it("the lookup fails or finds none: the certificate recorded on the charged lines", async () => {
    expect(
      await snapshotExemption(
        async () => {
          throw new Error("503")
        },
        "cus_1",
        "MN",
        exemptLines,
      ),
    ).toBe(CERT)
    expect(await snapshotExemption(async () => null, "cus_1", "MN", exemptLines)).toBe(CERT)
    expect(
      await snapshotExemption(
        async () => {
          throw new Error("503")
        },
        "cus_1",
        "MN",
        taxedLines,
      ),
    ).toBeNull()
  })
  it("no lookup without a Medusa customer id", async () => {
    const lookup = jest.fn(async () => "x")
    expect(await snapshotExemption(lookup, null, "MN", taxedLines)).toBeNull()
    expect(lookup).not.toHaveBeenCalled()
  })
})

describe("the snapshot's exemption reaches the service", () => {
  const snap: FilingSnapshot = {
    orderId: "order_1",
    kind: "order",
    cartId: "cart_1",
    customerId: "cus_1",
    currencyCode: "usd",
    placedAt: "2026-11-21T10:00:00.000Z",
    origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
    destination: { line1: "350 S 5th St", city: "Minneapolis", state: "MN", zip: "55415" },
    exemptionId: CERT,
    lines: [
      {
        index: 0,
        itemId: "item_1",
        kind: "item",
        price: 10,
        quantity: 2,
        tic: 0,
        productId: null,
        chargedTax: 0,
        chargedRate: 0,
        fallback: false,
      },
    ],
  }
  it("re-quote and direct order carry exemption.exemptionId; none without", () => {
    expect(requoteRequest(snap).items[0]!.exemption).toEqual({ exemptionId: CERT })
    expect(directOrderRequest(snap, { completed: true, completedDate: snap.placedAt }, snap.placedAt).exemption).toEqual({
      exemptionId: CERT,
    })
    expect(requoteRequest({ ...snap, exemptionId: null }).items[0]!.exemption).toBeUndefined()
  })
})
