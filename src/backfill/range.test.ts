import { BackfillRangeInput, parseBackfillArgs, rangeOf } from "./range"

describe("backfill range", () => {
  it("parses --from/--to (inclusive days) and the tuning flags", () => {
    const r = parseBackfillArgs(["--from", "2026-01-01", "--to", "2026-06-30", "--batch-size", "100", "--concurrency", "4"])
    expect(r).toEqual({ ok: true, value: { from: "2026-01-01", to: "2026-06-30", batch_size: 100, concurrency: 4 } })
    expect(rangeOf({ from: "2026-01-01", to: "2026-06-30" })).toEqual({
      from: new Date("2026-01-01T00:00:00Z"),
      to: new Date("2026-07-01T00:00:00Z"),
    })
  })

  it("names the flag that is wrong", () => {
    const bad = parseBackfillArgs(["--from", "2026-02-30", "--to", "2026-01-01"])
    expect(bad.ok).toBe(false)
    if (bad.ok) return
    expect(bad.errors).toContain("--from: is not a calendar date")
    expect(bad.errors).toContain("--to: must not be before from")
    const missing = parseBackfillArgs(["--to", "2026-01-01"])
    expect(missing.ok ? [] : missing.errors[0]).toMatch(/^--from: /)
    const unknown = parseBackfillArgs(["--form", "2026-01-01"])
    expect(unknown.ok ? [] : unknown.errors[0]).toMatch(/Unknown option '--form'/)
  })

  it("admin body: batch_size bounded", () => {
    const r = BackfillRangeInput.safeParse({ from: "2026-01-01", to: "2026-01-02", batch_size: 5000 })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]?.path).toEqual(["batch_size"])
  })
})
