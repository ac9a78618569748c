import { DateTime } from "luxon"

export const EASTERN = "America/New_York"

/**
 * The void cutoff of an order completed at `completedDate`: 12:00 AM (midnight starting the day)
 * Eastern time on the 10th of the month after the month, in Eastern time, of the completedDate.
 * E.g. completed 2026-01-31T23:30-05:00 (January in Eastern) → cutoff 2026-02-10T00:00-05:00;
 * completed 2026-02-01T03:00Z (still January 31 in Eastern) → the same cutoff.
 */
export function voidCutoff(completedDate: Date): Date {
  return DateTime.fromJSDate(completedDate, { zone: EASTERN })
    .startOf("month")
    .plus({ months: 1 })
    .set({ day: 10 })
    .startOf("day")
    .toJSDate()
}

/** Whether two instants fall in the same calendar month in Eastern time. */
export function sameEasternMonth(a: Date, b: Date): boolean {
  const x = DateTime.fromJSDate(a, { zone: EASTERN })
  const y = DateTime.fromJSDate(b, { zone: EASTERN })
  return x.year === y.year && x.month === y.month
}

/**
 * Whether an order may be voided at `now`: orders without completedDate, excluded from filing,
 * completed in the current (Eastern) month, or before their cutoff (strictly: at the cutoff
 * instant itself voiding is refused).
 */
export function canVoid(order: { completedDate: string | null; excludeFromFiling: boolean }, now: Date): boolean {
  if (!order.completedDate || order.excludeFromFiling) return true
  const completed = new Date(order.completedDate)
  if (sameEasternMonth(completed, now)) return true
  return now.getTime() < voidCutoff(completed).getTime()
}
