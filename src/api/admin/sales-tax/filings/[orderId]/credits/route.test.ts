import { FileCreditBody } from "../../validators"

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.join("."))

describe("credit body", () => {
  it("a refund id; every other field refused at its own name", () => {
    expect(FileCreditBody.safeParse({ refund_id: "ref_01J" }).success).toBe(true)
    expect(paths(FileCreditBody.safeParse({}))).toEqual(["refund_id"])
    expect(paths(FileCreditBody.safeParse({ refund_id: "ref_01J", extra: 1, cart_id: "cart_1" }))).toEqual(["extra", "cart_id"])
  })
})
