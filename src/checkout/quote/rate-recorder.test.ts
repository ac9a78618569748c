import { WrittenRates } from "../../service/last-known-rates"
import { ratesToRemember } from "./rate-recorder"

const li = (itemId: string, price: number, quantity: number, tic?: number) => ({
  index: 0,
  itemId,
  price,
  quantity,
  ...(tic === undefined ? {} : { tic }),
})
const cart = (...lineItems: ReturnType<typeof li>[]) => ({ lineItems }) as never
const at = Date.UTC(2026, 0, 2)

describe("ratesToRemember", () => {
  it("one row per TIC (the last line wins), at the service's rate when it explains the line; lines without an answer or a TIC are left out", () => {
    const written = new WrittenRates()
    const rows = ratesToRemember(
      cart(li("a", 10, 2, 20010), li("b", 4, 1, 0), li("c", 6, 1, 0), li("d", 3, 1), li("e", 9, 1, 0)),
      {
        lines: {
          a: { amount: 1.8, rate: 0.09, tic: 20010 },
          b: { amount: 0.3, rate: 0.075, tic: 0 },
          c: { amount: 0.45, rate: 0.075, tic: 0 },
          d: { amount: 0.2, rate: 0.07, tic: null },
        },
      },
      "55415",
      at,
      written,
    )
    expect(rows).toEqual([
      { zip: "55415", tic: 20010, rate: "9", quotedAt: new Date(at) },
      { zip: "55415", tic: 0, rate: "7.5", quotedAt: new Date(at) },
    ])
  })

  it("a line the rate written already explains (within the hour) is not remembered again", () => {
    const written = new WrittenRates()
    const q = { lines: { a: { amount: 1.8, rate: 0.09, tic: 20010 } } }
    const rows = ratesToRemember(cart(li("a", 10, 2, 20010)), q, "55415", at, written)
    written.written(rows, at)
    expect(ratesToRemember(cart(li("a", 10, 2, 20010)), q, "55415", at + 60_000, written)).toEqual([])
    // a different quantity the same rate explains: still nothing new
    expect(
      ratesToRemember(
        cart(li("a", 10, 3, 20010)),
        { lines: { a: { amount: 2.7, rate: 0.09, tic: 20010 } } },
        "55415",
        at + 60_000,
        written,
      ),
    ).toEqual([])
  })
})
