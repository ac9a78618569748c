/**
 * Exact decimal arithmetic for the sandbox's hot path, on scaled BigInts: a value is `n / 10^s`.
 *
 * Why not bignumber.js here: the tax engine multiplies price x quantity x rate and rounds once per
 * line, and bignumber.js made that most of a request; BigInt does it in a fraction of the time.
 * Every operation is exact (no division); the only rounding is the explicit half-up (away from
 * zero) rounding to a number of places. `decimal.test.ts` checks each against bignumber.js.
 * Numbers from JSON are read through their shortest round-trip text (`String(n)`), as bignumber.js
 * reads a JS number, so 9.99 is exactly 9.99.
 */

export interface Decimal {
  /** unscaled value */
  readonly n: bigint
  /** scale: number of decimal places (>= 0) */
  readonly s: number
}

const POW10: bigint[] = [1n]
function pow10(k: number): bigint {
  for (let i = POW10.length; i <= k; i++) POW10.push(POW10[i - 1]! * 10n)
  return POW10[k]!
}

export const ZERO_DECIMAL: Decimal = { n: 0n, s: 0 }

const DEC_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i

/** Parses decimal text ("12", "-0.075", "1e-7", "2.5E+3"); throws on anything else. */
export function parseDecimal(text: string): Decimal {
  const m = DEC_RE.exec(text.trim())
  if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) throw new Error(`not a decimal number: ${JSON.stringify(text)}`)
  const [, sign, int = "", frac = "", exp] = m
  let digits = int + frac
  let scale = frac.length - (exp ? Number(exp) : 0)
  if (scale < 0) {
    digits += "0".repeat(-scale)
    scale = 0
  }
  const n = BigInt(digits === "" ? "0" : digits)
  return { n: sign === "-" ? -n : n, s: scale }
}

