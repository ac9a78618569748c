import fc from "fast-check"
import BigNumber from "bignumber.js"
import { decorateCartTotals } from "@medusajs/framework/utils"
import { quoteLines } from "../../../packages/sandbox/src/engine"
import { float32Shortest } from "./back-solve"
import {
  backSolveInclusiveRate,
  chooseSplit,
  MAX_INCLUSIVE_CALLS,
  medusaInclusiveTax,
  nextNet,
  rateEstimate,
  resolveInclusive,
  hintedNet,
  serviceTax,
  type LineAnswer,
} from "./inclusive"

const cents = (v: BigNumber.Value) => new BigNumber(v).decimalPlaces(2, BigNumber.ROUND_HALF_UP)
/** What PostgreSQL's `real` column does to a rate on its way in and out. */
const throughFloat4 = (rate: number) => Number(float32Shortest(rate))

/** The contract's rule for a line taxed whole at one rate: amount = round-half-up(net × rate), rate reported to 4 places. */
function wholeLine(rate: BigNumber.Value) {
  return (net: BigNumber): LineAnswer => ({
    amount: cents(net.times(rate)).toNumber(),
    rate: new BigNumber(rate).decimalPlaces(4, BigNumber.ROUND_HALF_UP).toNumber(),
  })
}

const ORIGIN = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const ALBANY = { line1: "1 State St", city: "Albany", state: "NY", zip: "12207" }
const BOSTON = { line1: "1 Main St", city: "Boston", state: "MA", zip: "02108" }
const NYC = { line1: "1 Broadway", city: "New York", state: "NY", zip: "10004" }

/** A quoter backed by the sandbox's tax engine (the service's rules), counting calls. */
function engineQuoter(destination: typeof ALBANY, lines: { itemId: string; tic: number; quantity: number }[]) {
  const seen: Map<string, BigNumber>[] = []
  const quote = async (nets: Map<string, BigNumber>) => {
    seen.push(new Map(nets))
    const out = quoteLines({
      origin: ORIGIN,
      destination,
      lineItems: lines.map((l, index) => ({
        index,
        itemId: l.itemId,
        price: nets.get(l.itemId)!.div(l.quantity).decimalPlaces(6, BigNumber.ROUND_HALF_UP).toNumber(),
        quantity: l.quantity,
        tic: l.tic,
      })),
    })
    return new Map(out.map((o) => [o.itemId, { amount: o.tax.amount, rate: o.tax.rate }]))
  }
  return { quote, seen }
}

describe("tax-inclusive split: pure steps", () => {
  it("rateEstimate pins a whole-line rate from amount ÷ net and the 4-place rate; a threshold line falls back to the reported rate", () => {
    const e = rateEstimate(1000, { amount: 90.25, rate: 0.0903 })
    expect(e.whole).toBe(true)
    expect(e.rate.minus(0.09025).abs().toNumber()).toBeLessThan(0.000006)
    // MA clothing: tax only on the part above $175 — amount ÷ net is far from the reported rate
    const m = rateEstimate(200, { amount: 1.56, rate: 0.0625 })
    expect(m.whole).toBe(false)
    expect(m.rate.toNumber()).toBe(0.0625)
  })

  it("nextNet: G ÷ (1 + rate) on the cent, none when closed, none in a certain gap", () => {
    const at10 = wholeLine("0.1")
    // 110.00 at 10 %: quoted at the gross first (11.00), the net is 100.00
    expect(nextNet(110, 110, at10(new BigNumber(110)))!.toString()).toBe("100")
    expect(nextNet(110, 100, at10(new BigNumber(100)))).toBeNull()
    // 0.16 at 10 %: 0.14 + 0.01 = 0.15 and 0.15 + 0.02 = 0.17: no net; a certain gap is not quoted again
    const g = new BigNumber("0.16")
    const first = nextNet(g, g, at10(g))
    expect(first).not.toBeNull()
    const again = nextNet(g, first!, at10(first!))
    expect(again === null || again.eq(first!) ? null : again.toString()).toBeNull()
  })

  it("chooseSplit: exact first, else N + T just below G, never above when below exists", () => {
    const tried = [
      { net: new BigNumber("0.15"), answer: { amount: 0.02, rate: 0.1 } },
      { net: new BigNumber("0.14"), answer: { amount: 0.01, rate: 0.1 } },
    ]
    const s = chooseSplit("0.16", tried, 2)
    expect(s).toEqual({ net: "0.14", amount: 0.01, rate: 0.1, residual: "0.01", calls: 2 })
    expect(chooseSplit("0.17", tried, 2).residual).toBe("0")
  })

  it("backSolveInclusiveRate: Medusa's inclusive tax on the shown price rounds to the amount (tax-inclusive discount too)", () => {
    const r = backSolveInclusiveRate({ price: 115, amount: 9.37 })
    expect(r.exact).toBe(true)
    expect(cents(medusaInclusiveTax({ gross: 115, ratePct: throughFloat4(r.rate) })).toNumber()).toBe(9.37)
    const d = backSolveInclusiveRate({ price: 60, quantity: 3, inclusiveDiscount: 7.5, amount: 4.19 })
    expect(d.exact).toBe(true)
    expect(cents(medusaInclusiveTax({ gross: 60, quantity: 3, inclusiveDiscount: 7.5, ratePct: d.rate })).toNumber()).toBe(4.19)
    expect(backSolveInclusiveRate({ price: 10, amount: 0 })).toEqual({ rate: 0, exact: true })
  })
})

