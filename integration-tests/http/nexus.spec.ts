/**
 * Economic nexus (Settings → Sales Tax → Nexus): real Medusa and PostgreSQL. Orders are made with
 * the Order Module (no checkout: nexus reads what Medusa holds, however the order came) into several
 * states across two periods, then dated with SQL. Shows the admin route's figures per state and
 * period, the ordering, the registrations, the 80 % / 100 % warnings once per state and period, and
 * what is not counted (canceled, drafts, other countries, outside the period; a territory or APO ZIP
 * whatever state was typed; other currencies, listed apart). It
 * is also the contract test of the one SQL statement that reads the Order Module's tables
 * (src/medusa/order-sales-by-state.ts).
 *
 * TICs for a whole catalogue (Settings → Sales Tax → TICs; was tics-bulk.spec.ts), on the same boot: the
 * sandbox's TIC search is the service's TIC list; its request counts prove one lookup per distinct TIC.
 * The CSV round trip: export → change → import preview (changes, unchanged, refused lines with line,
 * column and reason) → apply (all or nothing, or the valid lines only, with progress) → export again.
 * And hostile files.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { useSalesTaxSandbox } from "../helpers"
import { adminAuth, WAIT_GUARD_MS } from "../filing-helpers/medusa"
import { createProductCategoriesWorkflow, createProductsWorkflow, createProductTypesWorkflow } from "@medusajs/core-flows"
import { parse } from "csv-parse/sync"
import { SALES_TAX_MODULE } from "../../src/modules/sales-tax"
import { clearTicCache } from "../../src/tics/lookup"
import { TIC_IMPORT_LOCK } from "../../src/tics/medusa"
import { logNexusWarnings } from "../../src/nexus/medusa"
import type { ExposureRow } from "../../src/nexus/exposure"

// a hang guard only (issue 29): a test ends as soon as its work does, and a loaded machine only makes
// that slower (under two busy loops and four other runs, checkout-block's outage test took over 120 s)
jest.setTimeout(15 * 60_000)

const st = useSalesTaxSandbox()

type Csv = Record<string, string>[]
const rowsOf = (csv: string): Csv => parse(csv, { columns: true, bom: true }) as Csv

/** The day the report is computed on: windows 2025 and 2026 to date, trailing 12 months from 2025-06-16. */
const DAY = "2026-06-15"

interface Placed {
  state: string | null
  zip: string
  country?: string
  currency?: string
  at: string
  items: [price: number, qty: number][]
  shipping?: number
  canceled?: boolean
}

