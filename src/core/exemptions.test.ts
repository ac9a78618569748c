/** pickExemption: the certificate choice shared by the provider (checkout) and filing. */
import { pickExemption } from "./exemptions"

const cert = (certificateId: string, states: string[], createdDate: string, disabledAt: string | null = null) => ({
  certificateId,
  createdDate,
  disabledAt,
  states: states.map((abbreviation) => ({ abbreviation })),
})

describe("pickExemption", () => {
  it("takes the oldest active certificate covering the state", () => {
    const certs = [
      cert("newer", ["MN", "WI"], "2026-05-01T00:00:00Z"),
      cert("older", ["mn"], "2026-01-01T00:00:00Z"),
      cert("other-state", ["CA"], "2025-01-01T00:00:00Z"),
    ]
    expect(pickExemption(certs, "MN")).toBe("older")
    expect(pickExemption(certs, "mn")).toBe("older")
    expect(pickExemption(certs, "WI")).toBe("newer")
    expect(pickExemption(certs, "CA")).toBe("other-state")
  })

  it("none for another state, none from a disabled certificate, none from an empty list", () => {
    expect(pickExemption([cert("a", ["MN"], "2026-01-01T00:00:00Z")], "KY")).toBeNull()
    expect(pickExemption([cert("a", ["MN"], "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")], "MN")).toBeNull()
    expect(pickExemption([], "MN")).toBeNull()
  })
})
