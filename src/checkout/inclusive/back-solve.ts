import BigNumber from "bignumber.js"
import { dec, type DecLike } from "../../../packages/contract/src/money"
import { memoSet, runtimeSlot } from "../../runtime"

/**
 * Rate back-solving: the service answers a tax AMOUNT per line; Medusa takes a RATE and computes `taxable × rate / 100`
 * unrounded, so we return the rate whose product rounds to the service's amount. The cart module keeps rates in a
 * PostgreSQL `real` (float4), read back as the shortest round-tripping decimal: the rate is chosen among the float4 values
 * around the quotient, written as that decimal, so what Medusa reads back is exactly what we return.
 */

const f32buf = new DataView(new ArrayBuffer(4))

/** Shortest decimal string that reads back as the same float4 (what PostgreSQL prints for `real`). */
export function float32Shortest(x: number): string {
  const f = Math.fround(x)
  if (f === 0) return "0"
  if (!Number.isFinite(f)) throw new RangeError(`not a finite float4: ${x}`)
  const ok = (p: number) => Math.fround(Number(f.toPrecision(p))) === f
  f32buf.setFloat32(0, f)
  if (f >= 1 && f < 4194304 && (f32buf.getUint32(0) & 0x7fffff) !== 0) {
    // Bisection is sound here: for f in [1, 2^22), not a power of two, f's rounding interval is symmetric and no decimal
    // of ≤ 9 digits sits within a double ulp of a float4 midpoint, so "p digits read back" is monotonic in p.
    let lo = 1
    let hi = 9
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (ok(mid)) hi = mid
      else lo = mid + 1
    }
    return String(Number(f.toPrecision(hi)))
  }
  for (let p = 1; p <= 9; p++) if (ok(p)) return String(Number(f.toPrecision(p)))
  return String(f)
}

/** The float4 `steps` representable values away from `x` (x must be a float4). */
export function float32Step(x: number, steps: number): number {
  f32buf.setFloat32(0, x)
  let bits = f32buf.getInt32(0)
  // positive floats only (rates are >= 0): the bit pattern is monotonic
  bits += steps
  if (bits < 0) return 0
  f32buf.setInt32(0, bits)
  return f32buf.getFloat32(0)
}

/** Medusa's tax for one line, as its totals code computes it: taxable × rate / 100, unrounded. */
export function medusaTax(taxable: DecLike, ratePct: DecLike): BigNumber {
  // ÷ 100 is a decimal shift: exact, and much cheaper than a 40-place division
  return dec(taxable).times(dec(ratePct).shiftedBy(-2))
}

/** Half-up to the cent (the service's rounding and Medusa's display). */
export function roundHalfUpCents(v: BigNumber): BigNumber {
  return v.decimalPlaces(2, BigNumber.ROUND_HALF_UP)
}

export interface BackSolveInput {
  /** What Medusa will tax for this line: unit_price × quantity − discounts (tax-exclusive prices). */
  taxable: DecLike
  /** The service's tax amount for this line (dollars, on the cent). */
  amount: DecLike
  /** Rate (percentage) to show when the taxable amount is 0 (any rate yields 0 tax). */
  displayRatePct?: number
}

/** The float4 rate whose product with `taxable` is closest to `amount`, Medusa's unrounded tax with it, and whether that rounds to it. */
export function backSolveRate(input: BackSolveInput): { rate: number; medusaAmount: string; exact: boolean } {
  const { rate, exact } = backSolve(input)
  return { rate, medusaAmount: medusaTax(input.taxable, rate).toString(), exact }
}

/** backSolveRate without Medusa's amount (the provider reads only rate and exact), memoized. */
export function solvedRate(input: BackSolveInput, taxableKey?: string): { rate: number; exact: boolean } {
  const key = `${taxableKey ?? String(input.taxable)}|${String(input.amount)}|${input.displayRatePct ?? 0}`
  const memo = solvedMemo()
  return memo.get(key) ?? memoSet(memo, key, Object.freeze(backSolve(input)))
}
/** Memo of solvedRate (a pure function of taxable, amount and display rate). */
const solvedMemo = runtimeSlot("solvedRates", () => new Map<string, { readonly rate: number; readonly exact: boolean }>())

function backSolve({ taxable, amount, displayRatePct = 0 }: BackSolveInput): { rate: number; exact: boolean } {
  const t = dec(taxable)
  const a = dec(amount)
  if (t.lte(0)) return { rate: t.isZero() ? displayRatePct : 0, exact: a.isZero() }
  if (a.isZero()) return { rate: 0, exact: true }
  const best = a.isNegative() ? null : bestCandidate(t, a, startingFloat4(t, a))
  return best !== null ? { rate: best, exact: true } : closestDouble(a.times(100).div(t), a, (r) => medusaTax(t, r))
}

