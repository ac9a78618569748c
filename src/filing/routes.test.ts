import { FileCreditBody, MonthQuery, RequoteBody } from "./routes"

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.join("."))

describe("credit body", () => {
  it("a refund id; every other field refused at its own name", () => {
    expect(FileCreditBody.safeParse({ refund_id: "ref_01J" }).success).toBe(true)
    expect(paths(FileCreditBody.safeParse({}))).toEqual(["refund_id"])
    expect(paths(FileCreditBody.safeParse({ refund_id: "ref_01J", extra: 1, cart_id: "cart_1" }))).toEqual(["extra", "cart_id"])
  })
})

describe("requote body", () => {
  it("a state and a ZIP, normalized; every other field refused at its own name", () => {
    expect(RequoteBody.parse({ state: "Texas", zip: "787011234" })).toEqual({ state: "TX", zip: "78701-1234" })
    expect(paths(RequoteBody.safeParse({ state: "Narnia", zip: "1" }))).toEqual(["state", "zip"])
    expect(paths(RequoteBody.safeParse({ state: "TX", zip: "78701", country: "us" }))).toEqual(["country"])
  })
})

const issues = (month: unknown) => MonthQuery.safeParse({ month }).error?.issues.map((i) => [i.path, i.message])

describe("reconciliation month query", () => {
  it("accepts 2000-01 .. 2099-12", () => {
    for (const m of ["2000-01", "2026-10", "2099-12"]) expect(MonthQuery.safeParse({ month: m }).success).toBe(true)
  })

  it("refuses months outside 2000..2099 at query.month (9999-12 ends in year 10000, which PostgreSQL refuses)", () => {
    for (const m of ["9999-12", "0000-01", "1999-12", "2100-01"]) {
      expect(issues(m)).toEqual([[["month"], "month must be from 2000-01 to 2099-12"]])
    }
  })

  it("a malformed month is reported once, as a format error", () => {
    expect(issues("2026-13")).toEqual([[["month"], "month must be YYYY-MM (e.g. 2026-10)"]])
    expect(issues("x")).toEqual([[["month"], "month must be YYYY-MM (e.g. 2026-10)"]])
    expect(issues(undefined)).toEqual([[["month"], "month is required, as YYYY-MM"]])
  })
})
