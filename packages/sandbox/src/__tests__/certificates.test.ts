import { CertificateList, CertificateRecord } from "@medusa-sales-tax/contract"
import { C, CONN, call, certBody, makeSandbox, setClock, type TestSandbox } from "./helpers"

let s: TestSandbox
beforeEach(async () => {
  s = await makeSandbox()
})
afterEach(() => s.close())

const createCert = (over: Record<string, unknown> = {}) => call(s, "POST", `${C()}/exemption-certificates`, { body: certBody(over) })
const list = (q: string) => call(s, "GET", `/tax/exemption-certificates${q}`)

async function listAll(q: string, limit: number): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | null = null
  for (let guard = 0; guard < 100; guard++) {
    const r = await list(`?limit=${limit}${q}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)
    expect(r.status).toBe(200)
    const page = CertificateList.parse(r.body)
    expect(page.items.length).toBeLessThanOrEqual(limit)
    ids.push(...page.items.map((c) => c.certificateId))
    cursor = page.nextCursor
    if (!cursor) break
  }
  return ids
}

describe("exemption certificates", () => {
  it("creates (201), gets (200), disables (204, twice too) and keeps disabledAt", async () => {
    await setClock(s, "2026-02-01T10:00:00Z")
    const c = await createCert({ reasonDescription: "resale of goods", customerBusinessType: "Agricultural_Forestry_Fishing_Hunting" })
    expect(c.status).toBe(201)
    const rec = CertificateRecord.parse(c.body)
    expect(rec).toMatchObject({
      connectionId: CONN,
      customerId: "cust-1",
      disabledAt: null,
      singlePurchase: false,
      createdDate: "2026-02-01T10:00:00.000Z",
      customerBusinessType: "AgriculturalForestryFishingHunting",
    })
    expect(rec.certificateId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect((await call(s, "GET", `${C()}/exemption-certificates/${rec.certificateId}`)).body).toEqual(c.body)
    await setClock(s, "2026-02-02T10:00:00Z")
    const d = await call(s, "DELETE", `${C()}/exemption-certificates/${rec.certificateId}`)
    expect(d.status).toBe(204)
    expect(d.raw).toBe("")
    await setClock(s, "2026-02-03T10:00:00Z")
    expect((await call(s, "DELETE", `${C()}/exemption-certificates/${rec.certificateId}`)).status).toBe(204)
    const g = await call(s, "GET", `${C()}/exemption-certificates/${rec.certificateId}`)
    expect(g.body.disabledAt).toBe("2026-02-02T10:00:00.000Z")
    expect((await call(s, "GET", `${C()}/exemption-certificates/not-a-cert`)).status).toBe(404)
    expect((await call(s, "DELETE", `${C()}/exemption-certificates/not-a-cert`)).status).toBe(404)
  })

  it("rejects invalid certificates with located errors", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ reason: "Because" }, "body.reason"],
      [{ reason: "Other" }, "body.reasonDescription"],
      [{ customerBusinessType: "Other" }, "body.customerBusinessDescription"],
      [{ states: [] }, "body.states"],
      [{ states: [{ abbreviation: "Washington" }] }, "body.states[0].abbreviation"],
      [{ states: [{ abbreviation: "WA" }, { abbreviation: "WA" }] }, "body.states[1].abbreviation"],
      [{ customerName: "" }, "body.customerName"],
      [{ customerId: "a@b.c" }, "body.customerId"],
      [{ address: { line1: "x", city: "y", state: "WA", zip: "123" } }, "body.address.zip"],
    ]
    for (const [over, loc] of cases) {
      const r = await createCert(over)
      expect([loc, r.status]).toEqual([loc, 422])
      expect(r.body.errors.map((e: { location: string }) => e.location)).toContain(loc)
    }
    expect((await list("?limit=100")).body.items).toEqual([])
  })

  it("disabled certificates are listed only with disabled=true", async () => {
    const a = (await createCert({ customerId: "a" })).body.certificateId
    const b = (await createCert({ customerId: "b" })).body.certificateId
    await call(s, "DELETE", `${C()}/exemption-certificates/${b}`)
    expect((await list("")).body.items.map((c: any) => c.certificateId)).toEqual([a])
    expect((await list("?disabled=false")).body.items.map((c: any) => c.certificateId)).toEqual([a])
    expect((await list("?disabled=true")).body.items.map((c: any) => c.certificateId)).toEqual([b])
  })

  it("filters by customerId and connectionId; sorts by id or createdDate in both directions; pages with the cursor", async () => {
    const created: { id: string; createdDate: string; customerId: string }[] = []
    for (let i = 0; i < 23; i++) {
      await setClock(s, new Date(Date.UTC(2026, 0, 1, 0, 0, 23 - i)).toISOString()) // later creations get earlier dates
      const customerId = i % 3 === 0 ? "pager" : `other-${i}`
      const r = await createCert({ customerId })
      created.push({ id: r.body.certificateId, createdDate: r.body.createdDate, customerId })
    }
    const byId = [...created].sort((x, y) => (x.id < y.id ? -1 : 1)).map((c) => c.id)
    const byDate = [...created].sort((x, y) => (x.createdDate < y.createdDate ? -1 : 1)).map((c) => c.id)

    // default: sortBy id, descending, limit 20
    const first = await list("")
    expect(first.body.items).toHaveLength(20)
    expect(first.body.items.map((c: any) => c.certificateId)).toEqual([...byId].reverse().slice(0, 20))
    expect(first.body.nextCursor).toEqual(expect.any(String))

    for (const limit of [1, 5, 7, 100]) {
      expect(await listAll("&ascending=true", limit)).toEqual(byId)
      expect(await listAll("", limit)).toEqual([...byId].reverse())
      expect(await listAll("&sortBy=createdDate&ascending=true", limit)).toEqual(byDate)
      expect(await listAll("&sortBy=createdDate", limit)).toEqual([...byDate].reverse())
    }
    const pagers = created
      .filter((c) => c.customerId === "pager")
      .map((c) => c.id)
      .sort()
    expect(await listAll("&ascending=true&customerId=pager", 2)).toEqual(pagers)
    expect(await listAll(`&ascending=true&connectionId=${CONN}`, 50)).toEqual(byId)

    const zero = await list("?limit=0")
    expect(zero.status).toBe(200)
    expect(zero.body).toEqual({ items: [], nextCursor: null })
  })

  it("limit 0..100, booleans, sortBy and cursor are validated (422 at query.*)", async () => {
    for (const [q, loc] of [
      ["?limit=101", "query.limit"],
      ["?limit=-1", "query.limit"],
      ["?limit=abc", "query.limit"],
      ["?limit=1.5", "query.limit"],
      ["?ascending=yes", "query.ascending"],
      ["?disabled=1", "query.disabled"],
      ["?sortBy=name", "query.sortBy"],
      ["?connectionId=short", "query.connectionId"],
      ["?cursor=%%%", "query.cursor"],
      ["?cursor=eyJ4IjoxfQ", "query.cursor"],
    ] as const) {
      const r = await list(q)
      expect([q, r.status]).toEqual([q, 422])
      expect(r.body.errors[0].location).toBe(loc)
    }
    expect((await list("?limit=100")).status).toBe(200)
    expect((await list("?limit=0")).status).toBe(200)
    // a cursor from one sort order does not work with another
    for (let i = 0; i < 3; i++) await createCert({ customerId: `c${i}` })
    const p = await list("?limit=1")
    const mixed = await list(`?limit=1&sortBy=createdDate&cursor=${p.body.nextCursor}`)
    expect(mixed.status).toBe(422)
  })
})
