/**
 * The boot check of the nexus statement's tables (one information_schema query), with a stand-in
 * connection; the query itself is run against Medusa's real tables at boot in every integration spec,
 * and the statement's own contract is integration-tests/http/nexus.spec.ts.
 */
import {
  ORDER_TABLE_COLUMNS,
  missingOrderColumns,
  orderSalesByProvince,
  orderSalesSql,
  orderTablesDifferences,
  pgConnectionDifferences,
  pgConnectionOf,
  setOrderSales,
  type PgLike,
} from "./order-sales-by-state"

const all = Object.entries(ORDER_TABLE_COLUMNS).flatMap(([t, cols]) => cols.map((c) => [t, c] as const))

describe("the Order Module's tables, as the nexus statement reads them", () => {
  it("each listed table and column is in the statement", () => {
    const { sql } = orderSalesSql([{ key: "y", from: "2025-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" } as never])
    for (const [table, cols] of Object.entries(ORDER_TABLE_COLUMNS)) {
      expect(sql).toMatch(new RegExp(`(from|join) "?${table}"? `))
      for (const c of cols) expect(sql).toContain(c)
    }
  })

  it("missingOrderColumns names a missing table once, and each missing column", () => {
    expect(missingOrderColumns(all)).toEqual([])
    const some = all.filter(([t, c]) => t !== "order_shipping" && !(t === "order_item" && c === "return_received_quantity"))
    expect(missingOrderColumns(some)).toEqual(["order_item.return_received_quantity", "table order_shipping"])
  })

  it("orderTablesDifferences: one query of information_schema for the listed tables; a failed query is named", async () => {
    const calls: unknown[][] = []
    const pg: PgLike = {
      raw: async (sql, bindings) => {
        calls.push([sql.replace(/\s+/g, " "), bindings])
        return { rows: all.filter(([t]) => t !== "order_address").map(([table_name, column_name]) => ({ table_name, column_name })) }
      },
    }
    expect(await orderTablesDifferences(pg)).toEqual(["table order_address"])
    expect(calls).toHaveLength(1)
    expect(calls[0]![0]).toMatch(
      /^select table_name, column_name from information_schema\.columns where table_schema = current_schema\(\) and table_name in \(\?(, \?){8}\)$/,
    )
    expect(calls[0]![1]).toEqual(Object.keys(ORDER_TABLE_COLUMNS))
    const failing: PgLike = { raw: async () => Promise.reject(new Error("no db")) }
    expect(await orderTablesDifferences(failing)).toEqual(["the Order Module's tables could not be read (no db)"])
  })

  it("turned off by the boot check: the report's sales answer a clear error, and no SQL runs", async () => {
    setOrderSales(false)
    try {
      const container = {
        resolve: () => {
          throw new Error("no SQL may run")
        },
      }
      await expect(
        orderSalesByProvince(container as never, [{ key: "y", from: "2025-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" } as never]),
      ).rejects.toThrow("The nexus report's sales per state are turned off")
    } finally {
      setOrderSales(true)
    }
  })
})

describe("contract: a module's container holds the app's database connection", () => {
  it("the installed modules SDK hands it to every module's container; a loader without it is named", () => {
    expect(pgConnectionDifferences()).toEqual([])
    expect(pgConnectionDifferences("dependencies.push(ContainerRegistrationKeys.LOGGER)")).toEqual([
      "the modules SDK no longer hands a module's container the database connection",
    ])
  })

  it("pgConnectionOf: the connection under __pg_connection__, else undefined (none, not a connection, or a cradle that throws)", () => {
    const pg: PgLike = { raw: async () => ({ rows: [] }) }
    expect(pgConnectionOf({ __pg_connection__: pg })).toBe(pg)
    expect(pgConnectionOf({ __pg_connection__: {} })).toBeUndefined()
    expect(pgConnectionOf(undefined)).toBeUndefined()
    const awilix = new Proxy(
      {},
      {
        get: () => {
          throw new Error("Could not resolve '__pg_connection__'")
        },
      },
    )
    expect(pgConnectionOf(awilix)).toBeUndefined()
  })
})
