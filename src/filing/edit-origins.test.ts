/**
 * Order edits of an order shipped from several stock locations (issue 16): each origin's service
 * order gets its own delta, a line added or moved is filed from the origin it ships from now.
 * Pure: planEdit over the order's service orders (its own, its other origins', its edits') and
 * editSupplements (one supplement order per origin).
 */
import fc from "fast-check"
import { dec, roundCents } from "../../packages/contract/src/money"
import type { Address } from "../../packages/contract/src/index"
import type { FilingLine, FilingRecordDTO, FilingSnapshot } from "../modules/sales-tax-filing/types"
import { originServiceId, sameAddress } from "../service/origins/origins"
import { childOrderId, editSupplements, originKey, planEdit, remainingOn } from "./decisions-refunds"
import { itemLine } from "./__tests__/lines"

const SEATTLE: Address = { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" }
const AUSTIN: Address = { line1: "500 Congress Ave", city: "Austin", state: "TX", zip: "78701" }
const DENVER: Address = { line1: "1 Main St", city: "Denver", state: "CO", zip: "80202" }

const L = itemLine
type Rec = Pick<FilingRecordDTO, "order_id" | "snapshot" | "refunds" | "voided_at">
const rec = (orderId: string, origin: Address, lines: FilingLine[]): Rec => ({
  order_id: orderId,
  snapshot: {
    orderId,
    kind: "order",
    cartId: null,
    customerId: "cus_1",
    currencyCode: "USD",
    placedAt: "2026-01-01T00:00:00.000Z",
    origin,
    destination: DENVER,
    lines: lines.map((l, index) => ({ ...l, index })),
  } satisfies FilingSnapshot,
  refunds: [],
  voided_at: null,
})

const EDIT = "ordch_01EDIT"
const AUSTIN_ORDER = originServiceId("order_1", "sloc_austin", false)

describe("an edit of an order filed as one service order per origin", () => {
  it("a quantity change on the second origin's line and an added item from there: refunded on that origin's order only, filed again from that origin", () => {
    const family = [rec("order_1", SEATTLE, [L("lamp", 2, 1.8)]), rec(AUSTIN_ORDER, AUSTIN, [L("shirt", 1, 0.83)])]
    const now = [L("lamp", 2, 1.8), L("shirt", 2, 1.65), L("hat", 1, 0.5)]
    const origins = { lamp: SEATTLE, shirt: AUSTIN, hat: AUSTIN }
    const plan = planEdit(now, family, origins)
    expect(plan.refileLines).toBeNull()
    expect(plan.refunds).toEqual([{ orderId: AUSTIN_ORDER, items: [{ itemId: "shirt", quantity: 1 }] }])
    expect(plan.supplement.map((l) => [l.itemId, l.quantity, l.chargedTax])).toEqual([
      ["shirt", 2, 1.65],
      ["hat", 1, 0.5],
    ])
    const sup = editSupplements(EDIT, SEATTLE, plan.supplement, origins)
    expect(sup.map((s) => [s.orderId, s.origin.state, s.lines.map((l) => [l.itemId, l.index])])).toEqual([
      [
        originServiceId(childOrderId(EDIT), originKey(AUSTIN), false),
        "TX",
        [
          ["shirt", 0],
          ["hat", 1],
        ],
      ],
    ])
  })

  it("an order filed from one origin: an added item from another location is not refiled with the order's origin but filed from its own", () => {
    const family = [rec("order_1", SEATTLE, [L("lamp", 2, 1.8)])]
    const now = [L("lamp", 2, 1.8), L("hat", 1, 0.5)]
    const origins = { lamp: SEATTLE, hat: AUSTIN }
    const plan = planEdit(now, family, origins)
    expect(plan.refileLines).toBeNull()
    expect(plan.refunds).toEqual([])
    const sup = editSupplements(EDIT, SEATTLE, plan.supplement, origins)
    expect(sup).toHaveLength(1)
    expect(sup[0]).toMatchObject({ origin: AUSTIN, lines: [{ itemId: "hat", quantity: 1, chargedTax: 0.5 }] })
    // all from the order's origin (or none recorded: an order from before origins): refiled whole, as before
    expect(planEdit([L("lamp", 3, 2.7)], family, { lamp: SEATTLE }).refileLines).toHaveLength(1)
    expect(planEdit([L("lamp", 3, 2.7)], family).refileLines).toHaveLength(1)
  })

  it("a line that ships from another location now, at the same quantity and tax, moves whole to its new origin", () => {
    const family = [rec("order_1", SEATTLE, [L("lamp", 2, 1.8)]), rec(AUSTIN_ORDER, AUSTIN, [L("shirt", 1, 0.83)])]
    const plan = planEdit([L("lamp", 2, 1.8), L("shirt", 1, 0.83)], family, { lamp: SEATTLE, shirt: DENVER })
    expect(plan.refunds).toEqual([{ orderId: AUSTIN_ORDER, items: [{ itemId: "shirt", quantity: 1 }] }])
    expect(editSupplements(EDIT, SEATTLE, plan.supplement, { shirt: DENVER }).map((s) => s.origin)).toEqual([DENVER])
    // unchanged and not moved: nothing to do
    expect(planEdit([L("lamp", 2, 1.8), L("shirt", 1, 0.83)], family, { lamp: SEATTLE, shirt: AUSTIN }).changed).toBe(false)
  })

  it("property: after any edit of a two-origin order, each line's net filed = its charge, held only by service orders of the origin it ships from now", () => {
    const ORIGINS = [SEATTLE, AUSTIN, DENVER]
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 1 }),
            q: fc.integer({ min: 0, max: 5 }),
            cents: fc.integer({ min: 0, max: 3000 }),
            nowAt: fc.integer({ min: 0, max: 2 }),
            newQ: fc.integer({ min: 0, max: 6 }),
            newCents: fc.integer({ min: 0, max: 5000 }),
            // the edit leaves the line's quantity and tax as they were (it may still move it)
            same: fc.boolean(),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (spec) => {
          // original lines (q > 0) on the origin they shipped from; q = 0: a line the edit adds
          const on = (k: number) => spec.map((s, i) => ({ s, i })).filter(({ s }) => s.q > 0 && s.at === k)
          const family = [
            rec(
              "order_1",
              SEATTLE,
              on(0).map(({ s, i }) => L(`i${i}`, s.q, s.cents / 100)),
            ),
            rec(
              AUSTIN_ORDER,
              AUSTIN,
              on(1).map(({ s, i }) => L(`i${i}`, s.q, s.cents / 100)),
            ),
          ].filter((r) => r.snapshot!.lines.length)
          const edited = spec.map((s) => (s.same && s.q > 0 ? { ...s, newQ: s.q, newCents: s.cents } : s))
          const now = edited.map((s, i) => ({ s, i })).filter(({ s }) => s.newQ > 0)
          const lines = now.map(({ s, i }) => L(`i${i}`, s.newQ, s.newCents / 100))
          const origins: Record<string, Address> = Object.fromEntries(now.map(({ s, i }) => [`i${i}`, ORIGINS[s.nowAt]!]))
          const plan = planEdit(lines, family, origins)
          // apply it: a refunded remainder takes the tax left on it; the supplements file their lines from their origin
          const held = new Map<string, { tax: number; origins: Address[] }>()
          const hold = (id: string, tax: number, origin: Address) => {
            const h = held.get(id) ?? { tax: 0, origins: [] }
            held.set(id, { tax: roundCents(dec(h.tax).plus(tax)), origins: [...h.origins, origin] })
          }
          const refunded = new Set(plan.refunds.flatMap((p) => p.items.map((i) => `${p.orderId}/${i.itemId}`)))
          if (plan.refileLines) for (const l of plan.refileLines) hold(l.itemId, l.chargedTax, family[0]!.snapshot!.origin)
          else
            for (const r of family)
              for (const l of r.snapshot!.lines)
                if (!refunded.has(`${r.order_id}/${l.itemId}`) && remainingOn(r, l.itemId) > 0)
                  hold(l.itemId, l.chargedTax, r.snapshot!.origin)
          if (!plan.refileLines)
            for (const s of editSupplements(EDIT, SEATTLE, plan.supplement, origins))
              for (const l of s.lines) hold(l.itemId, l.chargedTax, s.origin)
          for (const l of lines) {
            const h = held.get(l.itemId)
            expect([l.itemId, h?.tax ?? 0]).toEqual([l.itemId, roundCents(l.chargedTax)])
            for (const o of h?.origins ?? []) expect([l.itemId, sameAddress(o, origins[l.itemId]!)]).toEqual([l.itemId, true])
          }
          // a line the edit removed is held by nothing any more
          for (const { i } of edited.map((s, i) => ({ s, i })).filter(({ s }) => s.q > 0 && s.newQ === 0))
            expect(held.get(`i${i}`)).toBe(undefined)
        },
      ),
      { numRuns: 500 },
    )
  })
})
