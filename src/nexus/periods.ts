// The measurement windows of economic nexus periods (./thresholds.ts), in UTC: which date ranges a
// state's sales are summed over on a given day. Pure; the SQL reader sums every window once per state.
import type { PeriodKind } from "../options"

/** A half-open date range [from, to), ISO dates (YYYY-MM-DD), UTC. */
export interface Window {
  /** stable id of the window on that day, e.g. "year:2026", "t12:2025-11-27..2026-11-27" */
  key: string
  from: string
  to: string
  /** the label the admin shows, e.g. "2025", "2026 to date", "last 12 months" */
  label: string
}

const iso = (d: Date) => d.toISOString().slice(0, 10)
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d))

function year(y: number, today: Date): Window {
  const current = y === today.getUTCFullYear()
  // the current year runs to tomorrow (today's orders count)
  const to = current ? iso(utc(y, today.getUTCMonth(), today.getUTCDate() + 1)) : `${y + 1}-01-01`
  return { key: `year:${y}`, from: `${y}-01-01`, to, label: current ? `${y} to date` : String(y) }
}

/** The windows a period kind is measured over on `today` (one, or two for "previous or current year"). */
export function windowsFor(kind: PeriodKind, today: Date): Window[] {
  const y = today.getUTCFullYear()
  const m = today.getUTCMonth()
  const d = today.getUTCDate()
  switch (kind) {
    case "previous_or_current_year":
      return [year(y - 1, today), year(y, today)]
    case "previous_year":
      return [year(y - 1, today)]
    case "trailing_12_months": {
      const from = iso(utc(y - 1, m, d + 1))
      const to = iso(utc(y, m, d + 1))
      return [{ key: `t12:${from}..${to}`, from, to, label: "last 12 months" }]
    }
    case "four_quarters": {
      const quarterStart = utc(y, Math.floor(m / 3) * 3, 1)
      const from = iso(utc(quarterStart.getUTCFullYear(), quarterStart.getUTCMonth() - 12, 1))
      const to = iso(quarterStart)
      return [{ key: `q4:${from}..${to}`, from, to, label: "last four quarters" }]
    }
    case "twelve_months_to_sept_30": {
      // the last September 30 on or before today
      const endYear = m >= 9 ? y : y - 1
      const from = `${endYear - 1}-10-01`
      const to = `${endYear}-10-01`
      return [{ key: `sep30:${endYear}`, from, to, label: `Oct ${endYear - 1} – Sep ${endYear}` }]
    }
  }
}

/**
 * The period a warning is given once in: the window's calendar year for year windows, else the
 * calendar year of `today` (a trailing window moves daily; one warning per level per year).
 */
export function warningPeriod(window: Window, today: Date): string {
  return window.key.startsWith("year:") ? window.key.slice(5) : String(today.getUTCFullYear())
}

/** Every distinct window of the given kinds on `today` (the SQL reader sums each once). */
export function distinctWindows(kinds: Iterable<PeriodKind>, today: Date): Window[] {
  const seen = new Map<string, Window>()
  for (const k of kinds) for (const w of windowsFor(k, today)) seen.set(w.key, w)
  return [...seen.values()]
}
