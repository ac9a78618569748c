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

  it("days outside 2000..2099 are refused at the field (year 10000 ends 9999-12-31; year 0 reads as 1900)", () => {
    for (const d of ["9999-12-31", "0000-01-01", "1999-12-31", "2100-01-01"]) {
      const r = BackfillRangeInput.safeParse({ from: d, to: d })
      expect(r.error?.issues.map((i) => [i.path, i.message])).toEqual([
        [["from"], "must be a day from 2000-01-01 to 2099-12-31"],
        [["to"], "must be a day from 2000-01-01 to 2099-12-31"],
      ])
    }
    expect(BackfillRangeInput.safeParse({ from: "2000-01-01", to: "2099-12-31" }).success).toBe(true)
    const cli = parseBackfillArgs(["--from", "0000-01-01", "--to", "2026-01-01"])
    expect(cli.ok ? [] : cli.errors[0]).toBe("--from: must be a day from 2000-01-01 to 2099-12-31")
    // a malformed day says so once, not also that its year is out of range
    expect(BackfillRangeInput.safeParse({ from: "x", to: "2026-01-01" }).error?.issues.map((i) => i.message)).toEqual([
      "must be a date YYYY-MM-DD",
    ])
  })
})
