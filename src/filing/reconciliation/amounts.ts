/** Pure: months (UTC) and amounts (integer cents) of reconciliation. */
import { Dec, dec, type DecLike } from "../../../packages/contract/src/money"

export const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/

/** The UTC bounds of a month: [from, to). Throws on a malformed month (validate at the edge first). */
export function monthRange(month: string): { from: Date; to: Date } {
  const m = MONTH_RE.exec(month)
  if (!m) throw new Error(`month must be YYYY-MM, got ${month}`)
  const y = Number(m[1])
  const mo = Number(m[2]) - 1
  return { from: new Date(Date.UTC(y, mo, 1)), to: new Date(Date.UTC(y, mo + 1, 1)) }
}

/** The `YYYY-MM` (UTC) of an instant. */
export function monthOf(d: Date | string): string {
  const x = new Date(d)
  return `${x.getUTCFullYear()}-${String(x.getUTCMonth() + 1).padStart(2, "0")}`
}

/** A Medusa / record amount in dollars → integer cents (half away from zero). */
export function cents(v: DecLike | null | undefined): number {
  if (v === null || v === undefined || v === "") return 0
  return dec(v).times(100).decimalPlaces(0, Dec.ROUND_HALF_UP).toNumber()
}

/** Integer cents → "12.34" (exact). */
export function money(c: number): string {
  return dec(c).div(100).toFixed(2)
}

export function sumCents(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0)
}