/** A finite JS number as the exact decimal of its shortest round-trip text. */
export function fromNumber(v: number): Decimal {
  if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`)
  if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) return { n: BigInt(v), s: 0 }
  const text = String(v)
  const dot = text.indexOf(".")
  if (dot < 0 || text.includes("e")) return parseDecimal(text)
  // "-12.99" -> digits "-1299", scale 2; the digit string is parsed exactly while it is a safe integer
  // (up to 15 digits they are; reading more of them as a number is slow)
  const digits = text.slice(0, dot) + text.slice(dot + 1)
  return { n: text.length - (v < 0 ? 2 : 1) <= 15 ? BigInt(Number(digits)) : BigInt(digits), s: text.length - dot - 1 }
}

export function decimal(v: number | string | Decimal): Decimal {
  return typeof v === "number" ? fromNumber(v) : typeof v === "string" ? parseDecimal(v) : v
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.s === b.s) return [a.n, b.n, a.s]
  if (a.s > b.s) return [a.n, b.n * pow10(a.s - b.s), a.s]
  return [a.n * pow10(b.s - a.s), b.n, b.s]
}

export const mul = (a: Decimal, b: Decimal): Decimal => ({ n: a.n * b.n, s: a.s + b.s })
export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, s] = align(a, b)
  return { n: x + y, s }
}
export function sub(a: Decimal, b: Decimal): Decimal {
  const [x, y, s] = align(a, b)
  return { n: x - y, s }
}
export const neg = (a: Decimal): Decimal => ({ n: -a.n, s: a.s })
export const abs = (a: Decimal): Decimal => (a.n < 0n ? neg(a) : a)
export const isZero = (a: Decimal): boolean => a.n === 0n
export const isNegative = (a: Decimal): boolean => a.n < 0n
/** a / 10^k, exact (percent -> fraction is shift(x, 2)). */
export const shift = (a: Decimal, k: number): Decimal => ({ n: a.n, s: a.s + k })
/** -1, 0 or 1 */
export function cmp(a: Decimal, b: Decimal): number {
  const [x, y] = align(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Rounds half away from zero to `places` decimals. */
export function roundHalfUp(a: Decimal, places: number): Decimal {
  if (a.s <= places) return a
  const d = pow10(a.s - places)
  let q = a.n / d // truncates toward zero
  const r = a.n - q * d
  const r2 = (r < 0n ? -r : r) * 2n
  if (r2 >= d) q += a.n < 0n ? -1n : 1n
  return { n: q, s: places }
}

/** The JS number nearest to the decimal (exact when the digits fit a double). Never -0. */
export function toNumber(a: Decimal): number {
  if (a.n === 0n) return 0
  if (a.s === 0) return Number(a.n)
  const big = a.n < 0n ? -a.n : a.n
  // n / 10^s with both exactly representable: one correctly rounded division, the nearest double
  if (big <= 9007199254740991n && a.s <= 22) return Number(a.n) / Number(pow10(a.s))
  return Number(toDecimalString(a))
}

/** Rounded half up to `places`, as a number (the cent rule with places = 2). */
export const roundToNumber = (a: Decimal, places: number): number => toNumber(roundHalfUp(a, places))

/** Plain decimal text without exponent or trailing fraction zeros ("1.4600" -> "1.46", "-0" -> "0"). */
export function toDecimalString(a: Decimal): string {
  if (a.n === 0n) return "0"
  const negative = a.n < 0n
  let digits = (negative ? -a.n : a.n).toString()
  if (a.s === 0) return (negative ? "-" : "") + digits
  if (digits.length <= a.s) digits = "0".repeat(a.s - digits.length + 1) + digits
  const int = digits.slice(0, digits.length - a.s)
  const frac = digits.slice(digits.length - a.s).replace(/0+$/, "")
  return (negative ? "-" : "") + int + (frac ? "." + frac : "")
}

/** Sum of values, exact. */
export function sumDecimals(values: Iterable<number | string | Decimal>): Decimal {
  let s = ZERO_DECIMAL
  for (const v of values) s = add(s, decimal(v))
  return s
}

// ---------------------------------------------------------------------------------------------
// Number fast path (no BigInt allocation) for the per-line tax: exact while every intermediate
// integer stays below 2^52, else the BigInt path above.
// ---------------------------------------------------------------------------------------------

const SAFE = 2 ** 52
const POW10_NUM = Array.from({ length: 23 }, (_, i) => 10 ** i) // exact doubles up to 1e22

/** [digits as an integer, scale] of a JS number's shortest text, when the digits are a safe integer. */
function smallScaled(v: number): [number, number] | null {
  if (Number.isInteger(v)) return Math.abs(v) < SAFE ? [v, 0] : null
  // cents (most prices) without a text: v is the double nearest c / 100, and below 2^31 (ulp ≤ 2^-22)
  // no other decimal that short reads as v, so its shortest text has this value
  const c = Math.round(v * 100)
  if (c / 100 === v && Math.abs(v) < 2 ** 31) return [c, 2]
  const text = String(v)
  const dot = text.indexOf(".")
  if (dot < 0 || text.includes("e")) return null
  // up to 15 digits they are a safe integer (reading more of them as a number is slow)
  if (text.length - (v < 0 ? 2 : 1) > 15) return null
  return [Number(text.slice(0, dot) + text.slice(dot + 1)), text.length - dot - 1]
}

/**
 * x × y × z rounded half away from zero to `places`, as a number — the same value as
 * `roundToNumber(mul(mul(fromNumber(x), fromNumber(y)), z), places)`, computed on doubles holding
 * exact integers when everything fits (the common case), else through BigInt. `zn` is Number(z.n),
 * for a caller that keeps it.
 */
export function productRoundedToNumber(x: number, y: number, z: Decimal, places: number, zn = Number(z.n)): number {
  const a = smallScaled(x)
  const b = a && smallScaled(y)
  if (a && b && Number.isSafeInteger(zn)) {
    const ab = a[0] * b[0]
    if (Math.abs(ab) < SAFE && Math.abs(ab * zn) < SAFE) {
      const p = ab * zn // exact: a product of integers below 2^52
      const scale = a[1] + b[1] + z.s
      if (scale <= places) {
        const up = p * POW10_NUM[places - scale]!
        if (Math.abs(up) < SAFE && places <= 22) return up / POW10_NUM[places]! + 0
      } else if (scale - places <= 22 && places <= 22) {
        const d = POW10_NUM[scale - places]!
        const r = p % d // exact on integers
        let q = (p - r) / d // exact: p - r is a multiple of d
        if (2 * Math.abs(r) >= d) q += p < 0 ? -1 : 1
        return q / POW10_NUM[places]! + 0 // + 0: never -0
      }
    }
  }
  return roundToNumber(mul(mul(fromNumber(x), fromNumber(y)), z), places)
}
