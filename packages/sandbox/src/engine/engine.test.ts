import BigNumber from "bignumber.js"
import fc from "fast-check"
import type { Address, CartLineItemIn } from "@medusa-sales-tax/contract"
import { US_STATES } from "@medusa-sales-tax/contract"
import { allTics } from "../tic"
import { lookupZip } from "../address"
import { categoryOfTic, isTaxableDestination, jurisdictionFor, quoteLines, quoteLinesExact, ruleFor } from "."
import { LOCAL_OVERRIDES } from "./data/local-overrides"
import { STATE_RATES } from "./data/states"
import { CATEGORIES, TAXABILITY } from "./data/taxability"

const addr = (state: string, zip: string, city = "Somewhere"): Address => ({ line1: "1 Main St", city, state, zip })
const ORIGIN = addr("MN", "55401", "Minneapolis")
// Destinations whose combined rate is a published, single-figure fact (no local tax, or a
// city whose combined rate is well known), so expected amounts below are computed by hand.
const MINNEAPOLIS = addr("MN", "55401", "Minneapolis") // 9.025%
const INDIANAPOLIS = addr("IN", "46204", "Indianapolis") // 7%, no local tax
const BOSTON = addr("MA", "02108", "Boston") // 6.25%, no local tax
const PROVIDENCE = addr("RI", "02903", "Providence") // 7%, no local tax
const NEWARK = addr("NJ", "07102", "Newark") // 6.625%, no local tax
const LOUISVILLE = addr("KY", "40202", "Louisville") // 6%, no local tax
const NYC = addr("NY", "10001", "New York") // 8.875%
const CHICAGO = addr("IL", "60601", "Chicago") // 10.25%
const HOUSTON = addr("TX", "77002", "Houston") // 8.25%
const PORTLAND_OR = addr("OR", "97201", "Portland") // no sales tax
const SAN_DIEGO = addr("CA", "92101", "San Diego")
const ALBANY = addr("NY", "12207", "Albany")

let n = 0
const line = (price: number, tic?: number | null, quantity = 1): CartLineItemIn => ({
  index: n,
  itemId: `item-${n++}`,
  price,
  quantity,
  tic,
})
const quote1 = (destination: Address, l: CartLineItemIn, exemptStates?: ReadonlySet<string>) =>
  quoteLines({ origin: ORIGIN, destination, lineItems: [l], exemptStates })[0].tax

describe("rounding (the contract's example)", () => {
  it("10.75 x 1.5 at 9.025% gives amount 1.46 and rate 0.0903", () => {
    expect(quote1(MINNEAPOLIS, line(10.75, 0, 1.5))).toEqual({ amount: 1.46, rate: 0.0903 })
  })
  it("computes the amount from the UNROUNDED rate (1000 at 9.025% is 90.25, not 90.30)", () => {
    expect(quote1(MINNEAPOLIS, line(1000, 0))).toEqual({ amount: 90.25, rate: 0.0903 })
  })
  it("rounds half up to the cent (100 x 6.625% = 6.625 -> 6.63)", () => {
    expect(quote1(NEWARK, line(100, 0)).amount).toBe(6.63)
    expect(quote1(NEWARK, line(100, 0)).rate).toBe(0.0663)
  })
})

