import { ActivityQuery, activityFilter } from "./activity"

describe("the activity log's query", () => {
  it("refuses an unknown field at its own location", () => {
    const r = ActivityQuery.safeParse({ limit: "5", extra: "x" })
    expect(r.success).toBe(false)
    expect(r.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([["extra", "not a field of this request"]])
  })

  it("becomes the module's filter: a status class, errors only", () => {
    const q = ActivityQuery.parse({ status: "4xx", errors_only: "true", cart_id: "cart_1" })
    expect(q).toMatchObject({ limit: 50, offset: 0 })
    expect(activityFilter(q)).toEqual({
      $and: [
        { cart_id: "cart_1" },
        { status: { $gte: 400, $lt: 500 } },
        { $or: [{ status: null }, { status: { $gte: 400 } }, { error_code: { $ne: null } }] },
      ],
    })
  })
})
