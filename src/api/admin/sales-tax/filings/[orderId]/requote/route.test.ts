import { RequoteBody } from "../../../../../../filing/requote"

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.join("."))

describe("requote body", () => {
  it("a state and a ZIP, normalized; every other field refused at its own name", () => {
    expect(RequoteBody.parse({ state: "Texas", zip: "787011234" })).toEqual({ state: "TX", zip: "78701-1234" })
    expect(paths(RequoteBody.safeParse({ state: "Narnia", zip: "1" }))).toEqual(["state", "zip"])
    expect(paths(RequoteBody.safeParse({ state: "TX", zip: "78701", country: "us" }))).toEqual(["country"])
  })
})
