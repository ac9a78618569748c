/**
 * npm run bench:nexus — the economic nexus page (GET /admin/sales-tax/nexus's computation,
 * src/nexus/medusa.ts) on a store with 100,000 orders (goal: under 2 s on this machine). Not part of
 * `npm test`; run by scripts/run-tests.mjs (PostgreSQL) as a jest file in a booted Medusa.
 *
 * The orders are written with SQL in the Order Module's tables (two items and a shipping method
 * each, 50 states and DC, spread over the last two years, a few typed state names, blank states,
 * canceled orders), as fast as the database takes them; then the report is computed
 * BENCH_NEXUS_RUNS times (default 5) and the median and slowest are printed.
 *   BENCH_NEXUS_ORDERS (default 100000)
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { performance } from "node:perf_hooks"
import { loadavg } from "node:os"
import { useSalesTaxSandbox } from "../integration-tests/helpers"
import { nexusReport } from "../src/nexus/medusa"

jest.setTimeout(900_000)

const ORDERS = Number(process.env.BENCH_NEXUS_ORDERS ?? 100_000)
const RUNS = Number(process.env.BENCH_NEXUS_RUNS ?? 5)
const st = useSalesTaxSandbox()

// one ZIP per state (the ZIP decides the state when the typed one disagrees)
const STATES: [string, string][] = [
  ["AL", "35203"],
  ["AK", "99501"],
  ["AZ", "85004"],
  ["AR", "72201"],
  ["CA", "94103"],
  ["CO", "80202"],
  ["CT", "06103"],
  ["DE", "19801"],
  ["DC", "20001"],
  ["FL", "33101"],
  ["GA", "30303"],
  ["HI", "96813"],
  ["ID", "83702"],
  ["IL", "60601"],
  ["IN", "46204"],
  ["IA", "50309"],
  ["KS", "66603"],
  ["KY", "40202"],
  ["LA", "70112"],
  ["ME", "04101"],
  ["MD", "21201"],
  ["MA", "02108"],
  ["MI", "48226"],
  ["MN", "55401"],
  ["MS", "39201"],
  ["MO", "63101"],
  ["MT", "59601"],
  ["NE", "68102"],
  ["NV", "89101"],
  ["NH", "03301"],
  ["NJ", "07102"],
  ["NM", "87102"],
  ["NY", "10001"],
  ["NC", "27601"],
  ["ND", "58102"],
  ["OH", "43215"],
  ["OK", "73102"],
  ["OR", "97204"],
  ["PA", "19103"],
  ["RI", "02903"],
  ["SC", "29201"],
  ["SD", "57501"],
  ["TN", "37203"],
  ["TX", "78701"],
  ["UT", "84101"],
  ["VT", "05401"],
  ["VA", "23219"],
  ["WA", "98109"],
  ["WV", "25301"],
  ["WI", "53703"],
  ["WY", "82001"],
]

medusaIntegrationTestRunner({
  env: st.env,
  testSuite: ({ getContainer }) => {
    it(`nexus report over ${ORDERS} orders`, async () => {
      const container = getContainer()
      const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as {
        raw(sql: string, b?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>
      }
      const t0 = performance.now()
      const states = STATES.map(([s, z]) => `('${s}','${z}')`).join(",")
      await pg.raw(`
        create temporary table bench_states(i serial, code text, zip text);
        insert into bench_states(code, zip) values ${states};
        create temporary table bench_orders as
          select g as n, 'order_bench_' || g as id,
            (select code from bench_states where i = 1 + g % 51) as code,
            (select zip from bench_states where i = 1 + g % 51) as zip,
            now() - ((g % 730) || ' days')::interval as at
          from generate_series(1, ${ORDERS}) g;
        insert into order_address (id, first_name, address_1, city, province, postal_code, country_code, created_at, updated_at)
          select 'ordaddr_bench_' || n, 'B', '1 Main St', 'Town',
            case when n % 97 = 0 then '' when n % 13 = 0 then lower(code) else code end, zip, 'us', at, at
          from bench_orders;
        insert into "order" (id, version, status, currency_code, shipping_address_id, created_at, updated_at, canceled_at)
          select id, 1, case when n % 50 = 0 then 'canceled' else 'pending' end::order_status_enum, 'usd', 'ordaddr_bench_' || n, at, at,
            case when n % 50 = 0 then at end
          from bench_orders;
        insert into order_line_item (id, title, unit_price, raw_unit_price, is_tax_inclusive, created_at, updated_at)
          select 'ordli_bench_' || n || '_' || k, 'Item', 10 + (n % 90), jsonb_build_object('value', (10 + (n % 90))::text, 'precision', 20),
            k = 2 and n % 10 = 0, at, at
          from bench_orders, generate_series(1, 2) k;
        insert into order_item (id, order_id, version, item_id, quantity, raw_quantity, fulfilled_quantity, shipped_quantity,
            return_requested_quantity, return_received_quantity, return_dismissed_quantity, written_off_quantity, created_at, updated_at)
          select 'orditem_bench_' || n || '_' || k, id, 1, 'ordli_bench_' || n || '_' || k, k, jsonb_build_object('value', k::text, 'precision', 20),
            0, 0, 0, case when n % 20 = 0 then 1 else 0 end, 0, 0, at, at
          from bench_orders, generate_series(1, 2) k;
        insert into order_shipping_method (id, name, amount, raw_amount, created_at, updated_at)
          select 'ordsm_bench_' || n, 'Ground', 5, '{"value":"5","precision":20}'::jsonb, at, at from bench_orders;
        insert into order_shipping (id, order_id, version, shipping_method_id, created_at, updated_at)
          select 'ordspmv_bench_' || n, id, 1, 'ordsm_bench_' || n, at, at from bench_orders;
        analyze "order"; analyze order_address; analyze order_item; analyze order_line_item; analyze order_shipping; analyze order_shipping_method;
      `)
      const seeded = performance.now() - t0
      const times: number[] = []
      let rows = 0
      for (let i = 0; i < RUNS; i++) {
        const s = performance.now()
        const r = await nexusReport(container)
        times.push(performance.now() - s)
        rows = r.rows.length
      }
      times.sort((a, b) => a - b)
      const median = times[Math.floor(times.length / 2)]!
      const worst = times[times.length - 1]!
      const line = (k: string, v: string) => console.log(`${k.padEnd(34)} ${v}`)
      console.log(`\nbench:nexus  (load average ${loadavg()[0]!.toFixed(2)})`)
      line("orders (2 items + shipping each)", `${ORDERS} (seeded in ${(seeded / 1000).toFixed(1)} s)`)
      line("report runs", `${RUNS}; rows ${rows}`)
      line("report median / slowest", `${median.toFixed(0)} ms / ${worst.toFixed(0)} ms`)
      line("goal", `under 2000 ms: ${worst < 2000 ? "met" : "NOT met"}`)
      expect(rows).toBe(51)
    })
  },
})
