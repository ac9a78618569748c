/**
 * Sandbox tax engine: pure and synchronous. Rates and taxability come from the tables under
 * ./data (SANDBOX DATA, NOT FOR FILING), each row carrying its source.
 *
 * Rounding rule (the service's): per line, amount = round-half-up to the cent of
 * (taxable part of price x quantity) x UNROUNDED rate; the reported rate is the rate applied to
 * the taxable part, as a fraction rounded to 4 places (9.025% -> 0.0903).
 *
 * Arithmetic is exact decimal on scaled BigInts (../decimal.ts); the table's decimal strings are
 * parsed once and kept (see docs/sandbox.md, "Where the time went").
 */
import type { Address, CartLineItemIn, LineItemOut } from "@medusa-sales-tax/contract"
import { US_STATES, US_ZIP_RE } from "@medusa-sales-tax/contract"
import {
  abs,
  add,
  cmp,
  fromNumber,
  isNegative,
  isZero,
  mul,
  neg,
  parseDecimal,
  productRoundedToNumber,
  roundToNumber,
  shift,
  sub,
  toDecimalString,
  type Decimal,
} from "../decimal"
import { LOCAL_OVERRIDES, type LocalOverride } from "./data/local-overrides"
import { STATE_RATES, type StateRateRow } from "./data/states"
import { CATEGORIES, TAXABILITY, type Category, type CategoryTable, type TaxRule } from "./data/taxability"

export type { Category, TaxRule } from "./data/taxability"
export { CATEGORIES } from "./data/taxability"

export interface QuoteInput {
  origin: Address
  destination: Address
  /** price = unit price (dollars), quantity, tic (null/undefined -> 0 general goods). */
  lineItems: CartLineItemIn[]
  /** States where an active exemption certificate applies: tax 0 there. */
  exemptStates?: ReadonlySet<string>
  /** Transaction date (rates are not dated in the sandbox; accepted for API symmetry). */
  date?: Date
}

// ---------------------------------------------------------------------------------------------
// Table indexes (built once at module load, validated so a typo in the data fails fast)
// ---------------------------------------------------------------------------------------------

const STATES = new Map<string, StateRateRow>(STATE_RATES.map((r) => [r.state, r]))
const OVERRIDES = new Map<string, LocalOverride>()
for (const o of LOCAL_OVERRIDES) for (const z of o.zip3) OVERRIDES.set(z, o)
const TIC_CATEGORY = new Map<number, Category>()
const TABLES = new Map<Category, CategoryTable>()
for (const t of TAXABILITY) {
  TABLES.set(t.category, t)
  for (const tic of t.tics) {
    if (TIC_CATEGORY.has(tic)) throw new Error(`sandbox tax data: TIC ${tic} is in two categories`)
    TIC_CATEGORY.set(tic, t.category)
  }
}
for (const s of US_STATES) if (!STATES.has(s)) throw new Error(`sandbox tax data: no rate row for ${s}`)
for (const c of CATEGORIES) if (!TABLES.has(c)) throw new Error(`sandbox tax data: no taxability table for ${c}`)

// ---------------------------------------------------------------------------------------------
// Jurisdiction
// ---------------------------------------------------------------------------------------------

const US_STATE_SET = new Set<string>(US_STATES)

/** The table's decimal strings, parsed once. */
const PARSED = new Map<string, Decimal>()
function D(text: string): Decimal {
  let d = PARSED.get(text)
  if (!d) PARSED.set(text, (d = parseDecimal(text)))
  return d
}
/** percent text -> fraction, exact (kept: the same few rates come back on every line) */
const PCT = new Map<string, Decimal>()
function pct(text: string): Decimal {
  let d = PCT.get(text)
  if (!d) PCT.set(text, (d = shift(D(text), 2)))
  return d
}
/** (a + b) percent -> fraction, exact, kept */
const PCT_SUM = new Map<string, Decimal>()
function pctSum(a: string, b: string): Decimal {
  const key = a + "+" + b
  let d = PCT_SUM.get(key)
  if (!d) PCT_SUM.set(key, (d = shift(add(D(a), D(b)), 2)))
  return d
}
/**
 * A rate rounded to 4 places for the answer, kept per rate: every rate the engine applies is one
 * of the kept Decimal objects above (a bounded set from the tables), so the map stays small.
 */
const RATE4 = new WeakMap<Decimal, number>()
function rate4(rate: Decimal): number {
  let r = RATE4.get(rate)
  if (r === undefined) RATE4.set(rate, (r = roundToNumber(rate, 4)))
  return r
}

/**
 * Jurisdictions by state + ZIP prefix (a small, bounded set: 51 states x 1000 prefixes at most),
 * each with the whole-line rate of each category there, decided when first asked (see lineRate).
 */
const JURISDICTIONS = new Map<string, { j: Readonly<Jurisdiction>; rates: Map<Category, WholeLineRate | undefined> }>()

/** True when the sandbox computes tax for this destination (US state/DC with a valid ZIP); else all lines get 0. */
export function isTaxableDestination(addr: Address): boolean {
  if (addr.countryCode && addr.countryCode !== "US") return false
  const state = addr.state.trim().toUpperCase()
  return US_STATE_SET.has(state) && US_ZIP_RE.test(addr.zip.trim())
}

