import fc from "fast-check"
import BigNumber from "bignumber.js"
import { effectiveRatePct, InMemoryRateMemory, REWRITE_AFTER_MS, WrittenRates, type KnownRate } from "./last-known-rates"

/** The service's tax of a line: taxable × rate, half up to the cent. */
const serviceTax = (taxable: number, ratePct: number) =>
  new BigNumber(taxable).times(ratePct).div(100).decimalPlaces(2, BigNumber.ROUND_HALF_UP).toNumber()

describe("WrittenRates: an unchanged last-known rate is not written again", () => {
  it("against writing every quote (the old behaviour): the stored rate always explains the latest line to the cent, is at most an hour older, and far fewer writes are made", async () => {
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
          const rate = effectiveRatePct(taxable, amount)!
          const row: KnownRate = { zip: q.zip, tic: q.tic, rate, quotedAt: new Date(now) }
          await old.rememberRates([row])
          if (!written.unchanged(q.zip, q.tic, taxable, amount, now)) {
            await mem.rememberRates([row])
            written.written([row], now)
            writes++
          } else skippedAtAll++
          const [stored] = await mem.knownRates(q.zip, [q.tic], new Date(0))
          const [reference] = await old.knownRates(q.zip, [q.tic], new Date(0))
          // the rate kept explains this very line's tax to the cent, as the one written every time does
          expect(serviceTax(taxable, Number(stored!.rate))).toBe(amount)
          expect(serviceTax(taxable, Number(reference!.rate))).toBe(amount)
          // and it is at most an hour older than the reference's
          expect(reference!.quotedAt.getTime() - stored!.quotedAt.getTime()).toBeLessThan(REWRITE_AFTER_MS)
        }
        expect(writes).toBeLessThanOrEqual(quotes.length)
      }),
      { numRuns: 400 },
    )
    expect(skippedAtAll).toBeGreaterThan(200)
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
