import { AdminNexusQuery, AdminNexusRegistrationBody } from "./routes"

const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => [i.path.join("."), i.message])

describe("nexus validators", () => {
  it("a registration: a state code and true or false; every other field refused at its own name", () => {
    expect(AdminNexusRegistrationBody.safeParse({ state: "TX", registered: true }).success).toBe(true)
    expect(paths(AdminNexusRegistrationBody.safeParse({ state: "TX", registered: false, extra: 1, cart_id: "x" }))).toEqual([
      ["extra", "not a field of this request"],
      ["cart_id", "not a field of this request"],
    ])
    expect(paths(AdminNexusRegistrationBody.safeParse({ state: "tx", registered: "yes" })).map(([p]) => p)).toEqual(["state", "registered"])
  })

  it("the report's query: date alone, a real day 2000-2099; any other parameter refused at its own name", () => {
    expect(AdminNexusQuery.safeParse({}).success).toBe(true)
    expect(AdminNexusQuery.safeParse({ date: "2024-02-29" }).success).toBe(true)
    for (const date of ["2026-02-29", "1999-12-31", "2026-1-1", ["2026-01-01"], { a: "1" }])
      expect(paths(AdminNexusQuery.safeParse({ date })).map(([p]) => p)).toEqual(["date"])
    expect(paths(AdminNexusQuery.safeParse({ date: "2026-01-01", limit: "5" }))).toEqual([
      ["limit", "not a parameter of this request (only date)"],
    ])
  })
})