export interface Jurisdiction {
  state: string
  /** State base rate, percent (decimal string). */
  stateRate: string
  /** Local component, percent (decimal string): the ZIP-prefix override or the state average. */
  localRate: string
  /** stateRate + localRate, percent (decimal string, unrounded). */
  combinedRate: string
  noSalesTax: boolean
  /** Place name when a ZIP-prefix override applies. */
  place: string | null
  clothingLocalExempt: boolean
  source: string
}

/**
 * The rates that apply to a destination, or null when the sandbox taxes nothing there
 * (not a US state/DC, or no valid ZIP). The state comes from the address's `state` field; a
 * ZIP-prefix override applies only when it is for that same state. ZIPs are not checked against
 * the ZIP database here (verify-address does that): an unknown but well-formed ZIP gets the
 * state's average local rate.
 */
export function jurisdictionFor(addr: Address): Jurisdiction | null {
  return placeFor(addr)?.j ?? null
}

function placeFor(addr: Address) {
  if (!isTaxableDestination(addr)) return null
  const state = addr.state.trim().toUpperCase()
  const key = state + addr.zip.trim().slice(0, 3)
  let place = JURISDICTIONS.get(key)
  if (!place) JURISDICTIONS.set(key, (place = { j: Object.freeze(computeJurisdiction(state, addr)), rates: new Map() }))
  return place
}

function computeJurisdiction(state: string, addr: Address): Jurisdiction {
  const row = STATES.get(state)!
  const o = OVERRIDES.get(addr.zip.trim().slice(0, 3))
  const override = o && o.state === state ? o : undefined
  const localRate = row.noSalesTax ? "0" : override ? override.local : row.local
  return {
    state,
    stateRate: row.base,
    localRate,
    combinedRate: toDecimalString(add(D(row.base), D(localRate))),
    noSalesTax: !!row.noSalesTax,
    place: override?.place ?? null,
    clothingLocalExempt: !!override?.clothingLocalExempt,
    source: override ? override.source : `${row.source}; local: ${row.localSource}`,
  }
}

// ---------------------------------------------------------------------------------------------
// Taxability
// ---------------------------------------------------------------------------------------------

/** Category of a TIC; null/undefined and TICs in no category (or unknown) are general goods. */
export function categoryOfTic(tic: number | null | undefined): Category {
  if (tic === null || tic === undefined) return "general"
  return TIC_CATEGORY.get(tic) ?? "general"
}

/** The rule for a category in a state (the category default unless the state overrides it). */
export function ruleFor(state: string, category: Category): TaxRule {
  const row = STATES.get(state)
  if (!row || row.noSalesTax) return { kind: "exempt", source: row ? row.source : "not a US state or DC" }
  const t = TABLES.get(category)!
  return t.states[state] ?? t.default
}

/** Exact (unrounded) result for one line; `quoteLines` rounds it. Useful for the legacy v1 Lookup, whose amounts are not rounded. */
export interface ExactLineTax {
  index: number
  itemId: string
  price: number
  quantity: number
  tic: number | null
  category: Category
  rule: TaxRule["kind"]
  /** Taxable part of price x quantity, dollars (decimal string). */
  taxableBase: string
  /** Rate applied to the taxable part, fraction (decimal string, unrounded). */
  rate: string
  /** taxableBase x rate, unrounded (decimal string). */
  amount: string
}

const ZERO = "0"

interface ExactLine {
  category: Category
  rule: TaxRule["kind"]
  taxable: Decimal | null
  rate: Decimal | null
}

const NONE = (kind: TaxRule["kind"], category: Category): ExactLine => ({ category, rule: kind, taxable: null, rate: null })

/** The taxable part and the unrounded rate of one line (null when nothing is taxed). */
function exactParts(line: CartLineItemIn, j: Jurisdiction | null, exemptStates: ReadonlySet<string> | undefined): ExactLine {
  const category = categoryOfTic(line.tic)
  if (!j || j.noSalesTax) return NONE("exempt", category)
  if (exemptStates?.has(j.state)) return NONE("exempt", category)
  const rule = ruleFor(j.state, category)
  if (rule.kind === "exempt") return NONE("exempt", category)
  const price = fromNumber(line.price)
  const qty = fromNumber(line.quantity)
  if (rule.kind === "taxable") {
    // the common case: the combined rate on the whole line
    const rate = pct(j.combinedRate)
    const taxable = mul(price, qty)
    return isZero(rate) || isZero(taxable) ? NONE(rule.kind, category) : { category, rule: rule.kind, taxable, rate }
  }
  const combined = pct(j.combinedRate)
  let taxable: Decimal
  let rate: Decimal
  switch (rule.kind) {
    case "reducedRate":
      taxable = mul(price, qty)
      rate = rule.localApplies ? pctSum(rule.stateRate, j.localRate) : pct(rule.stateRate)
      break
    case "taxableFraction":
      taxable = mul(mul(price, qty), D(rule.fraction))
      rate = combined
      break
    case "exemptUpTo": {
      // Per unit: the part of the unit price above the threshold is taxable (sign kept for credits).
      const above = sub(abs(price), D(rule.amount))
      if (above.n <= 0n) return NONE(rule.kind, category)
      taxable = mul(isNegative(price) ? neg(above) : above, qty)
      rate = combined
      break
    }
    case "stateExemptBelow":
      taxable = mul(price, qty)
      if (cmp(abs(price), D(rule.amount)) < 0) {
        if (j.clothingLocalExempt || isZero(D(j.localRate))) return NONE(rule.kind, category)
        rate = pct(j.localRate)
      } else {
        rate = combined
      }
      break
  }
  if (isZero(rate) || isZero(taxable)) return NONE(rule.kind, category)
  return { category, rule: rule.kind, taxable, rate }
}

