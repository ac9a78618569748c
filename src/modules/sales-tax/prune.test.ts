/** The module's pruneCallLog (issue 27): expired ids listed and deleted 1,000 a statement, oldest first. */
import { SalesTaxModuleService } from "./service"

describe("SalesTaxModuleService.pruneCallLog", () => {
  it("lists at most 1,000 expired ids a statement (at < before, oldest first) and deletes each batch until none is left", async () => {
    const before = new Date("2026-11-12T00:00:00Z")
    let expired = Array.from({ length: 2345 }, (_, i) => `stcl_${i}`)
    const lists: { filters: unknown; config: unknown }[] = []
    const deletes: number[] = []
    const fake = {
      listCallLogEntries: async (filters: unknown, config: { take: number }) => {
        lists.push({ filters, config })
        return expired.slice(0, config.take).map((id) => ({ id }))
      },
      deleteCallLogEntries: async (ids: string[]) => {
        deletes.push(ids.length)
        const gone = new Set(ids)
        expired = expired.filter((x) => !gone.has(x))
      },
    }
    const n = await SalesTaxModuleService.prototype.pruneCallLog.call(fake as unknown as SalesTaxModuleService, before)
    expect(n).toBe(2345)
    expect(deletes).toEqual([1000, 1000, 345])
    expect(lists).toHaveLength(3)
    expect(lists[0]).toEqual({ filters: { at: { $lt: before } }, config: { select: ["id"], take: 1000, order: { at: "ASC" } } })
  })
})
