// Pure: the date ranges (UTC) a state's sales are summed over on a given day, per nexus period kind.
import type { PeriodKind } from "../options"

/** [from, to), ISO dates. */
export interface Window {
  /** "year:2026", "t12:2025-11-27..2026-11-27" */
  key: string
  from: string
  to: string
  /** "2025", "2026 to date", "last 12 months" */
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

/** One window, or two for "previous or current year". */
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

/** The period a warning is given once in: a year window's year, else today's (a trailing window moves daily). */
export function warningPeriod(window: Window, today: Date): string {
  return window.key.startsWith("year:") ? window.key.slice(5) : String(today.getUTCFullYear())
}

/** Every distinct window of the kinds (the SQL reader sums each once). */
export function distinctWindows(kinds: Iterable<PeriodKind>, today: Date): Window[] {
  const seen = new Map<string, Window>()
  for (const k of kinds) for (const w of windowsFor(k, today)) seen.set(w.key, w)
  return [...seen.values()]
}
