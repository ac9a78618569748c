/**
 * npm run bench:rates — the rate Medusa shows (issue 30): on 2,000 random carts (fixed seed; real
 * US combined rates with up to 3 decimals in percent, e.g. 8.875 %), how many lines show the
 * service's own rate, and how many carts' tax totals carry a float tail (more than 2 decimals in
 * Medusa's unrounded total), with the plugin's back-solved rates; and what would happen with the
 * service's rate on every line whose tax it rounds to: how many carts' totals would then land on a
 * different cent from the service's amounts (charged ≠ filed). Pure arithmetic through Medusa's own
 * decorateCartTotals; prints a table.
 */
import fc from "fast-check"
import BigNumber from "bignumber.js"
import { decorateCartTotals } from "@medusajs/framework/utils"
import { float32Shortest } from "../src/checkout/inclusive/back-solve"
import { solvedRate } from "../src/checkout/inclusive/back-solve"

const CARTS = Number(process.env.BENCH_RATES_CARTS ?? 2000)
const f4 = (r: number) => Number(float32Shortest(r))
const cents = (v: BigNumber) => v.decimalPlaces(2, BigNumber.ROUND_HALF_UP)

// combined rates as US jurisdictions have them: percent with up to 3 decimals, 0 to 11.5 %
const rateArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 9, arbitrary: fc.integer({ min: 1000, max: 11500 }).map((r) => r / 100_000) },
)
const lineArb = fc.record({ unitCents: fc.integer({ min: 100, max: 50_000 }), quantity: fc.integer({ min: 1, max: 5 }) })
const cartArb = fc.record({
  rate: rateArb,
  lines: fc.array(lineArb, { minLength: 1, maxLength: 5 }),
  shippingCents: fc.integer({ min: 0, max: 2_500 }),
})

type Line = { id: string; unit: number; quantity: number; taxable: BigNumber; amount: BigNumber; service: number }

function totalsOf(lines: Line[], rateOf: (l: Line) => number) {
  const cart = {
    id: "cart",
    currency_code: "usd",
    region: { automatic_taxes: true },
    items: lines.map((l) => ({
      id: l.id,
      unit_price: l.unit,
      quantity: l.quantity,
      is_tax_inclusive: false,
      adjustments: [],
      tax_lines: [{ rate: f4(rateOf(l)), code: "sales-tax" }],
    })),
    shipping_methods: [],
  }
  return decorateCartTotals(cart as never) as unknown as { tax_total: { numeric: number }; total: { numeric: number } }
}

const carts = fc.sample(cartArb, { numRuns: CARTS, seed: 20261126 })
let lines = 0
let keepService = 0
let tails = 0
let driftSolved = 0
let tailsServiceRate = 0
let driftServiceRate = 0
let keepServiceIfRounding = 0
for (const c of carts) {
  const ls: Line[] = c.lines.map((l, i) => {
    const unit = l.unitCents / 100
    const taxable = new BigNumber(unit).times(l.quantity)
    return { id: `i${i}`, unit, quantity: l.quantity, taxable, amount: cents(taxable.times(c.rate)), service: c.rate * 100 }
  })
  if (c.shippingCents > 0) {
    const taxable = new BigNumber(c.shippingCents / 100)
    ls.push({ id: "ship", unit: c.shippingCents / 100, quantity: 1, taxable, amount: cents(taxable.times(c.rate)), service: c.rate * 100 })
  }
  const solved = (l: Line) => solvedRate({ taxable: l.taxable, amount: l.amount, displayRatePct: l.service }).rate
  for (const l of ls) {
    lines++
    if (f4(solved(l)) === f4(l.service)) keepService++
    // the service's rate where Medusa's line tax at it rounds to the service's amount
    if (cents(l.taxable.times(f4(l.service)).div(100)).eq(l.amount)) keepServiceIfRounding++
  }
  const want = BigNumber.sum(0, ...ls.map((l) => l.amount))
  const now = new BigNumber(totalsOf(ls, solved).tax_total.numeric)
  if (!now.eq(now.decimalPlaces(2))) tails++
  if (!cents(now).eq(want)) driftSolved++
  const alt = (l: Line) => (cents(l.taxable.times(f4(l.service)).div(100)).eq(l.amount) ? l.service : solved(l))
  const other = new BigNumber(totalsOf(ls, alt).tax_total.numeric)
  if (!other.eq(other.decimalPlaces(2))) tailsServiceRate++
  if (!cents(other).eq(want)) driftServiceRate++
}
const pct = (n: number, of: number) => `${n} of ${of} (${((n / of) * 100).toFixed(1)} %)`
console.log(`\nbench:rates — ${CARTS} random carts, ${lines} lines (seed 20261126)`)
console.log(`back-solved rates (what the plugin hands Medusa):`)
console.log(`  lines whose rate is the service's own             ${pct(keepService, lines)}`)
console.log(`  carts whose tax total carries a float tail         ${pct(tails, CARTS)}`)
console.log(`  carts whose tax total rounds to another cent       ${pct(driftSolved, CARTS)}`)
console.log(`the service's rate wherever its line tax rounds to the service's amount:`)
console.log(`  lines that would show the service's rate           ${pct(keepServiceIfRounding, lines)}`)
console.log(`  carts whose tax total carries a float tail         ${pct(tailsServiceRate, CARTS)}`)
console.log(`  carts whose tax total rounds to another cent       ${pct(driftServiceRate, CARTS)}  <- charged ≠ filed`)
