/**
 * BOUNDARY: US sales per state and window in ONE statement over the Order Module's tables (no public
 * path reads a year of orders aggregated): items after discounts plus shipping, before tax, of orders
 * neither canceled nor drafts, shipped to the US; `returned`: the received returns' share.
 * Assumes: ORDER_TABLE_COLUMNS; a module's container holds the connection (`pgConnectionOf`).
 * Contract: nexus.spec.ts. Boot check: `orderTablesDifferences` (off: the report's sales), `pgConnectionDifferences`.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { setSwitch, switchOn } from "./switches"
import { installedSource } from "./installed"
import { fromCradle } from "../runtime"

/** A half-open date range [from, to) of ISO dates, by its stable key. */
export interface Window {
  key: string
  from: string
  to: string
}

/** The province as typed (lower-cased, trimmed), the ZIP's first three characters, the currency (lower case). */
export interface ProvinceWindowSales {
  province: string
  zip3: string
  currency: string
  windows: Record<string, { sales: string; returned: string; transactions: number }>
}

export interface PgLike {
  raw(sql: string, bindings: unknown[]): Promise<{ rows: Record<string, unknown>[] }>
}

export function pgConnectionOf(cradle: unknown): PgLike | undefined {
  const pg = fromCradle(cradle, ContainerRegistrationKeys.PG_CONNECTION) as PgLike | undefined
  return typeof pg?.raw === "function" ? pg : undefined
}

export function pgConnectionDifferences(
  loader: string | undefined = installedSource("@medusajs/modules-sdk", "loaders/utils/load-internal.js"),
): string[] {
  return loader?.includes("ContainerRegistrationKeys.PG_CONNECTION")
    ? []
    : ["the modules SDK no longer hands a module's container the database connection"]
}

/** Every table and column orderSalesSql reads. */
export const ORDER_TABLE_COLUMNS: Record<string, readonly string[]> = {
  order: ["id", "version", "currency_code", "created_at", "canceled_at", "is_draft_order", "status", "deleted_at", "shipping_address_id"],
  order_address: ["id", "country_code", "province", "postal_code"],
  order_item: ["order_id", "version", "item_id", "quantity", "unit_price", "return_received_quantity", "deleted_at", "created_at"],
  order_line_item: ["id", "unit_price", "is_tax_inclusive", "deleted_at"],
  order_line_item_adjustment: ["item_id", "version", "amount", "deleted_at", "created_at"],
  order_line_item_tax_line: ["item_id", "rate", "deleted_at", "created_at"],
  order_shipping: ["order_id", "version", "return_id", "claim_id", "exchange_id", "shipping_method_id", "deleted_at", "created_at"],
  order_shipping_method: ["id", "amount", "is_tax_inclusive", "deleted_at"],
  order_shipping_method_tax_line: ["shipping_method_id", "rate", "deleted_at", "created_at"],
}

/** The tables and columns of ORDER_TABLE_COLUMNS the database lacks; empty: all there. */
export async function orderTablesDifferences(pg: PgLike): Promise<string[]> {
  const tables = Object.keys(ORDER_TABLE_COLUMNS)
  let rows: Record<string, unknown>[]
  try {
    ;({ rows } = await pg.raw(
      `select table_name, column_name from information_schema.columns
       where table_schema = current_schema() and table_name in (${tables.map(() => "?").join(", ")})`,
      tables,
    ))
  } catch (e) {
    return [`the Order Module's tables could not be read (${(e as Error)?.message ?? e})`]
  }
  return missingOrderColumns(rows.map((r) => [String(r.table_name), String(r.column_name)]))
}

/** Pure: what ORDER_TABLE_COLUMNS names that `present` ([table, column] pairs) lacks. */
export function missingOrderColumns(present: readonly (readonly [string, string])[]): string[] {
  const have = new Set(present.map(([t, c]) => `${t}.${c}`))
  const out: string[] = []
  for (const [table, cols] of Object.entries(ORDER_TABLE_COLUMNS)) {
    const missing = cols.filter((c) => !have.has(`${table}.${c}`))
    if (missing.length === cols.length) out.push(`table ${table}`)
    else for (const c of missing) out.push(`${table}.${c}`)
  }
  return out
}

export const orderSalesOn = (): boolean => switchOn("orderSales")
export const setOrderSales = (on: boolean): void => setSwitch("orderSales", on)

