import BigNumber from "bignumber.js"
import type { CartIn } from "../../../packages/contract/src/index"
import { InMemoryRateMemory, type KnownRate, type RateMemory } from "../../service/last-known-rates"
import { hintedNet } from "./inclusive"
import { InclusiveHints } from "./inclusive-hints"

const CONN = "11111111-2222-4333-8444-555555555555"
const addr = { line1: "1 Main St", city: "Chicago", state: "IL", zip: "60601" }

/** A service cart of lines [itemId, TIC, unit price, quantity] (prices as sent: nets for exclusive lines). */
function cart(lines: [string, number | null, number, number][]): { cart: CartIn } {
  return {
    cart: {
      customerId: "guest",
      currency: { currencyCode: "USD" },
      origin: addr,
      destination: addr,
      lineItems: lines.map(([itemId, tic, price, quantity], index) => ({ index, itemId, tic, price, quantity })),
    } as CartIn,
  }
}

/** A rate memory that counts its reads and the TICs asked. */
function countingMemory(rows: KnownRate[] = []) {
  const inner = new InMemoryRateMemory()
  void inner.rememberRates(rows)
  const reads: number[][] = []
  const memory: RateMemory = {
    rememberRates: (r) => inner.rememberRates(r),
    knownRates: async (zip, tics, since) => {
      reads.push([...tics])
      return inner.knownRates(zip, tics, since)
    },
  }
  return { memory: () => memory, reads }
}

const now = () => new Date()

