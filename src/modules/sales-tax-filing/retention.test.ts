import { daysBefore, withoutStreet } from "./retention"
import type { FilingSnapshot } from "./types"

const snapshot = (destination: FilingSnapshot["destination"]): FilingSnapshot => ({
  orderId: "order_1",
  kind: "order",
  cartId: null,
  customerId: "cus_1",
  currencyCode: "usd",
  placedAt: "2026-01-02T03:04:05.000Z",
  origin: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
  destination,
  lines: [],
})

describe("filing record retention", () => {
  const now = new Date("2026-06-01T00:00:00.000Z")

  it("the cutoff: records created more than the retention before now", () => {
    expect(daysBefore(now, 120).toISOString()).toBe("2026-02-01T00:00:00.000Z")
    expect(daysBefore(now, 14).toISOString()).toBe("2026-05-18T00:00:00.000Z")
  })

  it("removes the destination's street lines and keeps city, state, ZIP, the store's origin and the rest", () => {
    const s = snapshot({ line1: "1500 Market St", line2: "Apt 4", city: "Philadelphia", state: "PA", zip: "19102" })
    const out = withoutStreet(s)!
    expect(out.destination).toEqual({ line1: "", line2: null, city: "Philadelphia", state: "PA", zip: "19102" })
    expect(out).toEqual({ ...s, destination: out.destination })
    expect(JSON.stringify(out)).not.toMatch(/Market|Apt 4/)
    expect(s.destination.line1).toBe("1500 Market St") // the input is not changed
    expect(withoutStreet(out)).toEqual(out)
    expect(withoutStreet(null)).toBeNull()
  })
})