describe("taxability per category: a state that taxes it and one that does not", () => {
  it.each<[string, number | null, Address, number, Address]>([
    // [category, tic, taxing destination, expected tax on $100 there, exempting destination]
    ["general goods (tic absent)", null, INDIANAPOLIS, 7, PORTLAND_OR],
    ["general goods (tic 0)", 0, BOSTON, 6.25, PORTLAND_OR],
    ["shipping 11010", 11010, LOUISVILLE, 6, BOSTON],
    ["shipping 11010 (NJ taxes delivery)", 11010, NEWARK, 6.63, SAN_DIEGO],
    ["clothing 20010", 20010, INDIANAPOLIS, 7, NEWARK],
    ["groceries 40030 (Illinois 1% flat)", 40030, CHICAGO, 1, INDIANAPOLIS],
    ["prepared food 41000", 41000, BOSTON, 6.25, PORTLAND_OR],
    ["OTC drugs 51010", 51010, INDIANAPOLIS, 7, NEWARK],
    ["OTC drugs 51010 (Illinois 1%)", 51010, CHICAGO, 1, NYC],
    ["prescription drugs 51020 (Illinois 1%)", 51020, CHICAGO, 1, BOSTON],
    ["digital goods 31000", 31000, INDIANAPOLIS, 7, BOSTON],
    ["digital books 31099", 31099, LOUISVILLE, 6, NYC],
    ["SaaS 30070", 30070, BOSTON, 6.25, INDIANAPOLIS],
    ["SaaS 30070 (Texas taxes 80%: 100 x 0.8 x 8.25%)", 30070, HOUSTON, 6.6, SAN_DIEGO],
  ])("%s", (_name, tic, taxing, expected, exempting) => {
    const t = quote1(taxing, line(100, tic))
    expect(t.amount).toBe(expected)
    expect(t.rate).toBeGreaterThan(0)
    expect(quote1(exempting, line(100, tic))).toEqual({ amount: 0, rate: 0 })
  })

  it("gift cards 10005 are never taxed, even where the goods in the same cart are", () => {
    for (const dest of [INDIANAPOLIS, BOSTON, NYC, CHICAGO, HOUSTON, MINNEAPOLIS]) {
      const [card, goods] = quoteLines({ origin: ORIGIN, destination: dest, lineItems: [line(50, 10005), line(50, 0)] })
      expect(card.tax).toEqual({ amount: 0, rate: 0 })
      expect(goods.tax.amount).toBeGreaterThan(0)
    }
  })

  it("a reduced rate keeps local tax where the state says so (Kansas groceries: 0% state + local)", () => {
    const ks = jurisdictionFor(addr("KS", "66603", "Topeka"))!
    const t = quote1(addr("KS", "66603", "Topeka"), line(100, 40030))
    expect(t.amount).toBe(new BigNumber(100).times(ks.localRate).div(100).dp(2, BigNumber.ROUND_HALF_UP).toNumber())
    expect(t.amount).toBeGreaterThan(0)
  })

  it("unknown TICs and TICs in no category are taxed as general goods", () => {
    expect(categoryOfTic(999999)).toBe("general")
    expect(categoryOfTic(92100)).toBe("general") // jewelry
    expect(quote1(INDIANAPOLIS, line(100, 999999)).amount).toBe(7)
  })
})

describe("clothing thresholds", () => {
  // quantity 100 makes a one-cent taxable part visible: 100 x $0.01 x rate.
  it("Massachusetts: exempt up to $175 per item, tax on the part above", () => {
    expect(quote1(BOSTON, line(175, 20010, 100))).toEqual({ amount: 0, rate: 0 })
    expect(quote1(BOSTON, line(175.01, 20010, 100))).toEqual({ amount: 0.06, rate: 0.0625 }) // 1.00 x 6.25%
    expect(quote1(BOSTON, line(200, 20010))).toEqual({ amount: 1.56, rate: 0.0625 }) // 25 x 6.25% = 1.5625
  })
  it("Rhode Island: exempt up to $250 per item, tax on the part above", () => {
    expect(quote1(PROVIDENCE, line(250, 20010, 100))).toEqual({ amount: 0, rate: 0 })
    expect(quote1(PROVIDENCE, line(250.01, 20010, 100))).toEqual({ amount: 0.07, rate: 0.07 })
    expect(quote1(PROVIDENCE, line(300, 20010, 2))).toEqual({ amount: 7, rate: 0.07 }) // 2 x 50 x 7%
  })
  it("New York City: clothing under $110 is exempt from state and city tax; $110 is taxed in full", () => {
    expect(quote1(NYC, line(109.99, 20010))).toEqual({ amount: 0, rate: 0 })
    expect(quote1(NYC, line(110, 20010))).toEqual({ amount: 9.76, rate: 0.0888 }) // 110 x 8.875% = 9.7625
  })
  it("New York outside the city: under $110 only the local part applies", () => {
    const j = jurisdictionFor(ALBANY)!
    const local = new BigNumber(j.localRate).div(100)
    const under = quote1(ALBANY, line(109.99, 20010))
    expect(under.amount).toBe(new BigNumber(109.99).times(local).dp(2, BigNumber.ROUND_HALF_UP).toNumber())
    expect(under.rate).toBe(local.dp(4, BigNumber.ROUND_HALF_UP).toNumber())
    const at = quote1(ALBANY, line(110, 20010))
    expect(at.rate).toBe(new BigNumber(j.combinedRate).div(100).dp(4, BigNumber.ROUND_HALF_UP).toNumber())
    expect(at.rate).toBeGreaterThan(under.rate)
    expect(new BigNumber(j.combinedRate).minus(j.localRate).toString()).toBe("4") // the state part that is exempted
  })
  it("credits (negative prices) mirror the threshold", () => {
    expect(quote1(BOSTON, line(-200, 20010)).amount).toBe(-1.56)
    expect(quote1(BOSTON, line(-100, 20010)).amount).toBe(0)
  })
})