/** Beyond float4 resolution: the closest double (exact where the rate is kept in a numeric column). */
export function closestDouble(ratePct: BigNumber, a: BigNumber, taxAt: (ratePct: number) => BigNumber): { rate: number; exact: boolean } {
  const d = ratePct.toNumber()
  return { rate: d, exact: roundHalfUpCents(taxAt(d)).eq(a) }
}

/** The float4 nearest amount×100/taxable: the doubles' quotient unless it lies next to a float4 midpoint (then the decimals'). */
function startingFloat4(t: BigNumber, a: BigNumber): number {
  const q = (a.toNumber() * 100) / t.toNumber()
  if (Number.isFinite(q) && q > 0) {
    const f = Math.fround(q)
    const tol = 1e-13 * q
    const midLo = (f + float32Step(f, -1)) / 2
    const midHi = (f + float32Step(f, 1)) / 2
    if (f > 0 && Number.isFinite(f) && Math.abs(q - midLo) > tol && Math.abs(q - midHi) > tol) return f
  }
  return Math.fround(a.times(100).div(t).toNumber())
}

/** closestCandidate for Medusa's tax on `t`: decided in doubles where they are conclusive, in exact decimals otherwise. */
function bestCandidate(t: BigNumber, a: BigNumber, f0: number): number | null {
  const tN = t.toNumber()
  const aN = a.toNumber()
  const near = Number.isFinite(tN) && Number.isFinite(aN) ? nearCandidate(tN, aN, f0) : undefined
  // the reference: every candidate's Medusa tax in exact decimals
  return near !== undefined ? near : closestCandidate(f0, a, (r) => medusaTax(t, r))
}

/**
 * The fast path of bestCandidate (undefined: undecided). c(s) and d(s) = t·c(s)/100 − a increase with s; when the
 * products at the midpoints outside f0±4 lie a margin inside a ± 0.005, every candidate rounds to `a` and the
 * closest is c(k−1) or c(k), k the first s with d(s) ≥ 0. A near tie goes to the decimals.
 */
export function nearCandidate(tN: number, aN: number, f0: number): number | null | undefined {
  // a margin far above the doubles' error here (a few ulps of numbers of a's size)
  const margin = 1e-12 * Math.max(1, Math.abs(aN) + 0.01)
  const below = (float32Step(f0, -5) + float32Step(f0, -4)) / 2
  const above = (float32Step(f0, 4) + float32Step(f0, 5)) / 2
  if (!((tN * below) / 100 - aN >= -0.005 + margin && (tN * above) / 100 - aN < 0.005 - margin)) return undefined
  candidates.fill(NaN)
  // k: the first s in -4..5 with d(s) >= 0 (5: none), walking from 0 (the crossing is next to f0)
  let k = 0
  if (gap(tN, aN, f0, 0) >= 0) {
    while (k > -4 && gap(tN, aN, f0, k - 1) >= 0) k--
  } else {
    k = 1
    while (k <= 4 && gap(tN, aN, f0, k) < 0) k++
  }
  // the closest of c(k-1) and c(k) (the first on a tie); the runner-up is one of its neighbours
  let best: number
  if (k === -4) best = -4
  else if (k === 5) best = 4
  else best = Math.abs(gap(tN, aN, f0, k)) < Math.abs(gap(tN, aN, f0, k - 1)) ? k : k - 1
  const err = Math.abs(gap(tN, aN, f0, best))
  // a near tie: the decimals decide
  if (best > -4 && Math.abs(Math.abs(gap(tN, aN, f0, best - 1)) - err) <= margin) return undefined
  if (best < 4 && Math.abs(Math.abs(gap(tN, aN, f0, best + 1)) - err) <= margin) return undefined
  return candidate(f0, best)
}

/** nearCandidate's candidates c(-4..4) of the current f0, each read once (NaN: not read yet). */
const candidates = new Float64Array(9)
function candidate(f0: number, s: number): number {
  let v = candidates[s + 4]!
  if (v !== v) candidates[s + 4] = v = Number(float32Shortest(float32Step(f0, s)))
  return v
}
/** d(s): Medusa's product with c(s) minus the amount, in doubles. */
function gap(tN: number, aN: number, f0: number, s: number): number {
  return (tN * candidate(f0, s)) / 100 - aN
}

/** Among the float4 values f0-4 .. f0+4 (as shortest decimals), the rate whose `taxAt` rounds to `a` and lies closest (first on a tie), or null. */
export function closestCandidate(f0: number, a: BigNumber, taxAt: (ratePct: number) => BigNumber): number | null {
  let best: { rate: number; err: BigNumber } | undefined
  for (let s = -4; s <= 4; s++) {
    const cand = Number(float32Shortest(float32Step(f0, s)))
    const tax = taxAt(cand)
    const err = tax.minus(a).abs()
    if (roundHalfUpCents(tax).eq(a) && (!best || err.lt(best.err))) best = { rate: cand, err }
  }
  return best ? best.rate : null
}
