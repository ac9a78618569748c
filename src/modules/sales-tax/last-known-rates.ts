/**
 * Last-known rates: the effective rate of the last successful quote per destination ZIP and TIC,
 * the first source of fallback rates during an outage (docs/provider.md, "Never a silent 0 %").
 *
 * They are kept in the plugin's own module `salesTax` (table sales_tax_last_known_rate), so they
 * survive restarts and every instance shares them. The provider lives in the Tax Module's
 * container, which cannot resolve other modules: the `salesTax` module service registers itself
 * here when Medusa constructs it (same process), and the provider finds it through
 * `rateMemory()`. Without it (unit tests, a host that did not add the module) an in-process map
 * is used and the provider says so once.
 */
import BigNumber from "bignumber.js"

export const LAST_KNOWN_MAX_AGE_MS = 30 * 24 * 3600 * 1000

export interface KnownRate {
  zip: string
  tic: number
  /** percentage, decimal string */
  rate: string
  quotedAt: Date
}

export interface RateMemory {
  /** Upserts one row per (zip, tic). */
  rememberRates(rows: KnownRate[]): Promise<void>
  /** The rows for `zip` and these TICs quoted at or after `since`. */
  knownRates(zip: string, tics: number[], since: Date): Promise<KnownRate[]>
}

/** Pure: the ZIP key (5 digits) of an address ZIP. */
export function zipKey(zip: string): string {
  return zip.trim().slice(0, 5)
}

/**
 * Pure: the effective rate (percent, up to 6 places) of a quoted line: amount ÷ taxable; null
 * when nothing was taxable or the line was exempt (an exempt quote says nothing about the ZIP).
 */
export function effectiveRatePct(taxable: BigNumber.Value, amount: BigNumber.Value): string | null {
  const t = new BigNumber(taxable)
  if (!t.isFinite() || t.lte(0)) return null
  return new BigNumber(amount).div(t).times(100).decimalPlaces(6, BigNumber.ROUND_HALF_UP).toString()
}

/** Pure: the newest row per TIC among `rows` not older than maxAgeMs at `now`. */
export function freshestByTic(rows: readonly KnownRate[], now: Date, maxAgeMs = LAST_KNOWN_MAX_AGE_MS): Map<number, KnownRate> {
  const out = new Map<number, KnownRate>()
  for (const r of rows) {
    if (now.getTime() - r.quotedAt.getTime() > maxAgeMs) continue
    const prev = out.get(r.tic)
    if (!prev || prev.quotedAt < r.quotedAt) out.set(r.tic, r)
  }
  return out
}

/** In-process memory (tests; hosts without the salesTax module). */
export class InMemoryRateMemory implements RateMemory {
  readonly rows = new Map<string, KnownRate>()
  async rememberRates(rows: KnownRate[]): Promise<void> {
    for (const r of rows) this.rows.set(`${r.zip}|${r.tic}`, { ...r })
  }
  async knownRates(zip: string, tics: number[], since: Date): Promise<KnownRate[]> {
    return tics.map((t) => this.rows.get(`${zip}|${t}`)).filter((r): r is KnownRate => !!r && r.quotedAt >= since)
  }
}

const KEY = Symbol.for("medusa-sales-tax/rate-memory")
type Holder = { [KEY]?: RateMemory }

/** Called by the salesTax module service when Medusa constructs it. */
export function registerRateMemory(m: RateMemory): void {
  ;(globalThis as Holder)[KEY] = m
}

/** The registered (database) memory, or undefined. */
export function registeredRateMemory(): RateMemory | undefined {
  return (globalThis as Holder)[KEY]
}
