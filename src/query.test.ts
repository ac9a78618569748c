import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Query } from "@medusajs/framework/types"
import { graph, graphPage, type QueryScope } from "./query"

/** A scope whose Query records its inputs and answers fixed rows. */
function scopeWith(rows: unknown[], metadata?: { skip: number; take: number; count: number }) {
  const calls: unknown[] = []
  const keys: string[] = []
  const query = {
    graph: async (input: unknown) => {
      calls.push(input)
      return { data: rows, metadata }
    },
  }
  const scope = {
    resolve: (key: string) => {
      keys.push(key)
      return query as unknown as Query
    },
  } as unknown as QueryScope
  return { scope, calls, keys }
}

describe("graph: the typed Query door", () => {
  it("resolves Medusa's Query, passes the input through and returns the rows", async () => {
    const { scope, calls, keys } = scopeWith([{ id: "order_1", display_id: 7 }])
    const fields = ["id", "display_id"] as const
    const rows = await graph<{ id: string; display_id: number }>(scope, { entity: "order", fields, filters: { id: ["order_1"] } })
    expect(keys).toEqual([ContainerRegistrationKeys.QUERY])
    expect(calls).toEqual([{ entity: "order", fields: ["id", "display_id"], filters: { id: ["order_1"] } }])
    expect(rows).toEqual([{ id: "order_1", display_id: 7 }])
  })

  it("graphPage keeps the pagination metadata", async () => {
    const { scope, calls } = scopeWith([{ id: "order_2" }], { skip: 10, take: 1, count: 11 })
    const page = await graphPage<{ id: string }>(scope, {
      entity: "order",
      fields: ["id"],
      pagination: { skip: 10, take: 1, order: { id: "ASC" } },
    })
    expect(calls).toEqual([{ entity: "order", fields: ["id"], pagination: { skip: 10, take: 1, order: { id: "ASC" } } }])
    expect(page).toEqual({ data: [{ id: "order_2" }], metadata: { skip: 10, take: 1, count: 11 } })
  })
})
