/** Pure: months (UTC) and amounts (integer cents) of reconciliation. */
import { Dec, dec, type DecLike } from "../../money"

/** `YYYY-MM`, months 01–12. */
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
  const x = d instanceof Date ? d : new Date(d)
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

/**
 * The tax an order item was charged for its whole quantity, as Medusa computed it when the order
 * was placed: Σ over its tax lines of rate % × (unit price × quantity − adjustments), prices tax
 * exclusive. Needed because Medusa reports an order item's `tax_total` for its CURRENT
 * quantity (quantity − received and dismissed returns), so after a return it no longer shows what
 * was charged.
 */
export function fullItemTax(item: {
  unitPrice: DecLike
  quantity: DecLike
  adjustments: DecLike[]
  rates: DecLike[]
  /** a tax-inclusive price (and adjustments): Medusa takes the tax out, taxable = (price − adjustments) ÷ (1 + Σ rates) */
  taxInclusive?: boolean
}): string {
  const discount = item.adjustments.reduce<ReturnType<typeof dec>>((s, a) => s.plus(a), dec(0))
  const gross = dec(item.unitPrice).times(item.quantity).minus(discount)
  const sumRate = item.rates.reduce<ReturnType<typeof dec>>((s, r) => s.plus(dec(r).div(100)), dec(0))
  const taxable = item.taxInclusive ? gross.div(sumRate.plus(1)) : gross
  return item.rates.reduce<ReturnType<typeof dec>>((s, r) => s.plus(taxable.times(dec(r).div(100))), dec(0)).toString()
}

export function sumCents(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0)
}
