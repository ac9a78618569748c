/**
 * Retention of the street lines of filing records (option `filing.addressRetentionDays`): after
 * that many days from a record's creation, its snapshot keeps the destination's city, state and
 * ZIP (what the service rates and what the admin and reconciliation show) and loses line1/line2.
 * Pure; the filing module's service applies it in batches, the sweep job on its schedule.
 */
import type { FilingSnapshot } from "./types"

const DAY_MS = 24 * 60 * 60 * 1000

/** `days` days before `now` (records created before it lose their street lines). */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS)
}

/**
 * The snapshot without the destination's street lines (origins are the store's own locations:
 * kept). line2 becomes null, not absent: an update of a json column merges into what it holds.
 */
export function withoutStreet(s: FilingSnapshot | null): FilingSnapshot | null {
  if (!s?.destination) return s
  return { ...s, destination: { ...s.destination, line1: "", line2: null } }
}
