import BigNumber from "bignumber.js"

/**
 * The sandbox's own decimal money helpers (bignumber.js) for the paths that divide (refund tax pro
 * rata) or are off the hot path. Kept inside src/sandbox so the sandbox depends on src/contract
 * only (it is to become its own package). The per-line tax of carts uses ./decimal.ts instead.
 */
export const Dec = BigNumber.clone({ DECIMAL_PLACES: 40, ROUNDING_MODE: BigNumber.ROUND_HALF_UP })
export type Dec = BigNumber

export function dec(v: BigNumber.Value): BigNumber {
  return new Dec(v)
}

/** Rounds to the cent, half away from zero. */
export function roundCents(v: BigNumber.Value): number {
  return new Dec(v).decimalPlaces(2, BigNumber.ROUND_HALF_UP).toNumber()
}

/** Sum of amounts in exact decimal arithmetic. */
export function sum(values: Iterable<BigNumber.Value>): BigNumber {
  let s = new Dec(0)
  for (const v of values) s = s.plus(v)
  return s
}
