import { OrderRecord } from "@medusa-sales-tax/contract"
import { voidCutoff } from "../cutoff"
import { C, SEATTLE, call, makeSandbox, orderBody, setClock, type TestSandbox } from "./helpers"

let s: TestSandbox
beforeAll(async () => {
  s = await makeSandbox()
})
afterAll(() => s.close())

const create = (over: Record<string, unknown> = {}, query = "") => call(s, "POST", `${C()}/orders${query}`, { body: orderBody(over) })
const del = (id: string) => call(s, "DELETE", `${C()}/orders/${id}`)
const get = (id: string, q = "") => call(s, "GET", `${C()}/orders/${id}${q}`)

describe("create / get / update orders", () => {
  beforeEach(() => setClock(s, "2026-01-20T12:00:00Z"))

  it("records an order with the tax the caller states and returns it on GET", async () => {
    const r = await create({ orderId: "o-basic", channel: "amazon", deliveredBySeller: true })
    expect(r.status).toBe(201)
    const o = OrderRecord.parse(r.body)
    expect(o).toMatchObject({
      orderId: "o-basic",
      kind: "order",
      channel: "amazon",
      deliveredBySeller: true,
      excludeFromFiling: false,
      completedDate: "2026-01-15T12:00:00.000Z",
    })
    expect(o.lineItems.map((l) => l.tax)).toEqual(orderBody().lineItems.map((l) => l.tax))
    expect(r.body.refunds).toBeUndefined()
    const g = await get("o-basic")
    expect(g.status).toBe(200)
    expect(g.body).toEqual(r.body)
  })

  it("a duplicate orderId is 400", async () => {
    expect((await create({ orderId: "o-dup" })).status).toBe(201)
    const r = await create({ orderId: "o-dup" })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ status: 400, errors: [{ location: "body.orderId", value: "o-dup" }] })
  })

  it("completedDate at creation must not be after the request time", async () => {
    expect((await create({ orderId: "o-now", completedDate: "2026-01-20T12:00:00Z" })).status).toBe(201)
    const r = await create({ orderId: "o-future", completedDate: "2026-01-20T12:00:00.001Z" })
    expect(r.status).toBe(422)
    expect(r.body.errors[0]).toMatchObject({ location: "body.completedDate", value: "2026-01-20T12:00:00.001Z" })
    expect((await get("o-future")).status).toBe(404)
  })

  it("a standalone credit (kind credit) is stored with negative amounts and needs completedDate", async () => {
    const r = await create({ orderId: "credit-1", kind: "credit" })
    expect(r.status).toBe(201)
    expect(r.body.kind).toBe("credit")
    expect(r.body.lineItems.every((l: any) => l.price < 0 && l.tax.amount < 0)).toBe(true)
    expect(r.body.lineItems.map((l: any) => -l.tax.amount)).toEqual(orderBody().lineItems.map((l) => l.tax.amount))
    const noDate = await create({ orderId: "credit-2", kind: "credit", completedDate: undefined })
    expect(noDate.status).toBe(422)
    expect(noDate.body.errors[0].location).toBe("body.completedDate")
    expect((await create({ orderId: "credit-3", kind: "refund" })).status).toBe(422)
  })

  it("excludeFromFiling and completed:false are kept", async () => {
    const r = await create({ orderId: "o-excl", excludeFromFiling: true })
    expect(r.body.excludeFromFiling).toBe(true)
    const d = await create({ orderId: "o-deferred", completed: false, completedDate: undefined })
    expect(d.status).toBe(201)
    expect(d.body.completedDate).toBeNull()
    const bad = await create({ orderId: "o-contradiction", completed: false })
    expect(bad.status).toBe(422)
  })

  it("PATCH sets completedDate on a deferred order; unknown order is 404; bad date 422", async () => {
    await create({ orderId: "o-patch", completed: false, completedDate: undefined })
    const p = await call(s, "PATCH", `${C()}/orders/o-patch`, { body: { completedDate: "2026-01-19T08:00:00-05:00" } })
    expect(p.status).toBe(200)
    expect(p.body.completedDate).toBe("2026-01-19T13:00:00.000Z")
    expect((await get("o-patch")).body.completedDate).toBe("2026-01-19T13:00:00.000Z")
    expect((await call(s, "PATCH", `${C()}/orders/nope`, { body: { completedDate: "2026-01-19T08:00:00Z" } })).status).toBe(404)
    const bad = await call(s, "PATCH", `${C()}/orders/o-patch`, { body: { completedDate: "yesterday" } })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].location).toBe("body.completedDate")
  })

  it("expand=refunds adds refunds; other expand values are 422", async () => {
    await create({ orderId: "o-exp" })
    const g = await get("o-exp", "?expand=refunds")
    expect(g.body.refunds).toEqual([])
    const bad = await get("o-exp", "?expand=lines")
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].location).toBe("query.expand")
  })

  it("addressAutocomplete replaces the chosen addresses with the verified form", async () => {
    const messy = { line1: "400  Broad St", city: "seattle", state: "WA", zip: "98109" }
    const r = await create({ orderId: "o-auto", destination: messy, origin: messy }, "?addressAutocomplete=destination")
    expect(r.status).toBe(201)
    expect(r.body.destination.city).toBe("Seattle")
    expect(r.body.origin.city).toBe("seattle")
    const all = await create({ orderId: "o-auto-all", destination: messy, origin: messy }, "?addressAutocomplete=all")
    expect([all.body.origin.city, all.body.destination.city]).toEqual(["Seattle", "Seattle"])
    const none = await create({ orderId: "o-auto-none", destination: messy })
    expect(none.body.destination.city).toBe("seattle")
    const unknownZip = await create(
      { orderId: "o-auto-bad", destination: { ...SEATTLE, zip: "00000" } },
      "?addressAutocomplete=destination",
    )
    expect(unknownZip.status).toBe(422)
    expect(unknownZip.body.errors[0].location).toBe("body.destination.zip")
    expect((await create({ orderId: "o-auto-x" }, "?addressAutocomplete=everything")).status).toBe(422)
  })
})