describe("tax-inclusive split against the sandbox's rules", () => {
  it("a whole-line rate: 2 calls (the gross, the net), net + tax = shown", async () => {
    const { quote, seen } = engineQuoter(ALBANY, [{ itemId: "a", tic: 0, quantity: 2 }])
    const { splits, calls } = await resolveInclusive([{ itemId: "a", gross: "49.98" }], quote)
    const s = splits.get("a")!
    expect(calls).toBe(2)
    expect(seen.map((m) => m.get("a")!.toString())).toEqual(["49.98", "46.05"])
    expect(s.residual).toBe("0")
    expect(new BigNumber(s.net).plus(s.amount).toString()).toBe("49.98")
  })

  it("NY clothing shown at $112: the net derived at the combined rate is under $110, so one re-quote at the local rate (3 calls)", async () => {
    const { quote, seen } = engineQuoter(ALBANY, [{ itemId: "shirt", tic: 20010, quantity: 1 }])
    const { splits, calls } = await resolveInclusive([{ itemId: "shirt", gross: "112" }], quote)
    expect(calls).toBe(3)
    expect(seen.length).toBe(MAX_INCLUSIVE_CALLS)
    const s = splits.get("shirt")!
    expect(s.residual).toBe("0")
    expect(new BigNumber(s.net).lt(110)).toBe(true)
    // the state's 4 % is not charged under $110: only Albany's local 4.53 %
    expect(s.rate).toBe(0.0453)
    expect(s.amount).toBe(cents(new BigNumber(s.net).times("0.0453")).toNumber())
  })

  it("MA clothing above $175 (tax on the part above): Newton steps with the reported rate close it", async () => {
    const { quote } = engineQuoter(BOSTON, [{ itemId: "coat", tic: 20010, quantity: 1 }])
    const { splits, calls } = await resolveInclusive([{ itemId: "coat", gross: "200" }], quote)
    const s = splits.get("coat")!
    expect(calls).toBeLessThanOrEqual(MAX_INCLUSIVE_CALLS)
    expect(s.residual).toBe("0")
    expect(s.amount).toBe(cents(new BigNumber(s.net).minus(175).times("0.0625")).toNumber())
  })

  it("an exempt line closes at the first call (net = shown, tax 0); NYC clothing between $110 and $119.76 has no consistent split and stays bounded", async () => {
    const mn = engineQuoter({ line1: "1 Nicollet", city: "Minneapolis", state: "MN", zip: "55401" }, [
      { itemId: "c", tic: 20010, quantity: 1 },
    ])
    const r1 = await resolveInclusive([{ itemId: "c", gross: "80" }], mn.quote)
    expect(r1.calls).toBe(1)
    expect(r1.splits.get("c")).toMatchObject({ net: "80", amount: 0, residual: "0" })
    const nyc = engineQuoter(NYC, [{ itemId: "c", tic: 20010, quantity: 1 }])
    const r2 = await resolveInclusive([{ itemId: "c", gross: "115" }], nyc.quote)
    expect(r2.calls).toBeLessThanOrEqual(MAX_INCLUSIVE_CALLS)
    // the net under $110 is exempt, and with tax 0 the net is $115 (taxed): the exempt reading is kept (N + T below G)
    expect(r2.splits.get("c")!.amount).toBe(0)
  })
})

