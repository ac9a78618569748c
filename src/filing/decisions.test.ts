import fc from "fast-check"
import { dec, roundCents, sum } from "../../packages/contract/src/money"
import type { FilingLine, FilingRecordDTO, FilingSnapshot } from "../modules/sales-tax-filing/types"
import { describeFailure, isRetryable, sanitizeError } from "./decisions-retry"
import { backoffDelay } from "../service/client"
import { compareLines, completionAtFiling, deriveState, directOrderRequest, refundKey, filedStep, requotesAtFiling } from "./decisions"
import { remainingItems } from "./decisions-refunds"

const line = (i: number, tax: number, qty = 2): FilingLine => ({
  index: i,
  itemId: `it_${i}`,
  kind: "item",
  price: 10,
  quantity: qty,
  tic: 0,
  chargedTax: tax,
  chargedRate: 0.0725,
  fallback: false,
})
const quoted = (l: FilingLine, tax: number) => ({
  index: l.index,
  itemId: l.itemId,
  price: l.price,
  quantity: l.quantity,
  tic: l.tic,
  tax: { amount: tax, rate: 0.0725 },
})

describe("compareLines", () => {
  it("equal exactly when every line matches to the cent (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 8, maxLength: 8 }),
        (cents, deltas) => {
          const lines = cents.map((c, i) => line(i, c / 100))
          const q = lines.map((l, i) => quoted(l, (cents[i]! + deltas[i]!) / 100))
          const cmp = compareLines(lines, q)
          const allSame = lines.every((_, i) => deltas[i] === 0)
          expect(cmp.equal).toBe(allSame)
          const d = sum(lines.map((_, i) => deltas[i]!)).div(100)
          expect(cmp.difference).toBe(roundCents(d))
          expect(cmp.chargedTotal).toBe(roundCents(sum(cents).div(100)))
        },
      ),
    )
  })

  it("a re-quote missing a line, or with an extra one, is never equal", () => {
    const lines = [line(0, 1.23), line(1, 0.5)]
    expect(compareLines(lines, [quoted(lines[0]!, 1.23)]).equal).toBe(false)
    expect(compareLines(lines, [...lines.map((l) => quoted(l, l.chargedTax)), { ...quoted(lines[0]!, 0), itemId: "x" }]).equal).toBe(false)
    expect(
      compareLines(
        lines,
        lines.map((l) => quoted(l, l.chargedTax)),
      ).equal,
    ).toBe(true)
  })
})

describe("refund quantities", () => {
  it("remaining = original - refunded, never negative, and refunding it leaves nothing (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(4), fc.integer({ min: 1, max: 9 })), { maxLength: 6 }),
        (qtys, returns) => {
          const lines = qtys.map((q, i) => line(i, 1, q))
          const left = new Map(lines.map((l) => [l.itemId, l.quantity]))
          const refunds = [] as { state: "refunded"; items: { itemId: string; quantity: number }[] }[]
          for (const [i, q] of returns) {
            const id = `it_${i % lines.length}`
            const take = Math.min(q, left.get(id)!)
            if (take <= 0) continue
            left.set(id, left.get(id)! - take)
            refunds.push({ state: "refunded", items: [{ itemId: id, quantity: take }] })
          }
          const rem = remainingItems(lines, refunds)
          for (const r of rem) expect(r.quantity).toBe(left.get(r.itemId))
          expect(rem.every((r) => r.quantity > 0)).toBe(true)
          expect(remainingItems(lines, [...refunds, { state: "refunded", items: rem }])).toEqual([])
        },
      ),
    )
  })
})

describe("deriveState", () => {
  const snapshot = { lines: [line(0, 1, 2), line(1, 1, 1)] } as unknown as FilingSnapshot
  const base = { state: "pending", filed_at: null, completed_at: null, voided_at: null, snapshot } as unknown as FilingRecordDTO
  const d = new Date()
  it("follows the facts", () => {
    expect(deriveState(base, [], false)).toBe("pending")
    expect(deriveState({ ...base, filed_at: d }, [], false)).toBe("filed")
    expect(deriveState({ ...base, filed_at: d, completed_at: d }, [], false)).toBe("completed")
    expect(deriveState({ ...base, filed_at: d }, [{ state: "refunded", items: [{ itemId: "it_0", quantity: 1 }] }], false)).toBe(
      "partially_refunded",
    )
    expect(
      deriveState(
        { ...base, filed_at: d },
        [
          {
            state: "refunded",
            items: [
              { itemId: "it_0", quantity: 2 },
              { itemId: "it_1", quantity: 1 },
            ],
          },
        ],
        false,
      ),
    ).toBe("refunded")
    expect(deriveState({ ...base, filed_at: d }, [{ state: "pending", items: [{ itemId: "it_0", quantity: 2 }] }], false)).toBe("filed")
    expect(deriveState({ ...base, filed_at: d, voided_at: d }, [], false)).toBe("voided")
    expect(deriveState({ ...base, filed_at: d }, [], true)).toBe("failed")
    expect(deriveState({ ...base, state: "skipped" }, [], true)).toBe("skipped")
  })
})

