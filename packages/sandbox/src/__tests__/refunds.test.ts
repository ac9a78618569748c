import BigNumber from "bignumber.js"
import fc from "fast-check"
import { RefundResponse } from "@medusa-sales-tax/contract"
import { C, call, makeSandbox, orderBody, setClock, type TestSandbox } from "./helpers"

let s: TestSandbox
beforeAll(async () => {
  s = await makeSandbox()
  await setClock(s, "2026-01-20T12:00:00Z")
})
afterAll(() => s.close())

const create = (over: Record<string, unknown> = {}) => call(s, "POST", `${C()}/orders`, { body: orderBody(over) })
const refund = (id: string, body?: unknown) => call(s, "POST", `${C()}/orders/refunds/${id}`, body === undefined ? {} : { body })
const halfUp = (v: BigNumber.Value) => new BigNumber(v).decimalPlaces(2, BigNumber.ROUND_HALF_UP).toNumber()

describe("refunds", () => {
  it("a partial refund: tax = line tax × refunded / original, rounded half-up; 201 with an array", async () => {
    await create({ orderId: "r-1" })
    const r = await refund("r-1", { items: [{ itemId: "b", quantity: 2 }], idempotencyKey: "k1" })
    expect(r.status).toBe(201)
    const recs = RefundResponse.parse(r.body)
    expect(recs).toHaveLength(1)
    expect(recs[0]!.items).toEqual([
      { index: 1, itemId: "b", price: 5, quantity: 2, tic: 0, tax: { amount: halfUp(new BigNumber(3.55).times(2).div(7)), rate: 0.1014 } },
    ])
    expect(r.headers["x-service-warning"]).toBeUndefined()
    const o = await call(s, "GET", `${C()}/orders/r-1?expand=refunds`)
    expect(o.body.refunds).toEqual(recs)
  })

  it("the same idempotencyKey gives 200 and the identical body, and records nothing new", async () => {
    await create({ orderId: "r-idem" })
    const first = await refund("r-idem", { items: [{ itemId: "a", quantity: 1 }], idempotencyKey: "same" })
    const again = await refund("r-idem", { items: [{ itemId: "a", quantity: 1 }], idempotencyKey: "same" })
    expect(first.status).toBe(201)
    expect(again.status).toBe(200)
    expect(again.raw).toBe(first.raw)
    const other = await refund("r-idem", { items: [{ itemId: "a", quantity: 2 }], idempotencyKey: "same" })
    expect(other.status).toBe(200)
    expect(other.raw).toBe(first.raw)
    const o = await call(s, "GET", `${C()}/orders/r-idem?expand=refunds`)
    expect(o.body.refunds).toHaveLength(1)
  })

  it("a refund without a key succeeds with X-Service-Warning", async () => {
    await create({ orderId: "r-nokey" })
    const r = await refund("r-nokey", { items: [{ itemId: "a", quantity: 1 }] })
    expect(r.status).toBe(201)
    expect(String(r.headers["x-service-warning"])).toMatch(/idempotencyKey/)
    expect(r.body[0].idempotencyKey).toBeNull()
  })

  it("an empty or omitted body refunds the whole remaining order; nothing left is 422", async () => {
    await create({ orderId: "r-whole" })
    const part = await refund("r-whole", { items: [{ itemId: "a", quantity: 1 }], idempotencyKey: "p" })
    expect(part.status).toBe(201)
    const rest = await refund("r-whole")
    expect(rest.status).toBe(201)
    expect(rest.body[0].items.map((i: any) => [i.itemId, i.quantity])).toEqual([
      ["a", 2],
      ["b", 7],
    ])
    // the exact remainder: the line's refunds sum to its tax
    const aTax = new BigNumber(part.body[0].items[0].tax.amount).plus(rest.body[0].items[0].tax.amount)
    expect(aTax.toNumber()).toBe(1)
    expect(rest.body[0].items[1].tax.amount).toBe(3.55)
    const none = await refund("r-whole", {})
    expect(none.status).toBe(422)
    await create({ orderId: "r-emptyitems" })
    const empty = await refund("r-emptyitems", { items: [] })
    expect(empty.status).toBe(201)
    expect(empty.body[0].items).toHaveLength(2)
  })

  it("over-refunding an item is 422 and records nothing", async () => {
    await create({ orderId: "r-over" })
    const over = await refund("r-over", { items: [{ itemId: "a", quantity: 4 }] })
    expect(over.status).toBe(422)
    expect(over.body.errors[0]).toMatchObject({ location: "body.items[0].quantity", value: 4 })
    expect((await refund("r-over", { items: [{ itemId: "a", quantity: 2 }] })).status).toBe(201)
    // 2 of 3 refunded; 2 more in two entries of one request exceeds the original
    const split = await refund("r-over", {
      items: [
        { itemId: "a", quantity: 1 },
        { itemId: "a", quantity: 1 },
      ],
    })
    expect(split.status).toBe(422)
    const o = await call(s, "GET", `${C()}/orders/r-over?expand=refunds`)
    expect(o.body.refunds).toHaveLength(1)
    expect((await refund("r-over", { items: [{ itemId: "a", quantity: 1 }] })).status).toBe(201)
  })

  it("an item not on the order is 422; refunds of unknown or voided orders are 404; credits cannot be refunded", async () => {
    await create({ orderId: "r-unknown" })
    const r = await refund("r-unknown", { items: [{ itemId: "zzz", quantity: 1 }] })
    expect(r.status).toBe(422)
    expect(r.body.errors[0]).toMatchObject({ location: "body.items[0].itemId", value: "zzz" })
    const idx = await refund("r-unknown", { items: [{ itemId: "a", quantity: 1, cartItemIndex: 1 }] })
    expect(idx.status).toBe(422)
    expect((await refund("no-such-order", {})).status).toBe(404)
    await create({ orderId: "r-credit", kind: "credit" })
    expect((await refund("r-credit", {})).status).toBe(422)
    expect((await refund("r-unknown", { items: [{ itemId: "a", quantity: 0 }] })).status).toBe(422)
    expect((await refund("r-unknown", { items: [{ itemId: "a", quantity: -1 }] })).status).toBe(422)
  })

  it("property: any sequence of partial refunds of a line sums to exactly its tax, each partial rounded half-up", async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }),
        async (qty, taxCents, chunks) => {
          const orderId = `prop-${n++}`
          const tax = taxCents / 100
          const created = await create({
            orderId,
            lineItems: [{ index: 0, itemId: "x", price: 1, quantity: qty, tic: 0, tax: { amount: tax, rate: 0.1 } }],
          })
          expect(created.status).toBe(201)
          let refundedQty = 0
          let refundedTax = new BigNumber(0)
          for (const c of chunks) {
            const r = await refund(orderId, { items: [{ itemId: "x", quantity: c }], idempotencyKey: `k${refundedQty}-${c}` })
            if (refundedQty + c > qty) {
              expect(r.status).toBe(422)
              continue
            }
            expect(r.status).toBe(201)
            refundedQty += c
            const amount = r.body[0].items[0].tax.amount
            if (refundedQty < qty) expect(amount).toBe(halfUp(new BigNumber(tax).times(c).div(qty)))
            refundedTax = refundedTax.plus(amount)
          }
          if (refundedQty < qty) {
            const rest = await refund(orderId, {})
            expect(rest.status).toBe(201)
            refundedTax = refundedTax.plus(rest.body[0].items[0].tax.amount)
          }
          expect(refundedTax.toNumber()).toBe(tax)
        },
      ),
      { numRuns: 60 },
    )
  })
})
