import fc from "fast-check"
import type { CreateOrderRequest, OrderRecord } from "../../../packages/contract/src/index"
import { diffCartToOrder, diffCreateOrder, diffLines } from "./compare"

const addr = { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" }

function request(
  lines: { itemId: string; price: number; quantity: number }[],
  extra: Partial<CreateOrderRequest> = {},
): CreateOrderRequest {
  return {
    orderId: "ord_1",
    customerId: "cus_1",
    transactionDate: "2026-01-05T10:00:00Z",
    currency: { currencyCode: "USD" },
    origin: addr,
    destination: addr,
    lineItems: lines.map((l, index) => ({ index, ...l, tic: 0, tax: { amount: 0, rate: 0 } })),
    ...extra,
  }
}

function record(req: CreateOrderRequest, over: Partial<OrderRecord> = {}): OrderRecord {
  return {
    connectionId: "00000000-0000-4000-8000-000000000000",
    orderId: req.orderId,
    cartId: req.cartId ?? null,
    customerId: req.customerId,
    transactionDate: req.transactionDate,
    completedDate: null,
    origin: addr,
    destination: addr,
    currency: req.currency,
    lineItems: req.lineItems.map((l) => ({
      index: l.index,
      itemId: l.itemId,
      price: l.price,
      quantity: l.quantity,
      tic: l.tic ?? null,
      tax: l.tax,
    })),
    channel: null,
    deliveredBySeller: false,
    excludeFromFiling: false,
    exemption: { exemptionId: null, isExempt: null },
    kind: req.kind ?? "order",
    ...over,
  }
}

const line = fc.record({
  itemId: fc.string({ minLength: 1, maxLength: 10 }),
  price: fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
  quantity: fc.integer({ min: 1, max: 50 }),
})

describe("diffCreateOrder", () => {
  it("finds nothing when the service holds what was sent", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const req = request(lines)
        expect(diffCreateOrder(req, record(req))).toEqual([])
      }),
    )
  })

  it("treats 19.9 and 19.90 (and float noise-free decimals) as equal", () => {
    const req = request([{ itemId: "a", price: 19.9, quantity: 2 }])
    const rec = record(req)
    rec.lineItems[0]!.price = 19.9
    expect(diffCreateOrder(req, rec)).toEqual([])
  })

  it("locates any changed price, quantity or itemId", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.constantFrom("price", "quantity", "itemId" as const),
        (lines, pick, field) => {
          const req = request(lines)
          const rec = record(req)
          const i = pick % lines.length
          const l = rec.lineItems[i]!
          if (field === "price") l.price = l.price + 0.01
          else if (field === "quantity") l.quantity = l.quantity + 1
          else l.itemId = `${l.itemId}-x`
          const diff = diffCreateOrder(req, rec)
          expect(diff.map((d) => d.location)).toEqual([`body.lineItems[${i}].${field}`])
        },
      ),
    )
  })

  it("reports a different line count, cartId, customerId or kind", () => {
    const req = request([{ itemId: "a", price: 1, quantity: 1 }], { cartId: "cart_1" })
    expect(
      diffCreateOrder(
        req,
        record(
          request(
            [
              { itemId: "a", price: 1, quantity: 1 },
              { itemId: "b", price: 1, quantity: 1 },
            ],
            { cartId: "cart_1" },
          ),
        ),
      ).map((d) => d.location),
    ).toEqual(["body.lineItems"])
    expect(diffCreateOrder(req, record(req, { cartId: "cart_2" })).map((d) => d.location)).toEqual(["body.cartId"])
    expect(diffCreateOrder(req, record(req, { customerId: "cus_2" })).map((d) => d.location)).toEqual(["body.customerId"])
    expect(diffCreateOrder(req, record(req, { kind: "credit" })).map((d) => d.location)).toContain("body.kind")
  })

  it("compares a credit's amounts by magnitude (the service may store them negative)", () => {
    const req = request([{ itemId: "a", price: 12.5, quantity: 2 }], { kind: "credit", completedDate: "2026-01-05T10:00:00Z" })
    const rec = record(req)
    rec.lineItems[0]!.price = -12.5
    expect(diffCreateOrder(req, rec)).toEqual([])
  })
})

describe("diffCartToOrder", () => {
  const req = request([{ itemId: "a", price: 3, quantity: 1 }], { cartId: "cart_1" })
  const cart = {
    cartId: "cart_1",
    customerId: "cus_1",
    currency: { currencyCode: "USD" },
    deliveredBySeller: false,
    origin: addr,
    destination: addr,
    exemption: { exemptionId: null, isExempt: null },
    lineItems: record(req).lineItems,
  }

  it("accepts the order made from the same cart", () => {
    expect(diffCartToOrder({ cartId: "cart_1", orderId: "ord_1" }, record(req), cart)).toEqual([])
    expect(diffCartToOrder({ cartId: "cart_1", orderId: "ord_1" }, record(req), undefined)).toEqual([])
  })

  it("rejects an order from another cart, or a cart changed since", () => {
    expect(diffCartToOrder({ cartId: "cart_9", orderId: "ord_1" }, record(req), undefined).map((d) => d.location)).toEqual(["body.cartId"])
    const changed = { ...cart, lineItems: [{ ...cart.lineItems[0]!, quantity: 5 }] }
    expect(diffCartToOrder({ cartId: "cart_1", orderId: "ord_1" }, record(req), changed).map((d) => d.location)).toEqual([
      "cart.lineItems[0].quantity",
    ])
  })
})

describe("diffLines", () => {
  it("is empty exactly when the lines are equal", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), fc.array(line, { maxLength: 5 }), (a, b) => {
        const same =
          a.length === b.length && a.every((x, i) => x.itemId === b[i]!.itemId && x.price === b[i]!.price && x.quantity === b[i]!.quantity)
        expect(diffLines(a, b, "l").length === 0).toBe(same)
      }),
    )
  })
})