describe("completion and direct orders", () => {
  const s = {
    orderId: "order_1",
    cartId: "cart_1",
    customerId: "cus_1",
    currencyCode: "usd",
    placedAt: "2026-01-02T03:04:05.000Z",
    origin: {},
    destination: {},
    lines: [line(0, 1.456)],
  } as unknown as FilingSnapshot
  it("placed completes at placement; captured/fulfilled wait for the intent", () => {
    expect(completionAtFiling({ completion_mode: "placed", completion_requested_at: null }, s)).toEqual({
      completed: true,
      completedDate: s.placedAt,
    })
    expect(completionAtFiling({ completion_mode: "captured", completion_requested_at: null }, s)).toEqual({ completed: false })
    const at = new Date("2026-01-03T00:00:00Z")
    expect(completionAtFiling({ completion_mode: "fulfilled", completion_requested_at: at }, s)).toEqual({
      completed: true,
      completedDate: at.toISOString(),
    })
  })
  it("the direct order states the charged tax per line, to the cent", () => {
    const o = directOrderRequest(s, { completed: false })
    expect(o.lineItems[0]!.tax.amount).toBe(1.46)
    expect(o.completedDate).toBeNull()
    expect(o.currency.currencyCode).toBe("USD")
  })
})

describe("keys, customers, errors, backoff", () => {
  it("refund keys derive from Medusa ids", () => {
    expect(refundKey("return", "return_01")).toBe("return_01")
    expect(refundKey("claim", "claim_01")).toBe("claim_01")
    expect(refundKey("cancel", "order_01")).toBe("cancel:order_01")
  })
  it("sanitizeError removes secrets and bounds the text", () => {
    const e = Object.assign(new Error("x"), { status: 500, title: "boom sk_live_SECRET", detail: "key sk_live_SECRET" })
    const t = sanitizeError(e, ["sk_live_SECRET"])
    expect(t).not.toContain("sk_live_SECRET")
    expect(t).toContain("HTTP 500")
    expect(sanitizeError(new Error("y".repeat(5000)), []).length).toBe(1000)
  })
  it("retryable: network, 408, 429, 5xx; the client's own flag wins", () => {
    expect([null, 408, 429, 500, 503].map((status) => isRetryable({ status }))).toEqual([true, true, true, true, true])
    expect([400, 404, 422].map((status) => isRetryable({ status }))).toEqual([false, false, false])
    expect(isRetryable({ status: 500, retryable: false })).toBe(false)
  })
  it("backoff stays within [d/2, d] of the capped exponential (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, r) => {
        const policy = { baseMs: 1000, maxMs: 60_000 }
        const d = Math.min(policy.maxMs, policy.baseMs * 2 ** (n - 1))
        // the record writer's wait: the client's backoff over the filing policy
        const v = backoffDelay(n, { baseDelayMs: policy.baseMs, maxDelayMs: policy.maxMs }, r)
        expect(v).toBeGreaterThanOrEqual(Math.floor(d / 2))
        expect(v).toBeLessThanOrEqual(d)
        expect(dec(v).isInteger()).toBe(true)
      }),
    )
  })
})

describe("describeFailure (the subscriber's log line)", () => {
  it("a plain object as Medusa's workflow engine rethrows it: its message and code, never [object Object]", () => {
    const out = describeFailure({ name: "Error", message: "order ord_1 not found", code: "not_found", type: "not_found" })
    expect(out).toBe("order ord_1 not found (code not_found)")
    expect(describeFailure({ message: "Cannot read", type: "unexpected_state", code: "E_STATE" })).toBe(
      "Cannot read (code E_STATE, type unexpected_state)",
    )
  })
  it("the service's error (status, title, detail) and an Error with a code and a cause; the stack follows the message", () => {
    expect(describeFailure({ status: 422, code: "void_cutoff", title: "Unprocessable", detail: "past the void cutoff" })).toBe(
      "past the void cutoff (code void_cutoff, HTTP 422)",
    )
    const e = Object.assign(new TypeError("bad input", { cause: { message: "socket hang up", code: "ECONNRESET" } }), { code: "E_IN" })
    const out = describeFailure(e)
    expect(out.split("\n")[0]).toBe("TypeError: bad input (code E_IN); caused by: socket hang up (code ECONNRESET)")
    expect(out.split("\n")[1]).toMatch(/^\s+at /)
  })
  it("anything else: a string as it is, an object without a message as JSON, a cycle without a crash; secrets redacted", () => {
    expect(describeFailure("boom")).toBe("boom")
    expect(describeFailure({ reason: "x" })).toBe('{"reason":"x"}')
    const cyc: Record<string, unknown> = {}
    cyc.self = cyc
    expect(describeFailure(cyc)).toBe("an object with keys self")
    expect(describeFailure({ message: "key sk_live_secret1234 refused", code: "auth" }, ["sk_live_secret1234"])).toBe(
      "key [redacted] refused (code auth)",
    )
  })
})

describe("filing a backfilled order", () => {
  it("re-quotes an order with a cart before filing, never a backfilled one nor a direct refile", () => {
    expect([
      requotesAtFiling({ cartId: "cart_1" }, false),
      requotesAtFiling({ cartId: null }, false),
      requotesAtFiling({ cartId: "cart_1" }, true),
      requotesAtFiling({ cartId: "cart_1", backfill: true }, false),
    ]).toEqual([true, false, false, false])
  })

  it("a backfilled order is filed directly and its record's last step says backfill", () => {
    expect([filedStep({ backfill: true }), filedStep({}), filedStep(null)]).toEqual(["backfill", "filed", "filed"])
  })
})