describe("tax-inclusive carts through Medusa's own totals (decorateCartTotals)", () => {
  const serviceRate = fc.oneof(
    { weight: 1, arbitrary: fc.constant(0) },
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 120000 }).map((r) => r / 1_000_000) },
  )
  const lineArb = fc.record({
    unitCents: fc.integer({ min: 1, max: 500_000 }),
    quantity: fc.integer({ min: 1, max: 20 }),
    discountShare: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.9, noNaN: true })),
    inclusive: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    rate: serviceRate,
  })
  const shipArb = fc.record({ amountCents: fc.integer({ min: 0, max: 50_000 }), rate: serviceRate })

  it("600 random carts (inclusive and exclusive lines, tax-inclusive discounts, inclusive shipping): total = shown, tax = the service's, 0 cents", async () => {
    let inclusiveLines = 0
    let gaps = 0
    let maxCalls = 0
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 6 }), fc.array(shipArb, { maxLength: 2 }), async (items, ships) => {
        // the cart's lines as the provider sees them: gross (inclusive) or net (exclusive) per line
        const lines = items.map((it, i) => {
          const price = new BigNumber(it.unitCents).div(100).times(it.quantity)
          const discount = price.times(it.discountShare).decimalPlaces(2, BigNumber.ROUND_DOWN)
          return { id: `item_${i}`, ...it, price, discount, shown: price.minus(discount) }
        })
        const shipping = ships.map((s, i) => ({ id: `sm_${i}`, amount: new BigNumber(s.amountCents).div(100), rate: s.rate }))
        const rateOf = new Map<string, number>([
          ...lines.map((l) => [l.id, l.rate] as const),
          ...shipping.map((s) => [s.id, s.rate] as const),
        ])
        const qty = new Map<string, number>(lines.map((l) => [l.id, l.quantity]))
        // the service: per line, round-half-up(unit price sent (6 places) × quantity × rate)
        const service = async (nets: Map<string, BigNumber>) => {
          const out = new Map<string, LineAnswer>()
          for (const [id, net] of nets) {
            const q = qty.get(id) ?? 1
            const unit = net.div(q).decimalPlaces(6, BigNumber.ROUND_HALF_UP)
            out.set(id, wholeLine(rateOf.get(id)!)(unit.times(q)))
          }
          return out
        }
        const inclusive = [
          ...lines.filter((l) => l.inclusive).map((l) => ({ itemId: l.id, gross: l.shown })),
          ...shipping.map((s) => ({ itemId: s.id, gross: s.amount })),
        ]
        const exclusiveNets = new Map(lines.filter((l) => !l.inclusive).map((l) => [l.id, l.shown]))
        const { splits, last, calls } = await resolveInclusive(inclusive, (nets) => service(new Map([...exclusiveNets, ...nets])))
        maxCalls = Math.max(maxCalls, calls)
        expect(calls).toBeLessThanOrEqual(MAX_INCLUSIVE_CALLS)

        const cart = {
          id: "cart_1",
          currency_code: "usd",
          region: { automatic_taxes: true },
          items: lines.map((l) => {
            const tax = l.inclusive ? splits.get(l.id)!.amount : last.get(l.id)!.amount
            const rate = l.inclusive
              ? backSolveInclusiveRate({ price: l.price, quantity: l.quantity, inclusiveDiscount: l.discount, amount: tax }).rate
              : // exclusive lines: the existing back-solve, here the plain quotient is enough for the shape
                new BigNumber(tax).times(100).div(BigNumber.max(l.shown, "0.01")).toNumber()
            return {
              id: l.id,
              unit_price: new BigNumber(l.unitCents).div(100).toNumber(),
              quantity: l.quantity,
              is_tax_inclusive: l.inclusive,
              adjustments: l.discount.gt(0) ? [{ amount: l.discount.toNumber(), is_tax_inclusive: l.inclusive }] : [],
              tax_lines: [{ rate: l.inclusive ? throughFloat4(rate) : rate, code: "sales-tax" }],
            }
          }),
          shipping_methods: shipping.map((s) => ({
            id: s.id,
            amount: s.amount.toNumber(),
            is_tax_inclusive: true,
            adjustments: [],
            tax_lines: [
              {
                rate: throughFloat4(backSolveInclusiveRate({ price: s.amount, amount: splits.get(s.id)!.amount }).rate),
                code: "sales-tax",
              },
            ],
          })),
        }
        const totals = decorateCartTotals(cart as never) as unknown as {
          total: { numeric: number }
          tax_total: { numeric: number }
          items: Array<{ total: { numeric: number }; tax_total: { numeric: number }; subtotal: { numeric: number } }>
          shipping_methods: Array<{ total: { numeric: number }; tax_total: { numeric: number } }>
        }
        let expectedTax = new BigNumber(0)
        totals.items.forEach((t, i) => {
          const l = lines[i]
          if (!l.inclusive) return void (expectedTax = expectedTax.plus(last.get(l.id)!.amount))
          inclusiveLines++
          const s = splits.get(l.id)!
          if (s.residual !== "0") gaps++
          // 0 cents: Medusa's inclusive total is the shown price, its tax is the service's
          expect(cents(t.total.numeric).toString()).toBe(l.shown.toString())
          expect(cents(t.tax_total.numeric).toNumber()).toBe(s.amount)
          // the net Medusa keeps (total − tax) + tax = shown, and it is the net quoted unless no net exists (one cent)
          expect(new BigNumber(s.net).plus(s.amount).plus(s.residual).toString()).toBe(l.shown.toString())
          expect(new BigNumber(s.residual).abs().lte("0.01")).toBe(true)
          expectedTax = expectedTax.plus(s.amount)
        })
        totals.shipping_methods.forEach((t, i) => {
          const s = splits.get(shipping[i].id)!
          expect(cents(t.total.numeric).toString()).toBe(shipping[i].amount.toString())
          expect(cents(t.tax_total.numeric).toNumber()).toBe(s.amount)
          expectedTax = expectedTax.plus(s.amount)
        })
        const inclusiveShown = BigNumber.sum(0, ...lines.filter((l) => l.inclusive).map((l) => l.shown), ...shipping.map((s) => s.amount))
        const exclusiveTotal = BigNumber.sum(0, ...lines.filter((l) => !l.inclusive).map((l) => l.shown.plus(last.get(l.id)!.amount)))
        expect(cents(totals.tax_total.numeric).toString()).toBe(expectedTax.toString())
        expect(cents(totals.total.numeric).toString()).toBe(inclusiveShown.plus(exclusiveTotal).toString())
      }),
      // 600 carts, about 1,700 random tax-inclusive lines (was 2,000 carts: Medusa's totals over the
      // cart dominate the unit suite's CPU here); every line is independent (price, quantity,
      // discount, rate), and the split itself is property-tested per line below (hintedNet, 1,500 draws)
      { numRuns: 600 },
    )
    expect(inclusiveLines).toBeGreaterThan(1200)
    expect(maxCalls).toBeLessThanOrEqual(MAX_INCLUSIVE_CALLS)
    // a gap (no net on the cent) is rare but real: about rate ÷ (1 + rate) of small prices; here a few percent at most
    expect(gaps / inclusiveLines).toBeLessThan(0.1)
  })
})