describe("InclusiveHints: the known rate per connection, ZIP and TIC", () => {
  it("records each quoted line's effective rate (an inclusive line's at its net) and starts a later state at the net it predicts, without reading the memory", async () => {
    const hints = new InclusiveHints()
    // a quote at Chicago 10.25 %: an exclusive lamp (TIC 0, 2 × 49.99) and an inclusive jacket (TIC 20010) resolved at net 101.59
    hints.record(
      [
        cart([
          ["lamp", 0, 49.99, 2],
          ["jacket", 20010, 112, 1],
        ]),
      ],
      { lamp: { amount: 10.25, rate: 0.1025 }, jacket: { amount: 10.41, rate: 0.1025, net: "101.59" } },
      "60601-1234",
      CONN,
    )
    const { memory, reads } = countingMemory()
    const start = await hints.start(
      [
        cart([
          ["jacket", 20010, 224, 2],
          ["lamp", 0, 49.99, 1],
        ]),
      ],
      [
        { itemId: "jacket", gross: "224" },
        { itemId: "lamp", gross: "49.99" },
      ],
      "60601",
      CONN,
      memory,
    )
    expect(reads).toEqual([])
    expect(start.get("jacket")!.toString()).toBe(hintedNet("224", "0.1025").toString())
    expect(start.get("lamp")!.toString()).toBe(hintedNet("49.99", "0.1025").toString())
    // 203.17 + 20.83 = 224.00 at 10.25 %
    expect(start.get("jacket")!.toString()).toBe("203.17")
    expect(hints.stats).toEqual({ hinted: 2, fromMemory: 0, unhinted: 0 })
  })

  it("the rate memory is read once, for the TICs this process does not know (percentages), only when some are missing", async () => {
    const hints = new InclusiveHints()
    hints.record([cart([["lamp", 0, 100, 1]])], { lamp: { amount: 10.25, rate: 0.1025 } }, "60601", CONN)
    const { memory, reads } = countingMemory([
      { zip: "60601", tic: 20010, rate: "10.25", quotedAt: now() } as KnownRate,
      { zip: "60601", tic: 0, rate: "99", quotedAt: now() } as KnownRate,
    ])
    const lines = [
      { itemId: "lamp", gross: "110.25" },
      { itemId: "jacket", gross: "112" },
      { itemId: "shirt", gross: "29.95" },
      { itemId: "coffee", gross: "20" },
    ]
    const start = await hints.start(
      [
        cart([
          ["lamp", 0, 110.25, 1],
          ["jacket", 20010, 112, 1],
          ["shirt", 20010, 29.95, 1],
          ["coffee", 40030, 20, 1],
        ]),
      ],
      lines,
      "60601",
      CONN,
      memory,
    )
    // one read, for 20010 and 40030 (the lamp's TIC 0 is known in process: its memory row is not asked for)
    expect(reads).toHaveLength(1)
    expect(reads[0].sort()).toEqual([20010, 40030])
    expect(start.get("lamp")!.toString()).toBe("100")
    expect(start.get("jacket")!.toString()).toBe(hintedNet("112", "0.1025").toString())
    expect(start.get("shirt")!.toString()).toBe(hintedNet("29.95", "0.1025").toString())
    // no rate known for groceries at this ZIP: quoted at its gross first
    expect(start.has("coffee")).toBe(false)
    expect(hints.stats).toEqual({ hinted: 3, fromMemory: 1, unhinted: 1 })

    // all known in process now? the jacket's TIC is still only in the memory: a second state reads it again, never the lamp's
    const again = await hints.start([cart([["lamp", 0, 110.25, 1]])], [{ itemId: "lamp", gross: "110.25" }], "60601", CONN, memory)
    expect(reads).toHaveLength(1)
    expect(again.get("lamp")!.toString()).toBe("100")
  })

  it("per connection and ZIP (5 digits): another store or another ZIP has no hint; a memory that fails means the gross first", async () => {
    const hints = new InclusiveHints()
    hints.record([cart([["lamp", 0, 100, 1]])], { lamp: { amount: 10.25, rate: 0.1025 } }, "60601-0001", CONN)
    const none = countingMemory()
    const lamp = [{ itemId: "lamp", gross: "110.25" }]
    const carts = [cart([["lamp", 0, 110.25, 1]])]
    expect((await hints.start(carts, lamp, "60601-9999", CONN, none.memory)).get("lamp")!.toString()).toBe("100")
    expect((await hints.start(carts, lamp, "60602", CONN, none.memory)).size).toBe(0)
    expect((await hints.start(carts, lamp, "60601", "99999999-2222-4333-8444-555555555555", none.memory)).size).toBe(0)
    const broken: RateMemory = {
      rememberRates: async () => {},
      knownRates: async () => {
        throw new Error("database away")
      },
    }
    expect((await hints.start(carts, lamp, "98101", CONN, () => broken)).size).toBe(0)
    expect(
      (
        await hints.start(carts, lamp, "98101", CONN, () => {
          throw new Error("module not registered")
        })
      ).size,
    ).toBe(0)
    // a line without a TIC in the cart is never hinted
    expect((await hints.start([cart([["lamp", null, 110.25, 1]])], lamp, "60601", CONN, none.memory)).size).toBe(0)
  })

  it("the last quote wins (a rate that changed), a threshold line keeps its reported rate, clear() forgets", async () => {
    const hints = new InclusiveHints()
    const none = countingMemory()
    const jacket = [{ itemId: "j", gross: "112" }]
    const carts = [cart([["j", 20010, 112, 1]])]
    hints.record(carts, { j: { amount: 9.55, rate: 0.0853, net: "112" } }, "12207", CONN)
    expect((await hints.start(carts, jacket, "12207", CONN, none.memory)).get("j")!.toString()).toBe(hintedNet(112, "0.0853").toString())
    // Albany under $110: the local 4.53 % only
    hints.record(carts, { j: { amount: 4.85, rate: 0.0453, net: "107.15" } }, "12207", CONN)
    expect((await hints.start(carts, jacket, "12207", CONN, none.memory)).get("j")!.toString()).toBe("107.15")
    // MA clothing above $175: tax on the part above only; the reported 6.25 % is what is kept (not amount ÷ net)
    hints.record([cart([["c", 20010, 200, 1]])], { c: { amount: 1.56, rate: 0.0625 } }, "02108", CONN)
    const coat = await hints.start([cart([["c", 20010, 212.5, 1]])], [{ itemId: "c", gross: "212.5" }], "02108", CONN, none.memory)
    expect(coat.get("c")!.toString()).toBe(hintedNet("212.5", "0.0625").toString())
    expect(new BigNumber(coat.get("c")!).toString()).toBe("200")
    hints.clear()
    expect((await hints.start(carts, jacket, "12207", CONN, none.memory)).size).toBe(0)
  })
})