export function orderSalesSql(windows: readonly Window[]): { sql: string; bindings: unknown[] } {
  const bindings: unknown[] = []
  const cols = windows.map((w, i) => {
    bindings.push(w.from, w.to, w.from, w.to, w.from, w.to)
    const f = `o.created_at >= ?::timestamptz and o.created_at < ?::timestamptz`
    return `coalesce(sum(o.sales) filter (where ${f}), 0)::text as s${i},
      coalesce(sum(o.returned) filter (where ${f}), 0)::text as r${i},
      count(*) filter (where ${f}) as t${i}`
  })
  const from = windows.reduce((m, w) => (w.from < m ? w.from : m), windows[0]!.from)
  const to = windows.reduce((m, w) => (w.to > m ? w.to : m), windows[0]!.to)
  const sql = `
with ords as (
  select o.id, o.version, o.created_at, lower(btrim(coalesce(a.province, ''))) as province,
    left(btrim(coalesce(a.postal_code, '')), 3) as zip3, lower(btrim(coalesce(o.currency_code, ''))) as currency
  from "order" o
  join order_address a on a.id = o.shipping_address_id
  where o.deleted_at is null and o.canceled_at is null and o.is_draft_order = false
    and o.status not in ('draft', 'canceled')
    and a.country_code in ('us', 'US')
    and o.created_at >= ?::timestamptz and o.created_at < ?::timestamptz
),
adj as (
  select d.item_id, d.version, sum(d.amount) as amount
  from order_line_item_adjustment d
  where d.deleted_at is null and d.created_at >= ?::timestamptz
  group by d.item_id, d.version
),
item_rate as (
  select t.item_id, sum(t.rate) as rate
  from order_line_item_tax_line t
  where t.deleted_at is null and t.created_at >= ?::timestamptz
  group by t.item_id
),
items as (
  select x.order_id, x.version, sum(x.net) as sales, sum(x.net * x.returned_share) as returned
  from (
    select oi.order_id, oi.version,
      (oi.quantity * coalesce(oi.unit_price, li.unit_price) - coalesce(adj.amount, 0))
        / case when li.is_tax_inclusive then 1 + coalesce(item_rate.rate, 0) / 100 else 1 end as net,
      case when oi.quantity > 0 then oi.return_received_quantity / oi.quantity else 0 end as returned_share
    from order_item oi
    join order_line_item li on li.id = oi.item_id and li.deleted_at is null
    left join adj on adj.item_id = li.id and adj.version = oi.version
    left join item_rate on item_rate.item_id = li.id
    where oi.deleted_at is null and oi.created_at >= ?::timestamptz
  ) x
  group by x.order_id, x.version
),
ship_rate as (
  select t.shipping_method_id, sum(t.rate) as rate
  from order_shipping_method_tax_line t
  where t.deleted_at is null and t.created_at >= ?::timestamptz
  group by t.shipping_method_id
),
ship as (
  select os.order_id, os.version,
    sum(sm.amount / case when sm.is_tax_inclusive then 1 + coalesce(ship_rate.rate, 0) / 100 else 1 end) as sales
  from order_shipping os
  join order_shipping_method sm on sm.id = os.shipping_method_id and sm.deleted_at is null
  left join ship_rate on ship_rate.shipping_method_id = sm.id
  where os.deleted_at is null and os.return_id is null and os.claim_id is null and os.exchange_id is null
    and os.created_at >= ?::timestamptz
  group by os.order_id, os.version
),
o as (
  select ords.province, ords.zip3, ords.currency, ords.created_at,
    coalesce(items.sales, 0) + coalesce(ship.sales, 0) as sales, coalesce(items.returned, 0) as returned
  from ords
  left join items on items.order_id = ords.id and items.version = ords.version
  left join ship on ship.order_id = ords.id and ship.version = ords.version
)
select o.province, o.zip3, o.currency, ${cols.join(",\n  ")}
from o
group by o.province, o.zip3, o.currency`
  // the CTE's range first, the window columns' after it; a row is created with or after its order:
  // the same lower bound lets PostgreSQL read only the period's rows of each table
  return { sql, bindings: [from, to, from, from, from, from, from, ...bindings] }
}

/** US sales per typed province, ZIP prefix, currency and window. */
export async function orderSalesByProvince(container: MedusaContainer, windows: readonly Window[]): Promise<ProvinceWindowSales[]> {
  if (windows.length === 0) return []
  if (!orderSalesOn())
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The nexus report's sales per state are turned off: this Medusa's order tables are not the ones the plugin reads (see the start-up error in the server log).",
    )
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as PgLike
  const { sql, bindings } = orderSalesSql(windows)
  const { rows } = await pg.raw(sql, bindings)
  return rows.map((row) => ({
    province: String(row.province ?? ""),
    zip3: String(row.zip3 ?? ""),
    currency: String(row.currency ?? ""),
    windows: Object.fromEntries(
      windows.map((w, i) => [
        w.key,
        { sales: String(row[`s${i}`] ?? "0"), returned: String(row[`r${i}`] ?? "0"), transactions: Number(row[`t${i}`] ?? 0) },
      ]),
    ),
  }))
}