describe("tax-inclusive split from a known rate (step 0: hintedNet and resolveInclusive's start)", () => {
  /** The net on the cent with N + round-half-up(N × rate) = G, searched by brute force around G ÷ (1 + rate); null in a gap. */
  function closingNet(g: BigNumber, rate: BigNumber): BigNumber | null {
    const x0 = cents(g.div(rate.plus(1)))
    for (let k = -5; k <= 5; k++) {
      const x = x0.plus(new BigNumber(k).div(100))
      if (x.gte(0) && x.plus(cents(x.times(rate))).eq(g)) return x
    }
    return null
  }
  const grossArb = fc.integer({ min: 1, max: 10_000_000 }).map((c) => new BigNumber(c).div(100))
  const rateArb = fc.integer({ min: 0, max: 150_000 }).map((r) => new BigNumber(r).div(1_000_000))

  it("hintedNet: for a line taxed whole at the rate, the hinted net closes N + T = G whenever a closing net exists (in a gap: the net one cent short)", () => {
    let closable = 0
    fc.assert(
      fc.property(grossArb, rateArb, (g, rate) => {
        const x = hintedNet(g, rate)
        expect(x.decimalPlaces()).toBeLessThanOrEqual(2)
        expect(x.gte(0) && x.lte(g)).toBe(true)
        const exact = closingNet(g, rate)
        if (exact) {
          closable++
          // N + T is strictly increasing in N (T steps by 0 or 1 cent per cent of N): the closing net is unique
          expect(x.toString()).toBe(exact.toString())
          expect(x.plus(serviceTax(x, rate)).toString()).toBe(g.toString())
        } else {
          // a gap: the net one cent short (what chooseSplit keeps), so that this one call is the last
          expect(
            x
              .minus(cents(g.div(rate.plus(1))))
              .abs()
              .lte("0.02"),
          ).toBe(true)
          if (g.gt("0.01")) expect(x.plus(serviceTax(x, rate)).toString()).toBe(g.minus("0.01").toString())
        }
      }),
      // 1,500 draws (was 3,000) of a pure two-number function: gaps (no closing net) and closable
      // lines both hundreds of times; the worked examples below stay explicit
      { numRuns: 1500 },
    )
    expect(closable).toBeGreaterThan(1000)
    // examples: 110.00 at 10 % → 100.00; 112.00 in Albany under $110 (4.53 %) → 107.15
    expect(hintedNet(110, "0.1").toString()).toBe("100")
    expect(hintedNet(112, "0.0453").toString()).toBe("107.15")
    // an exempt line (rate 0): its net is the shown price
    expect(hintedNet("49.99", 0).toString()).toBe("49.99")
  })

  it("a right hint: ONE call per state (the net it predicts closes, or in a gap the net one cent short); the split is the one the gross-first path finds", async () => {
    // Chicago 10.25 %: 2 × $49.99 = 99.98 has no net (90.68 + 9.29 = 99.97, 90.69 + 9.30 = 99.99): one call at 90.68
    const gap = await resolveInclusive(
      [{ itemId: "lamp", gross: "99.98" }],
      async (nets) => new Map([...nets].map(([id, n]) => [id, wholeLine("0.1025")(n)])),
      new Map([["lamp", hintedNet("99.98", "0.1025", { lo: "0.10245", hi: "0.10255" })]]),
    )
    expect(gap.calls).toBe(1)
    expect(gap.splits.get("lamp")).toMatchObject({ net: "90.68", amount: 9.29, residual: "0.01" })
    await fc.assert(
      fc.asyncProperty(grossArb, rateArb, async (g, rate) => {
        fc.pre(closingNet(g, rate) !== null)
        const service = async (nets: Map<string, BigNumber>) => new Map([...nets].map(([id, n]) => [id, wholeLine(rate)(n)]))
        const hinted = await resolveInclusive([{ itemId: "a", gross: g }], service, new Map([["a", hintedNet(g, rate)]]))
        expect(hinted.calls).toBe(1)
        expect(hinted.splits.get("a")!.residual).toBe("0")
        // the gross-first path finds the same split when it closes within its 3 calls; on large lines
        // it can stop a cent short (e.g. 17,041.27 at 14.105 %) where the known rate closes exactly
        const plain = await resolveInclusive([{ itemId: "a", gross: g }], service)
        const p = plain.splits.get("a")!
        if (p.residual === "0") expect({ ...hinted.splits.get("a"), calls: 0 }).toEqual({ ...p, calls: 0 })
        else expect(p.residual).toBe("0.01")
      }),
      { numRuns: 200 },
    )
    // against the sandbox's rules: Albany clothing at $112 with the local 4.53 % known, one call at 107.15
    const { quote, seen } = engineQuoter(ALBANY, [{ itemId: "shirt", tic: 20010, quantity: 1 }])
    const r = await resolveInclusive([{ itemId: "shirt", gross: "112" }], quote, new Map([["shirt", hintedNet(112, "0.0453")]]))
    expect(r.calls).toBe(1)
    expect(seen.map((m) => m.get("shirt")!.toString())).toEqual(["107.15"])
    expect(r.splits.get("shirt")).toMatchObject({ net: "107.15", amount: 4.85, residual: "0" })
  })

  it("a wrong hint (NY clothing across the $110 threshold, a rate changed): still at most 3 calls and the same split as without a hint", async () => {
    const cases: { gross: string; hint: string }[] = [
      // the combined 8.53 % remembered from a dearer piece; $112 nets under $110: the local 4.53 % only
      { gross: "112", hint: "0.0853" },
      // the local 4.53 % remembered from a cheap piece; $120 nets above $110: the combined 8.53 %
      { gross: "120", hint: "0.0453" },
      // a rate that changed (or a hint from another rule) far off
      { gross: "112", hint: "0.2" },
      { gross: "99.99", hint: "0" },
    ]
    for (const c of cases) {
      const plain = engineQuoter(ALBANY, [{ itemId: "shirt", tic: 20010, quantity: 1 }])
      const without = await resolveInclusive([{ itemId: "shirt", gross: c.gross }], plain.quote)
      const hinted = engineQuoter(ALBANY, [{ itemId: "shirt", tic: 20010, quantity: 1 }])
      const withHint = await resolveInclusive(
        [{ itemId: "shirt", gross: c.gross }],
        hinted.quote,
        new Map([["shirt", hintedNet(c.gross, c.hint)]]),
      )
      expect(withHint.calls).toBeGreaterThan(1)
      expect(withHint.calls).toBeLessThanOrEqual(MAX_INCLUSIVE_CALLS)
      expect(hinted.seen.length).toBe(withHint.calls)
      expect({ ...withHint.splits.get("shirt"), calls: 0 }).toEqual({ ...without.splits.get("shirt"), calls: 0 })
      expect(withHint.splits.get("shirt")!.residual).toBe("0")
    }
    // the case that needed the extra call: 432.97 at 14.9974 % with a 12.78 % hint (383.90, 376.49,
    // 376.51 were two cents either side; the fourth call closes at 376.50)
    {
      const service = async (nets: Map<string, BigNumber>) => new Map([...nets].map(([id, n]) => [id, wholeLine("0.149974")(n)]))
      const r = await resolveInclusive([{ itemId: "a", gross: "432.97" }], service, new Map([["a", hintedNet("432.97", "0.127804")]]))
      expect(r.calls).toBe(MAX_INCLUSIVE_CALLS + 1)
      expect(["0", "0.01"]).toContain(r.splits.get("a")!.residual)
    }
    // random whole rates and random wrong hints: at most one call more than the gross-first path
    // (a hint that missed) and never worse than one cent short, the split the design keeps where no
    // net closes (without the extra call 432.97 at 14.9974 % with a 12.78 % hint ended two cents
    // short). NOT always exact where the gross-first path is: near 15 % a hint far off can end one cent
    // short where the gross-first path closes (24,382.24 at 14.675 %, 1,906.12 at 14.9995 %)
    await fc.assert(
      fc.asyncProperty(grossArb, rateArb, rateArb, async (g, rate, hint) => {
        const service = async (nets: Map<string, BigNumber>) => new Map([...nets].map(([id, n]) => [id, wholeLine(rate)(n)]))
        const plain = await resolveInclusive([{ itemId: "a", gross: g }], service)
        const hinted = await resolveInclusive([{ itemId: "a", gross: g }], service, new Map([["a", hintedNet(g, hint)]]))
        expect(hinted.calls).toBeLessThanOrEqual(MAX_INCLUSIVE_CALLS + 1)
        const h = hinted.splits.get("a")!
        expect(["0", "0.01"]).toContain(h.residual)
        expect(["0", "0.01"]).toContain(plain.splits.get("a")!.residual)
      }),
      { numRuns: 300 },
    )
  })

  it("a line without a hint in the same cart is quoted at its gross first (the hinted one keeps its net)", async () => {
    const { quote, seen } = engineQuoter(ALBANY, [
      { itemId: "known", tic: 20010, quantity: 1 },
      { itemId: "new", tic: 0, quantity: 2 },
    ])
    const r = await resolveInclusive(
      [
        { itemId: "known", gross: "112" },
        { itemId: "new", gross: "49.98" },
      ],
      quote,
      new Map([["known", hintedNet(112, "0.0453")]]),
    )
    expect(seen[0].get("known")!.toString()).toBe("107.15")
    expect(seen[0].get("new")!.toString()).toBe("49.98")
    expect(r.calls).toBe(2)
    expect(seen[1].get("known")!.toString()).toBe("107.15")
    for (const s of r.splits.values()) expect(s.residual).toBe("0")
  })
})
