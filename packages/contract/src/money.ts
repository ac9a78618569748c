import BigNumber from "bignumber.js"

/**
 * Decimal money arithmetic. Every amount that is summed, multiplied or rounded goes through
 * BigNumber (the same library Medusa's BigNumber uses), never through float arithmetic.
 */
export const Dec = BigNumber.clone({ DECIMAL_PLACES: 40, ROUNDING_MODE: BigNumber.ROUND_HALF_UP })
export type Dec = BigNumber

export type DecLike = BigNumber.Value

export function dec(v: DecLike): BigNumber {
  return new Dec(v)
}

/** Rounds to the cent, half away from zero (the service's rule for per-line tax). */
export function roundCents(v: DecLike): number {
  return new Dec(v).decimalPlaces(2, BigNumber.ROUND_HALF_UP).toNumber()
}

/** Rounds to `places` decimals, half away from zero, as a number. */
export function roundTo(v: DecLike, places: number): number {
  return new Dec(v).decimalPlaces(places, BigNumber.ROUND_HALF_UP).toNumber()
}

/** Sum of amounts in exact decimal arithmetic. */
export function sum(values: Iterable<DecLike>): BigNumber {
  let s = new Dec(0)
  for (const v of values) s = s.plus(v)
  return s
}

/** Integer cents of a dollar amount already on the cent (throws if it is not). */
export function toCents(v: DecLike): number {
  const c = new Dec(v).times(100)
  if (!c.isInteger()) throw new Error(`amount ${String(v)} is not a whole number of cents`)
  return c.toNumber()
}

export function fromCents(cents: number): number {
  return new Dec(cents).div(100).toNumber()
}
