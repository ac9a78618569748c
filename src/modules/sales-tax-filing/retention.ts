// Retention of filing records' street lines (option `filing.addressRetentionDays`): past it a snapshot keeps
// the destination's city, state and ZIP (what is rated and shown) and loses line1/line2.
import type { FilingSnapshot } from "./types"

export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000)
}

/** Origins (the store's own locations) are kept; line2 becomes null, not absent: an update of a json column merges. */
export function withoutStreet(s: FilingSnapshot | null): FilingSnapshot | null {
  if (!s?.destination) return s
  return { ...s, destination: { ...s.destination, line1: "", line2: null } }
}
