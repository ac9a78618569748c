/**
 * npm run bench:tics — a bulk TIC import of 10,000 lines (goal: under 30 s on this machine), through
 * the admin routes of a booted Medusa: the dry run (POST /admin/sales-tax/tics/import), then the
 * apply (POST …/import/apply) until its job is done; and the export of the same catalogue. Not part
 * of `npm test`; run by scripts/run-tests.mjs (PostgreSQL) as a jest file. The service's TIC list is
 * the sandbox's (in process, on an ephemeral port).
 *   BENCH_TICS_ROWS (default 10000)
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { performance } from "node:perf_hooks"
import { loadavg } from "node:os"
import { useSalesTaxSandbox } from "../integration-tests/helpers"
import { adminAuth } from "../integration-tests/filing-helpers/medusa"

jest.setTimeout(900_000)

const ROWS = Number(process.env.BENCH_TICS_ROWS ?? 10_000)
const TICS = [20010, 40030, 31000, 10005, 30070]
const st = useSalesTaxSandbox()

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ api, getContainer }) => {
    it(`bulk TIC import of ${ROWS} lines`, async () => {
      const container = getContainer()
      const auth = await adminAuth(container)
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as { raw(sql: string): Promise<unknown> }
      // the catalogue: ROWS products (only what a TIC import reads of them)
      await pg.raw(
        `insert into product (id, title, handle, status) select 'prod_bench' || g, 'Product ' || g, 'bench-' || g, 'published' from generate_series(1, ${ROWS}) g`,
      )
      const csv = ["target,handle,tic", ...Array.from({ length: ROWS }, (_, i) => `product,bench-${i + 1},${TICS[i % TICS.length]}`)].join(
        "\n",
      )

      const t0 = performance.now()
      const preview = await api.post("/admin/sales-tax/tics/import", { csv }, auth)
      const tPreview = performance.now() - t0
      expect(preview.data.plan.changes).toHaveLength(ROWS)
      const t1 = performance.now()
      expect((await api.post("/admin/sales-tax/tics/import/apply", { csv }, auth)).status).toBe(202)
      const finished = async (): Promise<{ status: string; done: number }> => {
        for (;;) {
          const job = (await api.get("/admin/sales-tax/tics/import/apply", auth)).data.job
          if (job && job.status !== "running") return job
          await new Promise((r) => setTimeout(r, 100))
        }
      }
      const job = await finished()
      const tApply = performance.now() - t1
      expect(job).toMatchObject({ status: "done", done: ROWS })
      const t2 = performance.now()
      const exported = await api.get("/admin/sales-tax/tics/export", auth)
      const tExport = performance.now() - t2
      expect(String(exported.data).split("\r\n").length).toBeGreaterThan(ROWS)

      const total = tPreview + tApply
      const line = (k: string, v: string) => console.log(`${k.padEnd(36)} ${v}`)
      console.log(`\nbench:tics  (load average ${loadavg()[0]!.toFixed(2)})`)
      line("lines", String(ROWS))
      line("dry run (parse, resolve, TIC checks)", `${(tPreview / 1000).toFixed(2)} s`)
      line("apply (checked again, one transaction)", `${(tApply / 1000).toFixed(2)} s`)
      line("import in all", `${(total / 1000).toFixed(2)} s — goal under 30 s: ${total < 30_000 ? "met" : "NOT met"}`)
      line("export of the catalogue", `${(tExport / 1000).toFixed(2)} s`)
    })
  },
})
