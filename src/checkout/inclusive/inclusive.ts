import BigNumber from "bignumber.js"
import { MathBN } from "@medusajs/framework/utils"
import { dec, type DecLike } from "../../../packages/contract/src/money"
import { closestCandidate, closestDouble, roundHalfUpCents as toCents } from "./back-solve"

/**
 * Tax-inclusive prices. The service only taxes nets, so a line's gross G is split into a net N and tax T with N + T = G
 * and T = the service's tax on N; Medusa then gets the float4 rate whose inclusive tax on G rounds to T. N is found by
 * quoting at a hinted net or the gross, then at G / (1 + rate), then one re-quote when the net crossed a rule (a
 * per-item threshold). Where no net exists (N + tax(N) jumps two cents) the split one cent short of G is kept: the
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
 * The line's rate (a fraction) as precisely as one answer tells it: the reported rate is ±0.00005 and, when the line is
 * taxed whole at one rate (`whole`), amount ÷ net is ±0.005 ÷ net: the middle of both; else the reported rate.
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
 * One answer's rate interval intersected with `prev`'s (disjoint: the rate changed, the new one wins); predicted with
 * the reported rate while the interval allows it (rates are mostly whole to 4 places), else its middle.
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

/** The net near G ÷ (1 + rate) closing N + T = G for every rate in [lo, hi], else at `rate` (not `except`), else one cent short. */
function closingNet(g: BigNumber, k: { rate: DecLike; lo: DecLike; hi: DecLike }, except?: BigNumber): BigNumber | undefined {
  const x0 = toCents(g.div(dec(k.rate).plus(1)))
  const cands = [0, -1, 1, -2, 2].map((i) => BigNumber.min(g, BigNumber.max(0, x0.plus(CENT.times(i)))))
  const sure = cands.find((x) => serviceTax(x, k.lo).eq(serviceTax(x, k.hi)) && x.plus(serviceTax(x, k.lo)).eq(g))
  const at = (target: BigNumber) => cands.find((x) => !(except && x.eq(except)) && x.plus(serviceTax(x, k.rate)).eq(target))
  return sure ?? at(g) ?? at(g.minus(CENT))
}

/** The next net to quote after the answer at `net` (null: none better): the closing net, else a Newton step at the reported rate. */
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

/** The split to charge: an exact one, else N + T closest below G (never more tax than on a net within the price), else the closest. */
export function chooseSplit(gross: DecLike, tried: { net: BigNumber; answer: LineAnswer }[], calls: number): InclusiveSplit {
  if (!tried.length) throw new Error("chooseSplit: no answer")
  const g = dec(gross)
  const scored = tried.map((t) => ({ ...t, residual: g.minus(t.net).minus(t.answer.amount) }))
  scored.sort((a, b) => Number(a.residual.isNegative()) - Number(b.residual.isNegative()) || a.residual.abs().comparedTo(b.residual.abs())!)
  const best = scored[0]!
  return { net: best.net.toString(), amount: best.answer.amount, rate: best.answer.rate, residual: best.residual.toString(), calls }
}

/** The net to quote first for a line of gross G at a known rate (a fraction), within `bounds` if known. */
export function hintedNet(gross: DecLike, rate: DecLike, bounds: { lo: DecLike; hi: DecLike } = { lo: rate, hi: rate }): BigNumber {
  const g = dec(gross)
  return closingNet(g, { rate, ...bounds }) ?? BigNumber.min(g, BigNumber.max(0, toCents(g.div(dec(rate).plus(1)))))
}

/** The most service calls one inclusive cart state may take (the gross, the net, one re-quote). */
export const MAX_INCLUSIVE_CALLS = 3

/** Each inclusive line's split, by `quote` calls (the whole service cart at the given nets), the first at `start`'s nets or the gross. */
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
  // a missed hint costs at most one call more than quoting the gross first
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

/** Medusa's tax of a tax-inclusive line at `ratePct`, as utils/totals computes it (MathBN, unrounded; shipping: quantity 1). */
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
 * The float4 rate (percentage) near amount × 100 ÷ (shown − amount) whose Medusa inclusive tax rounds to `amount`
 * (`exact`); `price` is unit_price × quantity, shown = price − `inclusiveDiscount`.
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
