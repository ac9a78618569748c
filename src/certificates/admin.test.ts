import { AdminReviewCertificateBody } from "./admin"

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.join("."))

describe("certificate review body", () => {
  it("approve, or reject with a reason; every other field refused at its own name", () => {
    expect(AdminReviewCertificateBody.safeParse({ decision: "approve" }).success).toBe(true)
    expect(AdminReviewCertificateBody.parse({ decision: "reject", reason: " expired " })).toEqual({ decision: "reject", reason: "expired" })
    expect(paths(AdminReviewCertificateBody.safeParse({ decision: "reject", reason: " " }))).toEqual(["reason"])
    expect(paths(AdminReviewCertificateBody.safeParse({ decision: "maybe" }))).toEqual(["decision"])
    expect(paths(AdminReviewCertificateBody.safeParse({ decision: "approve", reason: "fine" }))).toEqual(["reason"])
  })
})