describe("exemptions and destinations", () => {
  it("an exempt state zeroes every line there, and only there", () => {
    const lines = [line(100, 0), line(20, 11010), line(300, 20010)]
    const exempt = quoteLines({ origin: ORIGIN, destination: MINNEAPOLIS, lineItems: lines, exemptStates: new Set(["MN", "WI"]) })
    for (const l of exempt) expect(l.tax).toEqual({ amount: 0, rate: 0 })
    const elsewhere = quoteLines({ origin: ORIGIN, destination: INDIANAPOLIS, lineItems: lines, exemptStates: new Set(["MN"]) })
    expect(elsewhere.map((l) => l.tax.amount)).toEqual([7, 1.4, 21])
  })
  it("non-US and territory destinations are not taxed", () => {
    const toronto: Address = { line1: "1 King St", city: "Toronto", state: "ON", zip: "M5V 3L9", countryCode: "CA" }
    const sanJuan = addr("PR", "00901", "San Juan")
    for (const d of [toronto, sanJuan]) {
      expect(isTaxableDestination(d)).toBe(false)
      expect(jurisdictionFor(d)).toBeNull()
      expect(quote1(d, line(100, 0))).toEqual({ amount: 0, rate: 0 })
    }
  })
  it("every US state and DC is a taxable destination; the four no-tax states compute zero", () => {
    for (const s of US_STATES) expect(isTaxableDestination(addr(s, "12345"))).toBe(true)
    for (const s of ["DE", "MT", "NH", "OR"]) expect(quote1(addr(s, "12345"), line(100, 0))).toEqual({ amount: 0, rate: 0 })
    expect(isTaxableDestination(addr("NY", "1234"))).toBe(false)
  })
  it("Alaska is taxed at its local rate only (state rate 0)", () => {
    const j = jurisdictionFor(addr("AK", "99501", "Anchorage"))!
    expect(j.stateRate).toBe("0")
    expect(quote1(addr("AK", "99501"), line(100, 0)).amount).toBeGreaterThan(0)
  })
  it("a ZIP-prefix override applies only within its own state", () => {
    expect(jurisdictionFor(addr("MN", "55401"))!.combinedRate).toBe("9.025")
    // 554xx is Minneapolis; a Wisconsin address carrying it gets Wisconsin's rate, not Minneapolis'
    expect(jurisdictionFor(addr("WI", "55401"))!.place).toBeNull()
  })
})

