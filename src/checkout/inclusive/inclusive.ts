import BigNumber from "bignumber.js"
import { MathBN } from "@medusajs/framework/utils"
import { dec, type DecLike } from "../../money"
import { closestCandidate, closestDouble, roundHalfUpCents as toCents } from "./back-solve"

/**
 * Tax-inclusive prices. The service only taxes nets, so a line's gross G is split into a net N and
 * tax T with N + T = G and T = the service's tax on N; Medusa then gets the float4 rate whose
 * inclusive tax on G rounds to T (`backSolveInclusiveRate`). `resolveInclusive` finds N by quoting
 * at a hinted net (`hintedNet`) or the gross, then at G / (1 + rate), then one re-quote when the net
 * crossed a rule (a per-item threshold); a missed hint costs one call more. Where no net exists
 * (N + tax(N) jumps two cents where tax steps one) the split one cent short of G is kept: the
 * shopper still pays G and the order is filed with net G − T and tax T as charged.
 */

export interface InclusiveLine {
  itemId: string
  /** Tax included (dollars): Medusa's unit_price × quantity − inclusive discounts. */
  gross: DecLike
}

/** The service's answer for one line: tax amount (cents) and reported rate (fraction, 4 places). */
export interface LineAnswer {
  amount: number
  rate: number
}

export interface InclusiveSplit {
  /** The net the service was last asked for this line (dollars). */
  net: string
  /** The tax Medusa charges (the service's tax on `net`). */
  amount: number
  rate: number
  /** G − net − amount: 0 when the split is exact; ±0.01 (one cent) where no net exists. */
  residual: string
  calls: number
}

const CENT = new BigNumber("0.01")

/**
 * The line's rate as a fraction, as precisely as one answer tells it: the reported rate is rounded
 * to 4 places (±0.00005); when the whole line is taxed at one rate, amount ÷ net pins it to
 * ±0.005 ÷ net as well. Returns the middle of what both allow and whether the line looks taxed
 * whole at one rate (`whole`), else the reported rate (a threshold rule taxes only part of the net).
 */
export function rateEstimate(net: DecLike, a: LineAnswer): { rate: BigNumber; lo: BigNumber; hi: BigNumber; whole: boolean } {
  const n = dec(net)
  const r = dec(a.rate)
  if (n.lte(0) || a.amount === 0) return { rate: r, lo: r, hi: r, whole: a.amount === 0 && r.isZero() }
  const lo = BigNumber.max(r.minus("0.00005"), dec(a.amount).minus("0.005").div(n))
  const hi = BigNumber.min(r.plus("0.00005"), dec(a.amount).plus("0.005").div(n))
  if (lo.gt(hi)) return { rate: r, lo: r, hi: r, whole: false }
  return { rate: lo.plus(hi).div(2), lo, hi, whole: true }
}

/** The service's rounding: half-up to the cent. */
export function serviceTax(net: DecLike, rate: DecLike): BigNumber {
  return toCents(dec(net).times(rate))
}

/**
 * What one answer (at `net`) tells of a line's rate, narrowed by what `prev` knew: the intervals
 * are intersected (one outside: the rate changed, it replaces them); the rate to predict with is
 * the reported one while the interval allows it (rates are mostly whole to 4 places), else its middle.
 */
export function narrowKnown(
  prev: { lo: DecLike; hi: DecLike } | undefined,
  net: DecLike,
  a: LineAnswer,
): { rate: BigNumber; lo: BigNumber; hi: BigNumber } {
  let { lo, hi } = rateEstimate(net, a)
  if (prev) {
    const l = BigNumber.max(lo, prev.lo)
    const h = BigNumber.min(hi, prev.hi)
    if (l.lte(h)) [lo, hi] = [l, h]
  }
  const reported = dec(a.rate)
  return { rate: reported.gte(lo) && reported.lte(hi) ? reported : lo.plus(hi).div(2), lo, hi }
}

