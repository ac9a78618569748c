import fc from "fast-check"
import BigNumber from "bignumber.js"
import {
  effectiveRatePct,
  InMemoryRateMemory,
  LAST_KNOWN_MAX_AGE_MS,
  lineRateToRemember,
  mergeKnownRate,
  REWRITE_AFTER_MS,
  WrittenRates,
  type KnownRate,
} from "./last-known-rates"

/** The service's tax of a line: taxable × rate, half up to the cent. */
const serviceTax = (taxable: number, ratePct: number) =>
  new BigNumber(taxable).times(ratePct).div(100).decimalPlaces(2, BigNumber.ROUND_HALF_UP).toNumber()

describe("WrittenRates: an unchanged last-known rate is not written again", () => {
  it("against writing every quote (the old behaviour): the stored rate never charges the latest line less than the service did, and far fewer writes are made", async () => {
    const quote = fc.record({
      zip: fc.constantFrom("55415", "10118"),
      tic: fc.constantFrom(0, 20010),
      unitCents: fc.integer({ min: 1, max: 200_000 }),
      quantity: fc.integer({ min: 1, max: 12 }),
      // the rate of (zip, tic) changes now and then (a new rate table, a threshold crossed)
      ratePct: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(0, 6.875, 8.875, 9.025) }),
      minutes: fc.integer({ min: 0, max: 30 }),
    })
    let skippedAtAll = 0
    await fc.assert(
      fc.asyncProperty(fc.array(quote, { minLength: 1, maxLength: 60 }), async (quotes) => {
        const written = new WrittenRates()
        const mem = new InMemoryRateMemory()
        const old = new InMemoryRateMemory()
        const rates = new Map<string, number>()
        let now = Date.UTC(2026, 10, 23)
        let writes = 0
        for (const q of quotes) {
          now += q.minutes * 60_000
          const key = `${q.zip}|${q.tic}`
          if (q.ratePct !== null || !rates.has(key)) rates.set(key, q.ratePct ?? 7.5)
          const taxable = new BigNumber(q.unitCents).div(100).times(q.quantity).toNumber()
          const amount = serviceTax(taxable, rates.get(key)!)
          // the old code remembered the effective rate; the provider now remembers lineRateToRemember's
          await old.rememberRates([{ zip: q.zip, tic: q.tic, rate: effectiveRatePct(taxable, amount)!, quotedAt: new Date(now) }])
          const rate =
            written.narrowed(q.zip, q.tic, taxable, amount, rates.get(key)! / 100) ??
            lineRateToRemember(taxable, amount, rates.get(key)! / 100)!
          const row: KnownRate = { zip: q.zip, tic: q.tic, rate, quotedAt: new Date(now) }
          if (!written.unchanged(q.zip, q.tic, taxable, amount, now)) {
            await mem.rememberRates([row])
            written.written([row], now)
            writes++
          } else skippedAtAll++
          const [stored] = await mem.knownRates(q.zip, [q.tic], new Date(0))
          const [reference] = await old.knownRates(q.zip, [q.tic], new Date(0))
          // the rate kept (the highest in the window: mergeKnownRate) never charges this very line
          // less than the service did, as the one written every time does
          expect(serviceTax(taxable, Number(stored!.rate))).toBeGreaterThanOrEqual(amount)
          expect(serviceTax(taxable, Number(reference!.rate))).toBeGreaterThanOrEqual(amount)
          // and it is within the window (a rate written a few millionths lower, another quantity's
          // narrowing, does not renew the kept one: it lapses 30 days after it was last renewed)
          expect(now - stored!.quotedAt.getTime()).toBeLessThanOrEqual(LAST_KNOWN_MAX_AGE_MS)
        }
        expect(writes).toBeLessThanOrEqual(quotes.length)
      }),
      { numRuns: 400 },
    )
    expect(skippedAtAll).toBeGreaterThan(200)
  })

  it("lineRateToRemember: the service's rate when it gives the line's tax, else the effective rate; either explains the line to the cent (random lines, thresholds)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }).map((c) => new BigNumber(c).div(100)),
        fc.integer({ min: 0, max: 120_000 }).map((r) => r / 1_000_000),
        fc.constantFrom(0, 0, 0, 1, -1, "exempt" as const),
        (taxable, serviceRate, off) => {
          // the service's tax, or a tax its rate does not give (a threshold, a cap, a cent off)
          const exact = serviceTax(taxable.toNumber(), serviceRate * 100)
          const amount = off === "exempt" ? 0 : Math.max(0, new BigNumber(exact).plus(off / 100).toNumber())
          const got = lineRateToRemember(taxable, amount, serviceRate)!
          const effective = effectiveRatePct(taxable, amount)!
          if (serviceTax(taxable.toNumber(), Number(new BigNumber(serviceRate).times(100))) === amount) {
            expect(got).toBe(new BigNumber(serviceRate).times(100).toString())
          } else expect(got).toBe(effective)
          // what the fallback does with it: taxable × rate gives the line's tax, as the effective rate's did
          if (serviceTax(taxable.toNumber(), Number(effective)) === amount) expect(serviceTax(taxable.toNumber(), Number(got))).toBe(amount)
        },
      ),
      // 2,000 (was 5,000): a pure function of three numbers; the off-by-a-cent and exempt cases are
      // half of the draws, and the examples below pin the branches
      { numRuns: 2000 },
    )
    expect(lineRateToRemember(0, 0, 0.07)).toBeNull()
    expect(lineRateToRemember(100, 7, null)).toBe("7")
    expect(lineRateToRemember(100, 7.01, 0.07)).toBe("7.01")
    expect(lineRateToRemember(110, 0, 0.08875)).toBe("0") // NY clothing under $110: exempt, the effective rate
  })

  it("narrowed: its rate gives the line's tax to the cent (random lines, a rate shown rounded, rate changes); fewer writes than with the effective rate", () => {
    let withNarrowing = 0
    let withEffective = 0
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            // a store's lines: $1 to $50, a few units (an effective rate of such a line is a few
            // thousandths of a percent off, and explains little beyond its own line)
            cents: fc.integer({ min: 100, max: 5_000 }),
            quantity: fc.integer({ min: 1, max: 12 }),
            change: fc.oneof({ weight: 12, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(8.875, 6.5, 0, 10.25) }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (lines) => {
          const a = new WrittenRates()
          const b = new WrittenRates()
          let rate = 9.025
          const t0 = Date.UTC(2026, 10, 23)
          for (const l of lines) {
            if (l.change !== null) rate = l.change
            const taxable = new BigNumber(l.cents).div(100).times(l.quantity).toNumber()
            const amount = serviceTax(taxable, rate)
            // the service shows its rate rounded to 4 places of the fraction (8.875 % → 0.0888)
            const shown = Number((rate / 100).toFixed(4))
            if (!a.unchanged("10118", 0, taxable, amount, t0)) {
              const got = a.narrowed("10118", 0, taxable, amount, shown)
              if (got !== null) expect(serviceTax(taxable, Number(got))).toBe(amount)
              const r = got ?? lineRateToRemember(taxable, amount, shown)!
              expect(serviceTax(taxable, Number(r))).toBe(amount)
              a.written([{ zip: "10118", tic: 0, rate: r, quotedAt: new Date(t0) }], t0)
              withNarrowing++
            }
            if (!b.unchanged("10118", 0, taxable, amount, t0)) {
              b.written([{ zip: "10118", tic: 0, rate: effectiveRatePct(taxable, amount)!, quotedAt: new Date(t0) }], t0)
              withEffective++
            }
          }
        },
      ),
      { numRuns: 500 },
    )
    expect(withNarrowing).toBeLessThan(withEffective)
  })

  it("writes again after an hour, a rate that no longer explains the line, and whatever it never wrote", () => {
    const w = new WrittenRates()
    const t0 = Date.UTC(2026, 10, 23)
    expect(w.unchanged("55415", 0, 100, 7.88, t0)).toBe(false) // never written
    w.written([{ zip: "55415", tic: 0, rate: "7.5", quotedAt: new Date(t0) }], t0)
    expect(w.unchanged("55415", 0, 100, 7.5, t0 + 1000)).toBe(true) // 7.5 % of 100.00
    expect(w.unchanged("55415", 0, 201.3, 15.1, t0 + 1000)).toBe(true) // another quantity, the same rate (15.0975)
    expect(w.unchanged("55415", 0, 1, 0.08, t0 + 1000)).toBe(false) // 0.075: a half-cent edge is written
    expect(w.unchanged("55415", 0, 100, 7.51, t0 + 1000)).toBe(false) // a different rate
    expect(w.unchanged("55415", 20010, 100, 7.5, t0 + 1000)).toBe(false) // another TIC
    expect(w.unchanged("55416", 0, 100, 7.5, t0 + 1000)).toBe(false) // another ZIP
    expect(w.unchanged("55415", 0, 100, 7.5, t0 + REWRITE_AFTER_MS)).toBe(false) // an hour later
    expect(w.unchanged("55415", 0, 0, 0, t0 + 1000)).toBe(false) // nothing taxable: the caller decides
  })
})

