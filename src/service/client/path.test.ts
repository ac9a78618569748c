import { buildPath, segmentProblem } from "./call"

describe("buildPath", () => {
  it("percent-encodes every parameter as one segment", () => {
    expect(buildPath("/tax/connections/:connectionId/orders/:orderId", { connectionId: "c-1", orderId: "a/b?c#d%e f" })).toEqual({
      path: "/tax/connections/c-1/orders/a%2Fb%3Fc%23d%25e%20f",
    })
    expect(buildPath("/x/:id", { id: "%2e%2e" })).toEqual({ path: "/x/%252e%252e" })
    expect(buildPath("/x/:id", { id: "..." })).toEqual({ path: "/x/..." })
  })

  it("refuses empty and dot segments with a located error", () => {
    for (const id of ["", ".", ".."]) {
      const r = buildPath("/tax/connections/:connectionId/exemption-certificates/:id", { connectionId: "c", id })
      expect(r).toEqual({ errors: [{ location: "path.id", message: expect.stringMatching(/^id must not be/), value: id }] })
    }
    expect(buildPath("/x/:id", {})).toEqual({ errors: [{ location: "path.id", message: "id must not be empty", value: "" }] })
  })

  it("segmentProblem accepts anything else", () => {
    for (const ok of ["a", ".a", "a.", "..a", " ", "%00"]) expect(segmentProblem(ok)).toBeUndefined()
  })
})