function exactLine(line: CartLineItemIn, j: Jurisdiction | null, exemptStates: ReadonlySet<string> | undefined): ExactLineTax {
  const p = exactParts(line, j, exemptStates)
  return {
    index: line.index,
    itemId: line.itemId,
    price: line.price,
    quantity: line.quantity,
    tic: line.tic ?? null,
    category: p.category,
    rule: p.rule,
    taxableBase: p.taxable ? toDecimalString(p.taxable) : ZERO,
    rate: p.rate ? toDecimalString(p.rate) : ZERO,
    amount: p.taxable && p.rate ? toDecimalString(mul(p.taxable, p.rate)) : ZERO,
  }
}

/** Exact per-line taxes (unrounded), one per input line, same order. */
export function quoteLinesExact(input: QuoteInput): ExactLineTax[] {
  const j = jurisdictionFor(input.destination)
  return input.lineItems.map((l) => exactLine(l, j, input.exemptStates))
}

/**
 * How a rule that taxes the whole line (price × quantity) — as exactParts decides it — picks its
 * rate: `under` when |unit price| < `below`, else `over` (null: nothing is taxed).
 */
interface WholeLineRate {
  below: number
  under: KeptRate | null
  over: KeptRate | null
}

/** A rate kept for whole lines (null when zero): the fraction, its digits as a number, its 4-place answer. */
interface KeptRate {
  d: Decimal
  n: number
  r4: number
}
const keep = (d: Decimal | null): KeptRate | null => (d === null || isZero(d) ? null : { d, n: Number(d.n), r4: rate4(d) })

/** The whole-line rate of a rule in a jurisdiction, undefined for the other rules (exactParts handles them). */
function wholeLineRate(rule: TaxRule, j: Jurisdiction): WholeLineRate | undefined {
  const at = (over: Decimal | null): WholeLineRate => ({ below: 0, under: null, over: keep(over) })
  switch (rule.kind) {
    case "exempt":
      return at(null)
    case "taxable":
      return at(pct(j.combinedRate))
    case "reducedRate":
      return at(rule.localApplies ? pctSum(rule.stateRate, j.localRate) : pct(rule.stateRate))
    case "stateExemptBelow":
      // thresholds are whole dollars, exact as doubles: comparing the price's double is exact
      if (!/^\d+$/.test(rule.amount)) return undefined
      return {
        below: Number(rule.amount),
        under: j.clothingLocalExempt || isZero(D(j.localRate)) ? null : keep(pct(j.localRate)),
        over: keep(pct(j.combinedRate)),
      }
    default:
      return undefined
  }
}

/**
 * One output line per input line, same order, index, itemId, price, quantity, tic (null when absent).
 * tax.amount = round-half-up to the cent of (taxable part of price*quantity) * UNROUNDED combined rate;
 * tax.rate = the combined rate as a fraction rounded to 4 places (0.0903 for 9.025%).
 */
export function quoteLines(input: QuoteInput): LineItemOut[] {
  const place = placeFor(input.destination)
  const j = place?.j ?? null
  const exempt = !j || j.noSalesTax || !!input.exemptStates?.has(j.state)
  return input.lineItems.map((l) => {
    if (!exempt) {
      // the common rules tax the whole line (price × quantity) at one rate: no decimals allocated
      const category = categoryOfTic(l.tic)
      let whole = place!.rates.get(category)
      if (whole === undefined && !place!.rates.has(category))
        place!.rates.set(category, (whole = wholeLineRate(ruleFor(j!.state, category), j!)))
      if (whole !== undefined) {
        const rate = Math.abs(l.price) < whole.below ? whole.under : whole.over
        const tax =
          rate === null || l.price === 0
            ? { amount: 0, rate: 0 }
            : { amount: productRoundedToNumber(l.price, l.quantity, rate.d, 2, rate.n), rate: rate.r4 }
        return { index: l.index, itemId: l.itemId, price: l.price, quantity: l.quantity, tic: l.tic ?? null, tax }
      }
    }
    const p = exactParts(l, j, input.exemptStates)
    return {
      index: l.index,
      itemId: l.itemId,
      price: l.price,
      quantity: l.quantity,
      tic: l.tic ?? null,
      tax: p.taxable && p.rate ? { amount: roundToNumber(mul(p.taxable, p.rate), 2), rate: rate4(p.rate) } : { amount: 0, rate: 0 },
    }
  })
}