describe("outage rates are conservative: the highest rate per ZIP and TIC in the window (mergeKnownRate)", () => {
  const at = (days: number) => new Date(Date.UTC(2026, 10, 1) + days * 86_400_000)
  const row = (rate: string, days: number): KnownRate => ({ zip: "02108", tic: 20010, rate, quotedAt: at(days) })

  it("Massachusetts clothing: a $100 shirt (0 %) after a $1,000 coat (5.15625 %) keeps the coat's rate; a higher one replaces it; a lower one only once the kept one is older than 30 days", () => {
    expect(mergeKnownRate(undefined, row("0", 0))).toEqual(row("0", 0))
    expect(mergeKnownRate(row("5.15625", 0), row("0", 1))).toBeNull()
    expect(mergeKnownRate(row("0", 0), row("5.15625", 1))).toEqual(row("5.15625", 1))
    // the same rate again renews it
    expect(mergeKnownRate(row("5.15625", 0), row("5.15625", 2))).toEqual(row("5.15625", 2))
    // decimals, not strings or floats: "10" > "9.5"
    expect(mergeKnownRate(row("9.5", 0), row("10", 1))).toEqual(row("10", 1))
    expect(mergeKnownRate(row("10", 0), row("9.5", 1))).toBeNull()
    expect(mergeKnownRate(row("5.15625", 0), row("0", 30))).toBeNull()
    expect(mergeKnownRate(row("5.15625", 0), row("0", 31))).toEqual(row("0", 31))
  })

  it("property: within a window, the kept rate is the highest observed; across any span, it is at least every rate observed since it was set, and never older than the window when a newer one came", async () => {
    const obs = fc.record({
      ratePct: fc.oneof(
        fc.constantFrom("0", "6.25", "8.875", "10.25"),
        fc.integer({ min: 0, max: 150_000 }).map((n) => String(n / 10_000)),
      ),
      hours: fc.integer({ min: 0, max: 24 * 20 }),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(obs, { minLength: 1, maxLength: 40 }), async (list) => {
        const mem = new InMemoryRateMemory()
        let t = Date.UTC(2026, 10, 1)
        const seen: { rate: BigNumber; at: number }[] = []
        for (const o of list) {
          t += o.hours * 3_600_000
          seen.push({ rate: new BigNumber(o.ratePct), at: t })
          await mem.rememberRates([{ zip: "02108", tic: 20010, rate: o.ratePct, quotedAt: new Date(t) }])
          const [kept] = await mem.knownRates("02108", [20010], new Date(0))
          const k = new BigNumber(kept!.rate)
          // at least every rate observed since the kept one was set (its quotedAt)
          for (const s of seen) if (s.at >= kept!.quotedAt.getTime()) expect(k.gte(s.rate)).toBe(true)
          // the kept rate is one the service charged, and not older than the window at the last observation
          expect(seen.some((s) => s.rate.eq(k) && s.at === kept!.quotedAt.getTime())).toBe(true)
          expect(t - kept!.quotedAt.getTime()).toBeLessThanOrEqual(LAST_KNOWN_MAX_AGE_MS)
          // every observation so far inside one window: the kept rate is their maximum
          if (t - seen[0]!.at <= LAST_KNOWN_MAX_AGE_MS) expect(k.eq(BigNumber.max(...seen.map((s) => s.rate)))).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })
})