const ORDERS: Placed[] = [
  // Texas ($500,000, last 12 months): crossed, with a typed name and a blank state read from the ZIP
  { state: "TX", zip: "78701", at: "2026-03-01", items: [[200_000, 1]] },
  { state: "Texas", zip: "78701", at: "2025-12-01", items: [[150_000, 1]] },
  {
    state: "",
    zip: "78702",
    at: "2026-05-01",
    items: [
      [100_000, 1],
      [50_000, 1],
    ],
    shipping: 50,
  },
  { state: "TX", zip: "78701", at: "2025-05-01", items: [[900_000, 1]] }, // before the 12 months: not counted
  { state: "TX", zip: "78701", at: "2026-04-01", items: [[900_000, 1]], canceled: true }, // canceled: not counted
  // California ($500,000, previous or current year): 90 % in 2026 to date
  { state: "CA", zip: "94103", at: "2025-07-01", items: [[200_000, 1]] },
  { state: "california", zip: "94103", at: "2026-02-01", items: [[225_000, 2]] },
  // Washington ($100,000, previous or current year): 85 % in 2025 (items and shipping)
  { state: "WA", zip: "98109", at: "2025-03-01", items: [[42_000, 2]], shipping: 1_000 },
  { state: "WA", zip: "98109", at: "2024-11-01", items: [[500_000, 1]] }, // 2024: outside both years
  // New York ($500,000 AND 100 orders): past the sales test with 2 orders: 2 %
  { state: "NY", zip: "10001", at: "2025-11-01", items: [[700_000, 1]] },
  { state: "N.Y.", zip: "10001", at: "2025-12-01", items: [[10, 1]] },
  // not counted anywhere: another country; another currency (listed apart, per currency)
  { state: "ON", zip: "M5V 2T6", country: "ca", at: "2026-03-01", items: [[900_000, 1]] },
  { state: "TX", zip: "78701", currency: "eur", at: "2026-03-01", items: [[900_000, 1]] },
  { state: "CA", zip: "94103", currency: "cad", at: "2025-08-01", items: [[1_000, 2]] },
  // no state and no readable ZIP: counted in no state, shown as such
  { state: "", zip: "", at: "2026-01-10", items: [[1_234.5, 1]] },
  // a typed state with a Puerto Rico or an APO ZIP: the ZIP decides, counted in no state (was the typed state)
  { state: "TX", zip: "00601", at: "2026-02-01", items: [[300_000, 1]] },
  { state: "CA", zip: "96201", at: "2026-02-01", items: [[300_000, 1]] },
]

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    let auth: { headers: Record<string, string> }
    const any = { validateStatus: () => true }
    const report = async (date = DAY) => {
      const r = await api.get(`/admin/sales-tax/nexus?date=${date}`, auth)
      expect(r.status).toBe(200)
      return r.data.nexus as {
        asOf: string
        today: string
        rows: ExposureRow[]
        unresolved: { window: { key: string }; sales: string; transactions: number }[]
        notUsd: { window: { key: string }; byCurrency: { currency: string; sales: string; transactions: number }[] }[]
      }
    }
    const row = (rows: ExposureRow[], state: string) => rows.find((r) => r.state === state)!

    beforeAll(async () => {
      const container = getContainer()
      auth = await adminAuth(container)
      const orders = container.resolve(Modules.ORDER) as any
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as any
      for (const [i, o] of ORDERS.entries()) {
        const [created] = await orders.createOrders([
          {
            currency_code: o.currency ?? "usd",
            email: `nexus${i}@example.com`,
            shipping_address: {
              first_name: "N",
              address_1: "1 Main St",
              city: "Town",
              province: o.state,
              postal_code: o.zip,
              country_code: o.country ?? "us",
            },
            items: o.items.map(([unit_price, quantity], j) => ({ title: `item ${i}.${j}`, unit_price, quantity })),
            shipping_methods: o.shipping ? [{ name: "Ground", amount: o.shipping }] : [],
          },
        ])
        if (o.canceled) await orders.cancel(created.id)
        await pg.raw(`update "order" set created_at = ?::timestamptz where id = ?`, [`${o.at}T12:00:00Z`, created.id])
      }
    })

    // the TIC pages' catalogue (no orders; the nexus orders carry no product): seeded beside the orders, before
    // the first test, as the runner copies the database then and restores that copy before every test
    let ticAuth: { headers: Record<string, string> }
    const ids: Record<string, string> = {}
    beforeAll(async () => {
      const container = getContainer()
      ticAuth = await adminAuth(container)
      const { result: types } = await createProductTypesWorkflow(container).run({ input: { product_types: [{ value: "Apparel" }] } })
      const { result: cats } = await createProductCategoriesWorkflow(container).run({
        input: { product_categories: [{ name: "Pants", handle: "pants", is_active: true }] },
      })
      ids.type = types[0]!.id
      ids.cat = cats[0]!.id
      const { result: products } = await createProductsWorkflow(container).run({
        input: {
          products: [
            {
              title: "Sweatpants",
              handle: "sweatpants",
              type_id: ids.type,
              category_ids: [ids.cat],
              options: [{ title: "Size", values: ["M"] }],
            },
            { title: "Gift card", handle: "gift-card", options: [{ title: "Size", values: ["M"] }] },
            { title: '=HYPERLINK("http://evil","x")', handle: "formula", options: [{ title: "Size", values: ["M"] }] },
          ],
        },
      })
      for (const p of products) ids[p.handle] = p.id
      const svc = container.resolve(SALES_TAX_MODULE) as { setTic(t: string, id: string, tic: number | null): Promise<unknown> }
      await svc.setTic("product", ids["gift-card"]!, 10005)
    })

    describe("nexus", () => {
      it("per state: sales and orders over the state's own period, the share reached, ordered by what needs action", async () => {
        const r = await report()
        expect(r.today).toBe(DAY)
        expect(r.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect(r.rows).toHaveLength(51)
        // Texas: 200,000 + 150,000 (typed "Texas") + 150,050 (blank state, ZIP 78702) in the last 12 months
        expect(row(r.rows, "TX")).toMatchObject({
          sales: "500050.00",
          transactions: 3,
          status: "over",
          share: 1.0001,
          window: { label: "last 12 months" },
        })
        expect(row(r.rows, "CA")).toMatchObject({
          sales: "450000.00",
          transactions: 1,
          status: "near",
          share: 0.9,
          window: { key: "year:2026" },
        })
        expect(row(r.rows, "WA")).toMatchObject({
          sales: "85000.00",
          transactions: 1,
          status: "near",
          share: 0.85,
          window: { key: "year:2025" },
        })
        expect(row(r.rows, "NY")).toMatchObject({ sales: "700010.00", transactions: 2, status: "below", share: 0.02 })
        expect(row(r.rows, "OR")).toMatchObject({ status: "no_sales_tax" })
        expect(r.rows.slice(0, 3).map((x) => x.state)).toEqual(["TX", "CA", "WA"])
        // the order with no state and no ZIP, and the territory and APO ZIPs, are shown, not dropped
        expect(r.unresolved.find((u) => u.window.key === "year:2026")).toMatchObject({ sales: "601234.50", transactions: 3 })
        // US orders not in USD: listed apart per currency, never summed with a state's dollars
        expect(r.notUsd.map((u) => [u.window.key, u.byCurrency])).toEqual([
          ["year:2025", [{ currency: "CAD", sales: "2000.00", transactions: 1 }]],
          ["year:2026", [{ currency: "EUR", sales: "900000.00", transactions: 1 }]],
        ])
      })

      it("a period later, the same orders fall out of the windows", async () => {
        const r = await report("2027-06-15")
        expect(row(r.rows, "TX")).toMatchObject({ transactions: 0, status: "below" })
        expect(row(r.rows, "CA")).toMatchObject({ sales: "450000.00", window: { key: "year:2026" }, status: "near" })
        expect(row(r.rows, "WA")).toMatchObject({ transactions: 0, status: "below" })
      })

      it("warns once per state, level and period; a registered state is not warned and goes last", async () => {
        const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER) as { warn: (m: string) => void }
        const warn = jest.spyOn(logger, "warn")
        try {
          const first = await logNexusWarnings(getContainer(), new Date(`${DAY}T12:00:00Z`))
          expect(first.map((w) => [w.state, w.level, w.period])).toEqual([
            ["TX", 100, "2026"],
            ["CA", 80, "2026"],
            ["WA", 80, "2025"],
          ])
          const logged = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.startsWith("sales-tax nexus:"))
          expect(logged).toHaveLength(3)
          expect(logged[0]).toContain("Texas (TX) has passed its economic nexus threshold")
          expect(await logNexusWarnings(getContainer(), new Date(`${DAY}T12:00:00Z`))).toEqual([])
        } finally {
          warn.mockRestore()
        }

        const marked = await api.post("/admin/sales-tax/nexus/registrations", { state: "TX", registered: true }, auth)
        expect(marked.status).toBe(200)
        const r = await report()
        expect(row(r.rows, "TX")).toMatchObject({ registered: true, status: "registered" })
        expect(r.rows.slice(0, 2).map((x) => x.state)).toEqual(["CA", "WA"])
        await api.post("/admin/sales-tax/nexus/registrations", { state: "TX", registered: false }, auth)
        expect(row((await report()).rows, "TX").status).toBe("over")

        // a double click (or two admins) on a state with no row yet (no sales, no warning): all answer 200, one row
        const clicks = await Promise.all(
          Array.from({ length: 12 }, () =>
            api.post("/admin/sales-tax/nexus/registrations", { state: "VT", registered: true }, { ...auth, ...any }),
          ),
        )
        expect(clicks.map((c) => c.status)).toEqual(Array(12).fill(200))
        expect(row((await report()).rows, "VT")).toMatchObject({ registered: true })
        const salesTax = getContainer().resolve(SALES_TAX_MODULE) as { listNexusStates(f: object): Promise<unknown[]> }
        expect(await salesTax.listNexusStates({ state: "VT" })).toHaveLength(1)
      })

      it("refuses bad input with located errors", async () => {
        const name = await api.post("/admin/sales-tax/nexus/registrations", { state: "Texas", registered: true }, { ...auth, ...any })
        expect(name.status).toBe(400)
        expect(name.data.errors[0]).toMatchObject({ location: "body.state" })
        const extra = await api.post("/admin/sales-tax/nexus/registrations", { state: "TX", registered: "yes" }, { ...auth, ...any })
        expect(extra.status).toBe(400)
        expect(extra.data.errors.map((e: { location: string }) => e.location)).toContain("body.registered")
        const date = await api.get("/admin/sales-tax/nexus?date=9999-01-01", { ...auth, ...any })
        expect(date.status).toBe(400)
        expect(date.data.errors[0]).toMatchObject({ location: "query.date" })
      })
    })

    describe("TICs for a whole catalogue", () => {
      const exportCsv = async () => {
        const r = await api.get("/admin/sales-tax/tics/export", ticAuth)
        expect(r.status).toBe(200)
        expect(r.headers["content-type"]).toContain("text/csv")
        return String(r.data)
      }
      const waitForImport = async () => {
        for (const until = Date.now() + WAIT_GUARD_MS; Date.now() < until;) {
          const r = await api.get("/admin/sales-tax/tics/import/apply", ticAuth)
          if (r.data.job && r.data.job.status !== "running") return r.data.job
          await new Promise((res) => setTimeout(res, 100))
        }
        throw new Error("the import did not finish")
      }

      it("exports every product with its TIC, the TIC it resolves to and where from; formulas defused", async () => {
        const rows = rowsOf(await exportCsv())
        const by = (h: string) => rows.find((r) => r.handle === h)!
        expect(by("sweatpants")).toMatchObject({
          id: ids.sweatpants,
          product_type: "Apparel",
          categories: "pants",
          tic: "",
          resolved_tic: "0",
          resolved_from: "default",
        })
        expect(by("gift-card")).toMatchObject({ tic: "10005", resolved_tic: "10005", resolved_from: "product" })
        expect(by("formula").title).toBe(`'=HYPERLINK("http://evil","x")`)
      })

      it("previews an import: changes, unchanged and every refused line; applies all or nothing, or the valid lines", async () => {
        clearTicCache()
        await st.sandbox.resetCounts()
        const file = [
          "target,id,handle,tic",
          "product,,sweatpants,20010", // 2 change
          `product,${ids["gift-card"]},,10005`, // 3 unchanged
          "product_type,,Apparel,40030", // 4 change
          "category,,pants,20010", // 5 change (same TIC as line 2: one lookup)
          "product,,no-such-product,20010", // 6 refused: unknown handle
          "product,,formula,987654321", // 7 refused: not in the service's list
          "product,prod_,,abc", // 8 refused: not a TIC
        ].join("\r\n")
        const preview = await api.post("/admin/sales-tax/tics/import", { csv: file }, ticAuth)
        expect(preview.status).toBe(200)
        const plan = preview.data.plan
        expect(plan.changes.map((c: { row: number; target: string; to: number | null }) => [c.row, c.target, c.to])).toEqual([
          [2, "product", 20010],
          [4, "product_type", 40030],
          [5, "product_category", 20010],
        ])
        expect(plan.unchanged).toBe(1)
        expect(plan.refused.map((r: { row: number; column: string }) => [r.row, r.column])).toEqual([
          [6, "handle"],
          [7, "tic"],
          [8, "tic"],
        ])
        expect(plan.refused[1].reason).toBe("TIC 987654321 is not in the service's TIC list")
        // one TIC lookup per distinct TIC (20010, 10005, 40030, 987654321)
        expect((await st.sandbox.counts()).searchTics).toBe(4)
        // the same file previewed again asks the service nothing (nor do the applies below)
        expect((await api.post("/admin/sales-tax/tics/import", { csv: file }, ticAuth)).data.plan.hash).toBe(plan.hash)
        expect((await st.sandbox.counts()).searchTics).toBe(4)

        // all or nothing: refused lines → nothing applied
        const all = await api.post("/admin/sales-tax/tics/import/apply", { csv: file }, { ...ticAuth, ...any })
        expect(all.status).toBe(422)
        expect(all.data.errors.map((e: { location: string }) => e.location)).toEqual([
          "csv.line 6.handle",
          "csv.line 7.tic",
          "csv.line 8.tic",
        ])
        const svc = getContainer().resolve(SALES_TAX_MODULE) as { getTics(t: string, ids: string[]): Promise<Record<string, number>> }
        expect(await svc.getTics("product", [ids.sweatpants!])).toEqual({})

        // the valid lines, explicitly
        const valid = await api.post("/admin/sales-tax/tics/import/apply", { csv: file, mode: "valid_rows" }, ticAuth)
        expect(valid.status).toBe(202)
        expect(valid.data.plan).toEqual({ changes: 3, unchanged: 1, refused: 3 })
        expect(await waitForImport()).toMatchObject({ status: "done", total: 3, done: 3, error: null, changed: [] })
        expect((await st.sandbox.counts()).searchTics).toBe(4)
        expect(await svc.getTics("product", [ids.sweatpants!])).toEqual({ [ids.sweatpants!]: 20010 })
        expect(await svc.getTics("product_type", [ids.type!])).toEqual({ [ids.type!]: 40030 })
        expect(await svc.getTics("product_category", [ids.cat!])).toEqual({ [ids.cat!]: 20010 })

        // the round trip: export, change one line, import the export itself
        const rows = rowsOf(await exportCsv())
        expect(rows.find((r) => r.handle === "sweatpants")).toMatchObject({ tic: "20010", resolved_tic: "20010", resolved_from: "product" })
        const edited = (await exportCsv()).replace(
          `${ids.sweatpants},sweatpants,Sweatpants,Apparel,pants,20010,20010,product`,
          `${ids.sweatpants},sweatpants,Sweatpants,Apparel,pants,,40030,product_type`,
        )
        const again = await api.post("/admin/sales-tax/tics/import", { csv: edited }, ticAuth)
        expect(again.data.plan).toMatchObject({ changes: [{ targetId: ids.sweatpants, from: 20010, to: null }], refused: [] })
        expect(again.data.plan.unchanged).toBe(rows.length - 1)
        expect((await api.post("/admin/sales-tax/tics/import/apply", { csv: edited }, ticAuth)).status).toBe(202)
        expect(await waitForImport()).toMatchObject({ status: "done", done: 1 })
        const after = rowsOf(await exportCsv()).find((r) => r.handle === "sweatpants")
        expect(after).toMatchObject({ tic: "", resolved_tic: "40030", resolved_from: "product_type" })
      })

      it("budgets and races: a file over the TIC ceiling is refused at its line before any search; an apply whose plan differs from its preview is 409; one import at a time across instances (the lock); a target changed after the plan is not written, and reported", async () => {
        clearTicCache()
        await st.sandbox.resetCounts()
        // 1,001 different TICs: refused whole at the line of the 1,001st, no search made
        const many = ["id,tic", ...Array.from({ length: 1001 }, (_, i) => `prod_many${i},${30000 + i}`)].join("\n")
        const over = await api.post("/admin/sales-tax/tics/import", { csv: many }, ticAuth)
        expect(over.status).toBe(200)
        expect(over.data.plan).toMatchObject({ changes: [], unchanged: 0 })
        expect(over.data.plan.refused).toEqual([
          {
            row: 1002,
            column: "tic",
            reason: "more than 1000 different TICs (the service is asked about each): split the file before this line",
          },
        ])
        expect((await st.sandbox.counts()).searchTics ?? 0).toBe(0)

        const svc = getContainer().resolve(SALES_TAX_MODULE) as {
          getTics(t: string, ids: string[]): Promise<Record<string, number>>
          setTic(t: string, id: string, tic: number | null): Promise<unknown>
          applyTicChanges(c: { target_type: string; target_id: string; tic: number | null; from?: number | null }[]): Promise<unknown>
        }
        const file = `id,tic\n${ids.sweatpants},20010\n`
        const preview = (await api.post("/admin/sales-tax/tics/import", { csv: file }, ticAuth)).data.plan
        expect(preview.changes).toMatchObject([{ row: 2, from: null, to: 20010 }])
        // someone sets the TIC after the preview: the apply naming the preview is refused
        await svc.setTic("product", ids.sweatpants!, 40030)
        const stale = await api.post(
          "/admin/sales-tax/tics/import/apply",
          { csv: file, preview_hash: preview.hash },
          { ...ticAuth, ...any },
        )
        expect(stale.status).toBe(409)
        expect(stale.data.errors[0].location).toBe("body.preview_hash")
        expect(await svc.getTics("product", [ids.sweatpants!])).toEqual({ [ids.sweatpants!]: 40030 })

        // another instance's import holds the lock: 409 here, and the apply goes through once it is released
        const locking = getContainer().resolve(Modules.LOCKING)
        await locking.acquire(TIC_IMPORT_LOCK, { ownerId: "another-instance" })
        const fresh = (await api.post("/admin/sales-tax/tics/import", { csv: file }, ticAuth)).data.plan
        const busy = await api.post("/admin/sales-tax/tics/import/apply", { csv: file, preview_hash: fresh.hash }, { ...ticAuth, ...any })
        expect(busy.status).toBe(409)
        await locking.release(TIC_IMPORT_LOCK, { ownerId: "another-instance" })
        const applied = await api.post("/admin/sales-tax/tics/import/apply", { csv: file, preview_hash: fresh.hash }, ticAuth)
        expect(applied.status).toBe(202)
        expect(await waitForImport()).toMatchObject({ status: "done", changed: [] })
        expect(await svc.getTics("product", [ids.sweatpants!])).toEqual({ [ids.sweatpants!]: 20010 })

        // the write's own check: a change planned from another TIC than the target has is left, and returned
        expect(await svc.applyTicChanges([{ target_type: "product", target_id: ids.sweatpants!, tic: 10005, from: 40030 }])).toEqual([
          { target_type: "product", target_id: ids.sweatpants, now: 20010 },
        ])
        expect(await svc.getTics("product", [ids.sweatpants!])).toEqual({ [ids.sweatpants!]: 20010 })
        await svc.setTic("product", ids.sweatpants!, null)
        expect((await st.sandbox.counts()).searchTics).toBe(1)
      })

      it("refuses hostile and broken files with a located answer, applying nothing", async () => {
        const control = await api.post("/admin/sales-tax/tics/import", { csv: "id,tic\nprod_1,1\u0000\n" }, { ...ticAuth, ...any })
        expect(control.status).toBe(400)
        expect(control.data.errors[0]).toMatchObject({ location: "body.csv" })
        const broken = await api.post("/admin/sales-tax/tics/import", { csv: 'id,tic\n"prod_1,1\n' }, { ...ticAuth, ...any })
        expect(broken.status).toBe(200)
        expect(broken.data.plan).toMatchObject({ changes: [], refused: [{ column: "file" }] })
        const noColumns = await api.post("/admin/sales-tax/tics/import/apply", { csv: "a,b\n1,2\n" }, { ...ticAuth, ...any })
        expect(noColumns.status).toBe(422)
        expect(noColumns.data.errors.map((e: { location: string }) => e.location)).toEqual(["csv.line 1.tic", "csv.line 1.id"])
        const badMode = await api.post("/admin/sales-tax/tics/import/apply", { csv: "id,tic\n", mode: "some" }, { ...ticAuth, ...any })
        expect(badMode.status).toBe(400)
        expect(badMode.data.errors[0]).toMatchObject({ location: "body.mode" })
        const huge = await api.post("/admin/sales-tax/tics/import", { csv: "x".repeat(10 * 1024 * 1024) }, { ...ticAuth, ...any })
        expect(huge.status).toBe(413)
      })
    })
  },
})
