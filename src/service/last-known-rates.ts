/**
 * Last-known rates: per destination ZIP and TIC, the HIGHEST rate the service charged within the
 * window, the first source of fallback rates during an outage (docs/provider.md). The highest, not
 * the latest: price thresholds make a cheap item's 0 % say nothing about a dear one; an outage may
 * over-charge, never under-charge. Stored by the `salesTax` module, which registers itself here.
 */
import BigNumber from "bignumber.js"
import { memoSet, registration } from "../runtime"

export const LAST_KNOWN_MAX_AGE_MS = 30 * 24 * 3600 * 1000

export interface KnownRate {
  zip: string
  tic: number
  /** percentage, decimal string */
  rate: string
  quotedAt: Date
}

export interface RateMemory {
  /** Merges one row per (zip, tic) into what is kept (mergeKnownRate). */
  rememberRates(rows: KnownRate[]): Promise<void>
  knownRates(zip: string, tics: number[], since: Date): Promise<KnownRate[]>
}

/** Pure: the ZIP key (5 digits) of an address ZIP. */
export function zipKey(zip: string): string {
  return zip.trim().slice(0, 5)
}

/** Pure: the effective rate (percent, up to 6 places) of a quoted line: amount ÷ taxable; null when nothing was taxable. */
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

/** Pure: what is kept for one (zip, tic) (null: `existing`): a rate at least as high, or a lower one once `existing` aged out. */
export function mergeKnownRate(existing: KnownRate | undefined, incoming: KnownRate, maxAgeMs = LAST_KNOWN_MAX_AGE_MS): KnownRate | null {
  if (!existing) return incoming
  if (incoming.quotedAt.getTime() - existing.quotedAt.getTime() > maxAgeMs) return incoming
  // the same rate seen again is renewed (one write an hour at most: WrittenRates)
  return new BigNumber(incoming.rate).gte(existing.rate) ? incoming : null
}

/** In-process memory (tests; hosts without the salesTax module). */
export class InMemoryRateMemory implements RateMemory {
  readonly rows = new Map<string, KnownRate>()
  async rememberRates(rows: KnownRate[]): Promise<void> {
    for (const r of rows) {
      const key = `${r.zip}|${r.tic}`
      const kept = mergeKnownRate(this.rows.get(key), r)
      if (kept) this.rows.set(key, { ...kept })
    }
  }
  async knownRates(zip: string, tics: number[], since: Date): Promise<KnownRate[]> {
    return tics.map((t) => this.rows.get(`${zip}|${t}`)).filter((r): r is KnownRate => !!r && r.quotedAt >= since)
  }
}

/** The salesTax module's service registers itself when Medusa constructs it (the provider's container cannot resolve it). */
export const [registerRateMemory, registeredRateMemory] = registration<RateMemory>("rateMemory")

/** An unchanged rate is written again at least this often (its quoted_at stays within the hour). */
export const REWRITE_AFTER_MS = 3_600_000
const WRITTEN_MAX = 20_000

/**
 * What this process last wrote per (zip, tic), so that a quote the stored rate already explains (to the
 * cent) writes nothing; rewritten after REWRITE_AFTER_MS all the same, since its quoted_at is what the window reads.
 */
export class WrittenRates {
  readonly #last = new Map<string, { rate: number; at: number }>()
  /** Per (zip, tic): the rates every line seen since the rate last moved allows (see narrowed). */
  readonly #intervals = new Map<string, { lo: number; hi: number }>()

  /** Whether the rate written for (zip, tic) within REWRITE_AFTER_MS gives `amount` on `taxable` to the cent (a half-cent edge: no). */
  unchanged(zip: string, tic: number, taxable: number, amount: number, now: number): boolean {
    const l = this.#last.get(`${zip}|${tic}`)
    if (!l || now - l.at >= REWRITE_AFTER_MS || now < l.at) return false
    if (!(taxable > 0) || !Number.isFinite(taxable) || !Number.isFinite(amount)) return false
    return Math.abs((taxable * l.rate) / 100 - amount) < 0.005 - 1e-9 * Math.max(1, Math.abs(amount))
  }

  /**
   * A rate to remember for a line the stored rate does not explain (null: lineRateToRemember). Each line's
   * tax allows rates in [(amount - 0.005) ÷ taxable, (amount + 0.005) ÷ taxable); intersecting with earlier
   * lines' narrows to the real rate. The service's rate when inside, else the midpoint to 6 places; null near an edge.
   */
  narrowed(zip: string, tic: number, taxable: number, amount: number, serviceRate: number | null | undefined): string | null {
    if (!(taxable > 0) || !Number.isFinite(taxable) || !Number.isFinite(amount) || amount < 0) return null
    const key = `${zip}|${tic}`
    const lo = ((amount - 0.005) / taxable) * 100
    const hi = ((amount + 0.005) / taxable) * 100
    const m = 1e-9 * Math.max(1, Math.abs(hi))
    const prev = this.#intervals.get(key)
    let L = lo
    let H = hi
    if (prev && prev.lo < hi - m && prev.hi > lo + m) {
      L = Math.max(lo, prev.lo)
      H = Math.min(hi, prev.hi)
    }
    memoSet(this.#intervals, key, { lo: L, hi: H }, WRITTEN_MAX)
    const inside = (r: number) => r >= L + m && r < H - m
    if (typeof serviceRate === "number" && Number.isFinite(serviceRate)) {
      const pct = Number((serviceRate * 100).toPrecision(12))
      if (inside(pct) && pct >= 0) return String(pct)
    }
    const mid = Number(((L + H) / 2).toFixed(6))
    return inside(mid) && mid >= 0 ? String(mid) : null
  }

  written(rows: readonly KnownRate[], now: number): void {
    if (this.#last.size + rows.length > WRITTEN_MAX) this.#last.clear()
    for (const r of rows) this.#last.set(`${r.zip}|${r.tic}`, { rate: Number(r.rate), at: now })
  }

  clear(): void {
    this.#last.clear()
    this.#intervals.clear()
  }
}

/**
 * Pure: the service's own rate when it gives the line's tax to the cent (the same for every quantity, so
 * the next quote writes nothing), else the effective rate (a threshold or cap made the tax differ).
 */
export function lineRateToRemember(
  taxable: BigNumber.Value,
  amount: BigNumber.Value,
  serviceRate: number | null | undefined,
): string | null {
  const t = new BigNumber(taxable)
  if (!t.isFinite() || t.lte(0)) return null
  if (typeof serviceRate === "number" && Number.isFinite(serviceRate) && serviceRate >= 0) {
    const pct = new BigNumber(serviceRate).times(100)
    if (t.times(pct).div(100).decimalPlaces(2, BigNumber.ROUND_HALF_UP).eq(amount)) return pct.toString()
  }
  return effectiveRatePct(t, amount)
}