describe("void", () => {
  it("a voided order is 404, its orderId reusable, and voiding again is 204", async () => {
    await setClock(s, "2026-01-20T12:00:00Z")
    await create({ orderId: "v-1" })
    await call(s, "POST", `${C()}/orders/refunds/v-1`, { body: { items: [{ itemId: "a", quantity: 1 }], idempotencyKey: "k-v1" } })
    expect((await del("v-1")).status).toBe(204)
    expect((await get("v-1")).status).toBe(404)
    expect((await del("v-1")).status).toBe(204)
    // refunds went with it: the reused orderId starts clean, the key is free again
    const again = await create({ orderId: "v-1" })
    expect(again.status).toBe(201)
    expect((await get("v-1", "?expand=refunds")).body.refunds).toEqual([])
    const r = await call(s, "POST", `${C()}/orders/refunds/v-1`, {
      body: { items: [{ itemId: "a", quantity: 1 }], idempotencyKey: "k-v1" },
    })
    expect(r.status).toBe(201)
    expect((await del("never-existed")).status).toBe(404)
  })

  // completedDate → the cutoff instant in UTC, derived by hand from Eastern time:
  // EST is UTC-5, EDT (from the 2nd Sunday of March to the 1st Sunday of November) is UTC-4.
  const edges: [string, string, string][] = [
    ["January, EST", "2026-01-15T17:00:00Z", "2026-02-10T05:00:00Z"],
    ["late January 31 Eastern that is February in UTC", "2026-02-01T03:00:00Z", "2026-02-10T05:00:00Z"],
    ["February, cutoff after DST starts (March 8 2026)", "2026-02-20T12:00:00Z", "2026-03-10T04:00:00Z"],
    ["October, cutoff after DST ends (November 1 2026)", "2026-10-31T12:00:00Z", "2026-11-10T05:00:00Z"],
    ["December, cutoff in the next year", "2026-12-31T23:00:00Z", "2027-01-10T05:00:00Z"],
    ["March 1 00:30 Eastern (EST)", "2026-03-01T05:30:00Z", "2026-04-10T04:00:00Z"],
  ]
  it.each(edges)("cutoff at its edge in Eastern time: %s", async (_label, completed, cutoff) => {
    expect(voidCutoff(new Date(completed)).toISOString()).toBe(new Date(cutoff).toISOString())
    const id = `edge-${completed}`
    const id2 = `edge2-${completed}`
    await setClock(s, completed)
    expect((await create({ orderId: id, completedDate: completed })).status).toBe(201)
    expect((await create({ orderId: id2, completedDate: completed })).status).toBe(201)
    // one millisecond before the cutoff: voidable
    await setClock(s, new Date(new Date(cutoff).getTime() - 1).toISOString())
    expect((await del(id)).status).toBe(204)
    // at the cutoff: 422, order unchanged
    await setClock(s, cutoff)
    const late = await del(id2)
    expect(late.status).toBe(422)
    expect(late.headers["content-type"]).toMatch(/problem\+json/)
    expect((await get(id2)).status).toBe(200)
  })

  it("orders without completedDate, excluded from filing, or completed in the current month void any time", async () => {
    await setClock(s, "2026-01-20T12:00:00Z")
    await create({ orderId: "any-1", completed: false, completedDate: undefined })
    await create({ orderId: "any-2", excludeFromFiling: true })
    await create({ orderId: "late-1" })
    await setClock(s, "2029-06-01T00:00:00Z")
    expect((await del("any-1")).status).toBe(204)
    expect((await del("any-2")).status).toBe(204)
    expect((await del("late-1")).status).toBe(422)
    await setClock(s, "2026-05-31T23:00:00Z")
    await create({ orderId: "cur-month", completedDate: "2026-05-01T04:30:00Z" }) // May 1 00:30 EDT
    expect((await del("cur-month")).status).toBe(204)
  })

  it("a PATCHed completedDate moves the cutoff", async () => {
    await setClock(s, "2026-01-20T12:00:00Z")
    await create({ orderId: "p-cut", completed: false, completedDate: undefined })
    await call(s, "PATCH", `${C()}/orders/p-cut`, { body: { completedDate: "2026-01-05T12:00:00Z" } })
    await setClock(s, "2026-02-10T05:00:00Z")
    expect((await del("p-cut")).status).toBe(422)
  })
})