describe("property: amounts are whole cents, non-negative, consistent, and lines keep order and ids", () => {
  const DESTS = [
    MINNEAPOLIS,
    INDIANAPOLIS,
    BOSTON,
    PROVIDENCE,
    NEWARK,
    NYC,
    CHICAGO,
    HOUSTON,
    PORTLAND_OR,
    SAN_DIEGO,
    ALBANY,
    addr("AL", "35203"),
    addr("LA", "70112"),
    addr("CO", "80202"),
    addr("WA", "98101"),
    addr("AK", "99501"),
    addr("TN", "37203"),
  ]
  const TICS = [undefined, null, 0, 11010, 10005, 20010, 40030, 41000, 51010, 51020, 31000, 30070, 92100, 123456]
  const price = fc.integer({ min: 0, max: 5_000_000 }).map((c) => c / 100)
  const quantity = fc.oneof(
    fc.integer({ min: 1, max: 50 }),
    fc.integer({ min: 1, max: 1000 }).map((q) => q / 100),
  )
  const lines = fc.array(
    fc.record({ price, quantity, tic: fc.constantFrom(...TICS), itemId: fc.string({ minLength: 1, maxLength: 20 }) }),
    { minLength: 1, maxLength: 12 },
  )

  it("holds for random carts", () => {
    fc.assert(
      fc.property(fc.constantFrom(...DESTS), lines, fc.boolean(), (destination, raw, exemptMN) => {
        const lineItems: CartLineItemIn[] = raw.map((l, i) => ({ index: i, ...l }))
        const exemptStates = exemptMN ? new Set(["MN"]) : undefined
        const out = quoteLines({ origin: ORIGIN, destination, lineItems, exemptStates })
        const exact = quoteLinesExact({ origin: ORIGIN, destination, lineItems, exemptStates })
        const j = jurisdictionFor(destination)
        // Collect violations and assert once per run (thousands of expect() calls are slow).
        const problems: string[] = []
        const check = (ok: boolean, what: string) => {
          if (!ok) problems.push(what)
        }
        const r2 = (v: BigNumber) => v.dp(2, BigNumber.ROUND_HALF_UP).toNumber()
        check(out.length === lineItems.length, "one output line per input line")
        out.forEach((o, i) => {
          const inLine = lineItems[i]
          const at = `line ${i}`
          check(
            o.index === inLine.index &&
              o.itemId === inLine.itemId &&
              o.price === inLine.price &&
              o.quantity === inLine.quantity &&
              o.tic === (inLine.tic ?? null),
            `${at}: identity and order kept`,
          )
          check(new BigNumber(o.tax.amount).times(100).isInteger(), `${at}: whole cents (${o.tax.amount})`)
          check(
            o.tax.amount >= 0 && o.tax.rate >= 0 && o.tax.rate < 0.2,
            `${at}: non-negative, plausible (${o.tax.amount} @ ${o.tax.rate})`,
          )
          // rounding of the exact result, recomputed here with bignumber
          const e = exact[i]
          check(o.tax.amount === r2(new BigNumber(e.taxableBase).times(e.rate)), `${at}: amount = roundCents(base x unrounded rate)`)
          check(o.tax.rate === new BigNumber(e.rate).dp(4, BigNumber.ROUND_HALF_UP).toNumber(), `${at}: rate = rate rounded to 4 places`)
          // general goods: independently, price x quantity x (state + local) / 100
          const general = categoryOfTic(inLine.tic) === "general"
          if (general && j && !j.noSalesTax && !(exemptMN && j.state === "MN")) {
            const expected = new BigNumber(inLine.price).times(inLine.quantity).times(new BigNumber(j.stateRate).plus(j.localRate)).div(100)
            check(o.tax.amount === r2(expected), `${at}: general goods at the combined rate (${o.tax.amount} vs ${expected.toString()})`)
          }
          // never more tax than the full combined rate on the whole line
          if (j)
            check(
              o.tax.amount <= r2(new BigNumber(inLine.price).times(inLine.quantity).times(j.combinedRate).div(100)),
              `${at}: at most the combined rate`,
            )
          if (!j || j.noSalesTax || (exemptMN && j.state === "MN"))
            check(o.tax.amount === 0 && o.tax.rate === 0, `${at}: zero where nothing is taxed`)
        })
        expect(problems).toEqual([])
      }),
      { numRuns: 300 },
    )
  })
})

describe("data tables", () => {
  it("has one row per state and DC, each with a source", () => {
    expect(STATE_RATES.map((r) => r.state).sort()).toEqual([...US_STATES].sort())
    for (const r of STATE_RATES) {
      expect(r.source.length).toBeGreaterThan(10)
      expect(r.localSource.length).toBeGreaterThan(10)
      expect(new BigNumber(r.base).isFinite() && new BigNumber(r.local).isFinite()).toBe(true)
    }
    expect(
      STATE_RATES.filter((r) => r.noSalesTax)
        .map((r) => r.state)
        .sort(),
    ).toEqual(["DE", "MT", "NH", "OR"])
  })
  it("every category TIC exists in the bundled catalogue and every rule names its source", () => {
    const catalogue = new Set(allTics().map((t) => t.ticId))
    expect(TAXABILITY.map((t) => t.category).sort()).toEqual([...CATEGORIES].sort())
    for (const t of TAXABILITY) {
      for (const tic of t.tics)
        expect({ category: t.category, tic, known: catalogue.has(tic) }).toEqual({ category: t.category, tic, known: true })
      for (const rule of [t.default, ...Object.values(t.states)]) expect(rule.source.length).toBeGreaterThan(10)
      for (const s of Object.keys(t.states)) expect(US_STATES).toContain(s)
    }
    for (const c of CATEGORIES) for (const s of US_STATES) expect(ruleFor(s, c).source).toBeTruthy()
  })
  it("ZIP-prefix overrides are consistent: combined = base + local, and the prefix is in that state", () => {
    for (const o of LOCAL_OVERRIDES) {
      const base = STATE_RATES.find((r) => r.state === o.state)!.base
      expect(new BigNumber(base).plus(o.local).toString()).toBe(new BigNumber(o.combined).toString())
      for (const z3 of o.zip3) {
        const some = Array.from({ length: 100 }, (_, i) => lookupZip(z3 + String(i).padStart(2, "0"))).find(Boolean)
        expect({ zip3: z3, state: some?.state }).toEqual({ zip3: z3, state: o.state })
      }
    }
  })
})