/**
 * The net on the cent around G ÷ (1 + rate) that closes N + T = G for every rate in [lo, hi], else
 * at `rate`, else (a gap: no net closes) the one cent short, the split chooseSplit keeps; `except`
 * is not offered at `rate`.
 */
function closingNet(g: BigNumber, k: { rate: DecLike; lo: DecLike; hi: DecLike }, except?: BigNumber): BigNumber | undefined {
  const x0 = toCents(g.div(dec(k.rate).plus(1)))
  const cands = [0, -1, 1, -2, 2].map((i) => BigNumber.min(g, BigNumber.max(0, x0.plus(CENT.times(i)))))
  const sure = cands.find((x) => serviceTax(x, k.lo).eq(serviceTax(x, k.hi)) && x.plus(serviceTax(x, k.lo)).eq(g))
  const at = (target: BigNumber) => cands.find((x) => !(except && x.eq(except)) && x.plus(serviceTax(x, k.rate)).eq(target))
  return sure ?? at(g) ?? at(g.minus(CENT))
}

/**
 * The next net to quote for a line, from the last answer at `net` (null: none better). Taxed whole
 * at one rate: the closing net (closingNet); else a Newton step with the reported rate as the slope.
 */
export function nextNet(gross: DecLike, net: DecLike, a: LineAnswer): BigNumber | null {
  const g = dec(gross)
  const n = dec(net)
  const residual = g.minus(n).minus(a.amount)
  if (residual.isZero()) return null
  const est = rateEstimate(n, a)
  const x = est.whole
    ? closingNet(g, narrowKnown(undefined, n, a), n)
    : BigNumber.min(g, BigNumber.max(0, toCents(n.plus(residual.div(est.rate.plus(1))))))
  return x && !x.eq(n) ? x : null
}

/**
 * Among the answers a line got, the split to charge: an exact one; else the one with N + T closest
 * below G (the shopper is never charged more tax than the service computes on a net within the
 * price); else the closest.
 */
export function chooseSplit(gross: DecLike, tried: { net: BigNumber; answer: LineAnswer }[], calls: number): InclusiveSplit {
  if (!tried.length) throw new Error("chooseSplit: no answer")
  const g = dec(gross)
  const scored = tried.map((t) => ({ ...t, residual: g.minus(t.net).minus(t.answer.amount) }))
  scored.sort((a, b) => Number(a.residual.isNegative()) - Number(b.residual.isNegative()) || a.residual.abs().comparedTo(b.residual.abs())!)
  const best = scored[0]!
  return { net: best.net.toString(), amount: best.answer.amount, rate: best.answer.rate, residual: best.residual.toString(), calls }
}

/** The net to quote first for a line of gross G at a known rate (a fraction), within `bounds` if known (closingNet). */
export function hintedNet(gross: DecLike, rate: DecLike, bounds: { lo: DecLike; hi: DecLike } = { lo: rate, hi: rate }): BigNumber {
  const g = dec(gross)
  return closingNet(g, { rate, ...bounds }) ?? BigNumber.min(g, BigNumber.max(0, toCents(g.div(dec(rate).plus(1)))))
}

/** The most service calls one inclusive cart state may take (the gross, the net, one re-quote). */
export const MAX_INCLUSIVE_CALLS = 3

/**
 * Resolves the net of every inclusive line with `quote` (one call = the whole service cart with the
 * given nets for the inclusive lines; it answers per itemId), the first call at `start`'s net
 * (hintedNet) or the gross. Returns the split of each line and the last answer.
 */
