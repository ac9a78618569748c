import { AdminSetupFixBody } from "./routes"

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.join("."))

describe("setup fix validator", () => {
  it("one fix of the checklist by id; every other field refused at its own name", () => {
    expect(AdminSetupFixBody.safeParse({ fix: "create_us_region" }).success).toBe(true)
    expect(paths(AdminSetupFixBody.safeParse({ fix: "drop_tables" }))).toEqual(["fix"])
    expect(paths(AdminSetupFixBody.safeParse({ fix: "create_us_region", extra: 1 }))).toEqual(["extra"])
  })
})
