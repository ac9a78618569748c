import { AdminTicApplyBody, AdminTicImportBody } from "./routes"

const paths = (r: { error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.join("."))

describe("bulk TIC validators", () => {
  it("the dry run and the apply take the file's text (and the apply a mode, default all)", () => {
    expect(AdminTicImportBody.safeParse({ csv: "id,tic\n" }).success).toBe(true)
    expect(AdminTicApplyBody.parse({ csv: "id,tic\n" }).mode).toBe("all")
    expect(paths(AdminTicApplyBody.safeParse({ csv: "", mode: "some" }))).toEqual(["csv", "mode"])
  })

  it("every other field is refused at its own name, not as an unknown key of the whole body", () => {
    expect(paths(AdminTicImportBody.safeParse({ csv: "id,tic\n", mode: "all" }))).toEqual(["mode"])
    expect(paths(AdminTicApplyBody.safeParse({ csv: "id,tic\n", query: "y", extra: null }))).toEqual(["query", "extra"])
  })
})