export async function resolveInclusive(
  lines: InclusiveLine[],
  quote: (nets: Map<string, BigNumber>) => Promise<Map<string, LineAnswer>>,
  start?: ReadonlyMap<string, BigNumber>,
): Promise<{ splits: Map<string, InclusiveSplit>; last: Map<string, LineAnswer>; calls: number }> {
  const gross = new Map(lines.map((l) => [l.itemId, dec(l.gross)]))
  const tried = new Map<string, { net: BigNumber; answer: LineAnswer }[]>(lines.map((l) => [l.itemId, []]))
  let nets = new Map([...gross].map(([id, g]) => [id, start?.get(id) ?? g]))
  let last = new Map<string, LineAnswer>()
  let calls = 0
  // a hint that missed costs at most one call more than quoting the gross first: the steps after it
  // are the gross-first path's, from a nearer net
  let limit = MAX_INCLUSIVE_CALLS
  while (calls < limit) {
    last = await quote(nets)
    calls++
    let moved = false
    const next = new Map(nets)
    for (const [id, g] of gross) {
      const a = last.get(id)
      if (!a) continue
      const n = nets.get(id)!
      const list = tried.get(id)!
      if (!list.some((t) => t.net.eq(n))) list.push({ net: n, answer: a })
      if (g.minus(n).minus(a.amount).isZero()) continue
      if (calls === 1 && start?.has(id)) limit = MAX_INCLUSIVE_CALLS + 1
      const x = nextNet(g, n, a)
      if (x && !list.some((t) => t.net.eq(x))) moved = !!next.set(id, x)
    }
    if (!moved) break
    nets = next
  }
  const splits = new Map<string, InclusiveSplit>()
  for (const [id, list] of tried) if (list.length) splits.set(id, chooseSplit(gross.get(id)!, list, calls))
  return { splits, last, calls }
}

/**
 * Medusa's tax of a tax-inclusive line at `ratePct`, as utils/totals computes it (MathBN, unrounded):
 * subtotal = unit_price × quantity ÷ (1 + r); tax-inclusive adjustments ÷ (1 + r), per item × quantity;
 * tax = (subtotal − adjustments) × r. For a shipping method: quantity 1.
 */
export function medusaInclusiveTax(input: {
  gross: DecLike
  inclusiveDiscount?: DecLike
  quantity?: DecLike
  ratePct: DecLike
}): BigNumber {
  const r = MathBN.div(String(input.ratePct), 100)
  const onePlus = MathBN.add(1, r)
  const subtotal = MathBN.div(String(input.gross), onePlus)
  const q = String(input.quantity ?? 1)
  const adj = MathBN.mult(MathBN.div(MathBN.div(String(input.inclusiveDiscount ?? 0), onePlus), q), q)
  return new BigNumber(MathBN.mult(MathBN.sub(subtotal, adj), r).toString())
}

/**
 * The rate (percentage, a float4 as the `real` column keeps it) whose Medusa inclusive tax rounds to
 * `amount`: around amount × 100 ÷ (shown − amount), the candidate closest to the amount. `price` is
 * unit_price × quantity and `inclusiveDiscount` the line's tax-inclusive adjustments (shown = price −
 * discount); `exact`: Medusa's tax at the rate rounds to the amount.
 */
export function backSolveInclusiveRate(input: {
  price: DecLike
  inclusiveDiscount?: DecLike
  quantity?: DecLike
  amount: DecLike
  displayRatePct?: number
}): { rate: number; exact: boolean } {
  const price = dec(input.price)
  const disc = dec(input.inclusiveDiscount ?? 0)
  const shown = price.minus(disc)
  const a = dec(input.amount)
  if (shown.lte(0)) return { rate: shown.isZero() ? (input.displayRatePct ?? 0) : 0, exact: a.isZero() }
  if (a.isZero()) return { rate: 0, exact: true }
  const net = shown.minus(a)
  if (net.lte(0) || a.isNegative()) return { rate: 0, exact: false }
  const taxAt = (ratePct: number) => medusaInclusiveTax({ gross: price, inclusiveDiscount: disc, quantity: input.quantity, ratePct })
  const q = a.times(100).div(net)
  const best = closestCandidate(Math.fround(q.toNumber()), a, taxAt)
  return best !== null ? { rate: best, exact: true } : closestDouble(q, a, taxAt)
}
