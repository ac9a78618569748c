/**
 * Sandbox tax engine: pure and synchronous. Rates and taxability come from the tables under
 * ./data (SANDBOX DATA, NOT FOR FILING), each row carrying its source.
 *
 * Rounding rule (the service's): per line, amount = round-half-up to the cent of
 * (taxable part of price x quantity) x UNROUNDED rate; the reported rate is the rate applied to
 * the taxable part, as a fraction rounded to 4 places (9.025% -> 0.0903).
 */
import type BigNumber from "bignumber.js"
import type { Address, CartLineItemIn, LineItemOut } from "../../contract"
import { US_STATES, US_ZIP_RE } from "../../contract"
import { dec, roundCents, roundTo } from "../../money"
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
  if (!isTaxableDestination(addr)) return null
  const state = addr.state.trim().toUpperCase()
  const row = STATES.get(state)!
  const o = OVERRIDES.get(addr.zip.trim().slice(0, 3))
  const override = o && o.state === state ? o : undefined
  const localRate = row.noSalesTax ? "0" : override ? override.local : row.local
  return {
    state,
    stateRate: row.base,
    localRate,
    combinedRate: dec(row.base).plus(localRate).toString(),
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

function exactLine(line: CartLineItemIn, j: Jurisdiction | null, exemptStates: ReadonlySet<string> | undefined): ExactLineTax {
  const category = categoryOfTic(line.tic)
  const price = dec(line.price)
  const qty = dec(line.quantity)
  const base: Omit<ExactLineTax, "rule" | "taxableBase" | "rate" | "amount"> = {
    index: line.index,
    itemId: line.itemId,
    price: line.price,
    quantity: line.quantity,
    tic: line.tic ?? null,
    category,
  }
  const none = (kind: TaxRule["kind"]): ExactLineTax => ({ ...base, rule: kind, taxableBase: ZERO, rate: ZERO, amount: ZERO })
  if (!j || j.noSalesTax) return none("exempt")
  if (exemptStates?.has(j.state)) return none("exempt")

  const pct = (p: BigNumber.Value) => dec(p).shiftedBy(-2) // percent -> fraction, exact
  const combined = pct(j.combinedRate)
  const rule = ruleFor(j.state, category)
  let taxable: BigNumber
  let rate: BigNumber
  switch (rule.kind) {
    case "exempt":
      return none("exempt")
    case "taxable":
      taxable = price.times(qty)
      rate = combined
      break
    case "reducedRate":
      taxable = price.times(qty)
      rate = pct(dec(rule.stateRate).plus(rule.localApplies ? j.localRate : 0))
      break
    case "taxableFraction":
      taxable = price.times(qty).times(rule.fraction)
      rate = combined
      break
    case "exemptUpTo": {
      // Per unit: the part of the unit price above the threshold is taxable (sign kept for credits).
      const above = price.abs().minus(rule.amount)
      if (above.lte(0)) return none(rule.kind)
      taxable = above.times(price.isNegative() ? -1 : 1).times(qty)
      rate = combined
      break
    }
    case "stateExemptBelow":
      taxable = price.times(qty)
      if (price.abs().lt(rule.amount)) {
        if (j.clothingLocalExempt || dec(j.localRate).isZero()) return none(rule.kind)
        rate = pct(j.localRate)
      } else {
        rate = combined
      }
      break
  }
  if (rate.isZero() || taxable.isZero()) return none(rule.kind)
  return { ...base, rule: rule.kind, taxableBase: taxable.toString(), rate: rate.toString(), amount: taxable.times(rate).toString() }
}

/** Exact per-line taxes (unrounded), one per input line, same order. */
export function quoteLinesExact(input: QuoteInput): ExactLineTax[] {
  const j = jurisdictionFor(input.destination)
  return input.lineItems.map((l) => exactLine(l, j, input.exemptStates))
}

/** Avoids -0 in JSON-facing numbers. */
const noNegZero = (n: number) => (n === 0 ? 0 : n)

/**
 * One output line per input line, same order, index, itemId, price, quantity, tic (null when absent).
 * tax.amount = round-half-up to the cent of (taxable part of price*quantity) * UNROUNDED combined rate;
 * tax.rate = the combined rate as a fraction rounded to 4 places (0.0903 for 9.025%).
 */
export function quoteLines(input: QuoteInput): LineItemOut[] {
  return quoteLinesExact(input).map((e) => ({
    index: e.index,
    itemId: e.itemId,
    price: e.price,
    quantity: e.quantity,
    tic: e.tic,
    tax: { amount: noNegZero(roundCents(e.amount)), rate: noNegZero(roundTo(e.rate, 4)) },
  }))
}
