import { readFileSync } from "node:fs"
import { dec } from "../money"
import { jurisdictionFor } from "../engine"
import {
  CONN,
  KEY,
  ORIGIN,
  PHILLY,
  PORTLAND,
  SEATTLE,
  SEATTLE_V3,
  detail,
  lookupBody,
  makeV1Sandbox,
  messages,
  ok,
  request,
  v1,
  v3,
  type Res,
  type V1Sandbox,
} from "./__tests__/helpers"
import { wholeReturnTwice } from "./operations"

/**
 * Every version 1 operation, its lifecycle rules, and the shared store with version 3.
 * Expected taxes come from the engine's rate table (jurisdictionFor), not from the v1 code.
 */
let s: V1Sandbox
beforeAll(async () => {
  s = await makeV1Sandbox()
})
afterAll(() => s.close())
beforeEach(async () => {
  await request(s.port, "POST", "/_sandbox/reset", { "x-api-key": KEY })
})

const setClock = (iso: string) =>
  request(s.port, "PUT", "/_sandbox/clock", { "x-api-key": KEY, "content-type": "application/json" }, JSON.stringify({ now: iso }))

function expectError(r: Res, pattern?: RegExp | string) {
  expect(r.status).toBe(200)
  expect(r.body.ResponseType).toBe(0)
  const text = messages(r).join("\n")
  expect(text.length).toBeGreaterThan(0)
  if (typeof pattern === "string") expect(messages(r)).toContain(pattern)
  else if (pattern) expect(text).toMatch(pattern)
}

/** Unrounded tax of price × qty at the combined rate of an address (engine rate table). */
function expectedTax(dest: { state: string; zip: string }, price: number, qty: number): number {
  const j = jurisdictionFor({ line1: "", city: "", ...dest })!
  return dec(price).times(qty).times(j.combinedRate).div(100).toNumber()
}

async function lookupAndCapture(cartID: string, orderID: string, over: Record<string, unknown> = {}) {
  ok(await v1(s, "Lookup", lookupBody({ cartID, ...over })))
  ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID, orderID }))
}

describe("Ping", () => {
  it("answers ResponseType 3 with no messages", async () => {
    expect((await v1(s, "Ping")).body).toEqual({ ResponseType: 3, Messages: [] })
  })
})

describe("Lookup and LookupForDate", () => {
  it("returns unrounded amounts per cart item, from the unrounded combined rate", async () => {
    const r = ok(await v1(s, "Lookup", lookupBody()))
    expect(r.body.CartID).toBe("cart-1")
    const want0 = expectedTax(SEATTLE_V3, 10.75, 1.5)
    const want1 = expectedTax(SEATTLE_V3, 20, 2)
    expect(r.body.CartItemsResponse).toEqual([
      { CartItemIndex: 0, TaxAmount: want0 },
      { CartItemIndex: 1, TaxAmount: want1 },
    ])
    // more than two decimals: not rounded to the cent
    expect(dec(want0).decimalPlaces()).toBeGreaterThan(2)
  })

  it("stores the cart for version 3: same cartId, amounts rounded to the cent there", async () => {
    const r = ok(await v1(s, "Lookup", lookupBody()))
    const cart = (await v3(s, "GET", "/carts/cart-1")).body
    expect(cart.cartId).toBe("cart-1")
    expect(cart.customerId).toBe("cust-1")
    expect(cart.destination).toEqual(SEATTLE_V3)
    expect(cart.lineItems.map((l: any) => [l.index, l.itemId, l.price, l.quantity])).toEqual([
      [0, "sku-1", 10.75, 1.5],
      [1, "sku-2", 20, 2],
    ])
    cart.lineItems.forEach((l: any, i: number) => {
      expect(l.tax.amount).toBe(dec(r.body.CartItemsResponse[i].TaxAmount).decimalPlaces(2, 4).toNumber())
    })
  })

  it("issues a cartID when none is given, and a second Lookup with a cartID replaces the items", async () => {
    const a = ok(await v1(s, "Lookup", lookupBody({ cartID: undefined })))
    expect(typeof a.body.CartID).toBe("string")
    expect(a.body.CartID.length).toBeGreaterThan(0)
    expect((await v3(s, "GET", `/carts/${a.body.CartID}`)).status).toBe(200)
    ok(await v1(s, "Lookup", lookupBody({ cartID: a.body.CartID, cartItems: [{ Index: 5, ItemID: "only", TIC: 0, Price: 3, Qty: 1 }] })))
    const cart = (await v3(s, "GET", `/carts/${a.body.CartID}`)).body
    expect(cart.lineItems.map((l: any) => l.itemId)).toEqual(["only"])
  })

  it("applies taxability: clothing in Pennsylvania and anything in Oregon are 0", async () => {
    const pa = ok(
      await v1(
        s,
        "Lookup",
        lookupBody({
          destination: PHILLY,
          cartItems: [
            { Index: 0, ItemID: "shirt", TIC: 20010, Price: 30, Qty: 1 },
            { Index: 1, ItemID: "lamp", TIC: 0, Price: 30, Qty: 1 },
          ],
        }),
      ),
    )
    expect(pa.body.CartItemsResponse[0].TaxAmount).toBe(0)
    expect(pa.body.CartItemsResponse[1].TaxAmount).toBe(expectedTax({ state: "PA", zip: "19106" }, 30, 1))
    const or = ok(await v1(s, "Lookup", lookupBody({ cartID: "or", destination: PORTLAND })))
    expect(or.body.CartItemsResponse.map((c: any) => c.TaxAmount)).toEqual([0, 0])
  })

  it("LookupForDate records useDate as the cart's transaction date and needs it", async () => {
    ok(await v1(s, "LookupForDate", lookupBody({ cartID: "dated", useDate: "2026-01-15" })))
    const stored = s.run.sandbox.store.get<{ transactionDate: string }>("carts", CONN, "dated")
    expect(stored?.transactionDate).toBe("2026-01-15T00:00:00.000Z")
    expectError(await v1(s, "LookupForDate", lookupBody({ cartID: "undated" })), /useDate/)
    expectError(await v1(s, "LookupForDate", lookupBody({ cartID: "bad", useDate: "2026-02-31" })), /useDate/)
  })

  it("rejects duplicate Index or ItemID and no items", async () => {
    expectError(
      await v1(
        s,
        "Lookup",
        lookupBody({
          cartItems: [
            { Index: 0, ItemID: "a", Price: 1, Qty: 1 },
            { Index: 0, ItemID: "b", Price: 1, Qty: 1 },
          ],
        }),
      ),
      /Index/,
    )
    expectError(await v1(s, "Lookup", lookupBody({ cartItems: [] })), /cartItems/)
    expectError(await v1(s, "Lookup", lookupBody({ customerID: undefined })), /customerID/)
  })
})

describe("Authorized, Captured, AuthorizedWithCapture", () => {
  it("AuthorizedWithCapture makes an order version 3 reads, completedDate = dateCaptured", async () => {
    await setClock("2026-03-20T12:00:00Z")
    ok(await v1(s, "Lookup", lookupBody()))
    ok(
      await v1(s, "AuthorizedWithCapture", {
        customerID: "cust-1",
        cartID: "cart-1",
        orderID: "ord-1",
        dateAuthorized: "2026-03-19T10:00:00Z",
        dateCaptured: "2026-03-19T11:00:00Z",
      }),
    )
    const order = (await v3(s, "GET", "/orders/ord-1")).body
    expect(order.orderId).toBe("ord-1")
    expect(order.cartId).toBe("cart-1")
    expect(order.completedDate).toBe("2026-03-19T11:00:00.000Z")
    expect(order.lineItems.map((l: any) => l.itemId)).toEqual(["sku-1", "sku-2"])
    const cart = (await v3(s, "GET", "/carts/cart-1")).body
    expect(order.lineItems.map((l: any) => l.tax)).toEqual(cart.lineItems.map((l: any) => l.tax))
  })

  it("AuthorizedWithCapture without dateCaptured completes the order now", async () => {
    await setClock("2026-03-20T12:00:00Z")
    await lookupAndCapture("c", "o")
    expect((await v3(s, "GET", "/orders/o")).body.completedDate).toBe("2026-03-20T12:00:00.000Z")
  })

  it("Authorized leaves the order uncompleted; Captured completes it", async () => {
    await setClock("2026-03-20T12:00:00Z")
    ok(await v1(s, "Lookup", lookupBody()))
    ok(await v1(s, "Authorized", { customerID: "cust-1", cartID: "cart-1", orderID: "ord-2", dateAuthorized: "2026-03-20" }))
    expect((await v3(s, "GET", "/orders/ord-2")).body.completedDate).toBeNull()
    ok(await v1(s, "Captured", { orderID: "ord-2", dateCaptured: "2026-03-20T11:30:00Z" }))
    expect((await v3(s, "GET", "/orders/ord-2")).body.completedDate).toBe("2026-03-20T11:30:00.000Z")
  })

  it("works on a cart made with version 3 POST carts", async () => {
    const cart = {
      cartId: "v3-cart",
      customerId: "cust-9",
      currency: { currencyCode: "USD" },
      origin: { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" },
      destination: SEATTLE_V3,
      lineItems: [{ index: 0, itemId: "a", price: 12, quantity: 1, tic: 0 }],
    }
    expect((await v3(s, "POST", "/carts", { items: [cart] })).status).toBe(200)
    ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-9", cartID: "v3-cart", orderID: "from-v3" }))
    expect((await v3(s, "GET", "/orders/from-v3")).body.customerId).toBe("cust-9")
  })

  it("a version 3 order from carts/orders (completed false) is captured by version 1", async () => {
    ok(await v1(s, "Lookup", lookupBody()))
    expect((await v3(s, "POST", "/carts/orders", { cartId: "cart-1", orderId: "v3-ord", completed: false })).status).toBe(201)
    ok(await v1(s, "Captured", { orderID: "v3-ord" }))
    expect((await v3(s, "GET", "/orders/v3-ord")).body.completedDate).not.toBeNull()
  })

  it("refuses capture before authorization, capturing twice, authorizing twice, an unknown cart, another customer", async () => {
    expectError(await v1(s, "Captured", { orderID: "never" }), /not been authorized/)
    ok(await v1(s, "Lookup", lookupBody()))
    expectError(await v1(s, "Authorized", { customerID: "cust-1", cartID: "nope", orderID: "x" }), /Lookup/)
    expectError(await v1(s, "Authorized", { customerID: "someone-else", cartID: "cart-1", orderID: "x" }), /customerID/)
    ok(await v1(s, "Authorized", { customerID: "cust-1", cartID: "cart-1", orderID: "a1" }))
    expectError(await v1(s, "Authorized", { customerID: "cust-1", cartID: "cart-1", orderID: "a1" }), /already exists/)
    expectError(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "cart-1", orderID: "a1" }), /already exists/)
    ok(await v1(s, "Captured", { orderID: "a1" }))
    expectError(await v1(s, "Captured", { orderID: "a1" }), /already been captured/)
  })

  it("refuses a dateCaptured in the future or before dateAuthorized", async () => {
    await setClock("2026-03-20T12:00:00Z")
    ok(await v1(s, "Lookup", lookupBody()))
    expectError(
      await v1(s, "AuthorizedWithCapture", { cartID: "cart-1", orderID: "f", dateCaptured: "2026-03-21T00:00:00Z" }),
      /dateCaptured/,
    )
    expectError(
      await v1(s, "AuthorizedWithCapture", {
        cartID: "cart-1",
        orderID: "f",
        dateAuthorized: "2026-03-19T00:00:00Z",
        dateCaptured: "2026-03-18T00:00:00Z",
      }),
      /dateCaptured/,
    )
    ok(await v1(s, "Authorized", { cartID: "cart-1", orderID: "g" }))
    expectError(await v1(s, "Captured", { orderID: "g", dateCaptured: "2026-04-01" }), /dateCaptured/)
    expect((await v3(s, "GET", "/orders/f")).status).toBe(404)
  })

  it("a voided order (version 3 DELETE) cannot be captured", async () => {
    ok(await v1(s, "Lookup", lookupBody()))
    ok(await v1(s, "Authorized", { cartID: "cart-1", orderID: "vo" }))
    expect((await v3(s, "DELETE", "/orders/vo")).status).toBe(204)
    expectError(await v1(s, "Captured", { orderID: "vo" }))
  })
})

describe("Returned and ReturnedPro", () => {
  const refunds = async (orderId: string) => (await v3(s, "GET", `/orders/${orderId}?expand=refunds`)).body.refunds as any[]

  it("a whole return refunds every line; version 3 sees it", async () => {
    await lookupAndCapture("c", "o")
    ok(await v1(s, "Returned", { orderID: "o", returnedDate: "2026-01-20T00:00:00Z" }))
    const rs = await refunds("o")
    expect(rs).toHaveLength(1)
    expect(rs[0].returnedDate).toBe("2026-01-20T00:00:00.000Z")
    const order = (await v3(s, "GET", "/orders/o")).body
    expect(rs[0].items.map((i: any) => [i.itemId, i.quantity, i.tax.amount])).toEqual(
      order.lineItems.map((l: any) => [l.itemId, l.quantity, l.tax.amount]),
    )
  })

  it("a partial return refunds the given quantities", async () => {
    await lookupAndCapture("c", "o")
    ok(await v1(s, "Returned", { orderID: "o", cartItems: [{ Index: 1, ItemID: "sku-2", TIC: 0, Price: 20, Qty: 1 }] }))
    const rs = await refunds("o")
    expect(rs[0].items.map((i: any) => [i.itemId, i.quantity])).toEqual([["sku-2", 1]])
  })

  it("refuses a return before capture and of an unknown order", async () => {
    ok(await v1(s, "Lookup", lookupBody()))
    ok(await v1(s, "Authorized", { cartID: "cart-1", orderID: "auth-only" }))
    expectError(await v1(s, "Returned", { orderID: "auth-only" }), /not been captured/)
    expectError(await v1(s, "ReturnedPro", { orderID: "auth-only", cartItems: [{ ItemID: "sku-1", Qty: -1 }] }), /not been captured/)
    expectError(await v1(s, "Returned", { orderID: "missing" }), /not found/)
    expect(await refunds("auth-only")).toEqual([])
  })

  it("allows one return per order: a second whole return gets the service's message", async () => {
    await lookupAndCapture("c", "o")
    ok(await v1(s, "Returned", { orderID: "o" }))
    expectError(await v1(s, "Returned", { orderID: "o" }), wholeReturnTwice("o"))
    expect(await refunds("o")).toHaveLength(1)
  })

  it("a whole return after a partial one is refused with the same message; a second partial return too", async () => {
    await lookupAndCapture("c", "o")
    ok(await v1(s, "Returned", { orderID: "o", cartItems: [{ ItemID: "sku-2", Qty: 1 }] }))
    expectError(await v1(s, "Returned", { orderID: "o" }), wholeReturnTwice("o"))
    expectError(await v1(s, "Returned", { orderID: "o", cartItems: [{ ItemID: "sku-2", Qty: 1 }] }), /one return per order/)
    expect(await refunds("o")).toHaveLength(1)
  })

  it("version 3 still allows several refunds on an order returned through version 1", async () => {
    await lookupAndCapture("c", "o")
    ok(await v1(s, "Returned", { orderID: "o", cartItems: [{ ItemID: "sku-2", Qty: 1 }] }))
    expect((await v3(s, "POST", "/orders/refunds/o", { items: [{ itemId: "sku-2", quantity: 1 }], idempotencyKey: "k1" })).status).toBe(201)
    expect((await v3(s, "POST", "/orders/refunds/o", { items: [{ itemId: "sku-1", quantity: 0.5 }], idempotencyKey: "k2" })).status).toBe(
      201,
    )
    expect(await refunds("o")).toHaveLength(3)
  })

  it("a version 3 refund counts as the one version 1 return", async () => {
    await lookupAndCapture("c", "o")
    expect((await v3(s, "POST", "/orders/refunds/o", { items: [{ itemId: "sku-1", quantity: 1 }], idempotencyKey: "k" })).status).toBe(201)
    expectError(await v1(s, "Returned", { orderID: "o" }), wholeReturnTwice("o"))
  })

  it("refuses returning more than was sold (nothing recorded)", async () => {
    await lookupAndCapture("c", "o")
    expectError(await v1(s, "Returned", { orderID: "o", cartItems: [{ ItemID: "sku-2", Qty: 3 }] }), /cartItems\[0\]\.Qty/)
    expectError(await v1(s, "Returned", { orderID: "o", cartItems: [{ ItemID: "nope", Qty: 1 }] }), /ItemID/)
    expect(await refunds("o")).toEqual([])
  })

  it("ReturnedPro takes negative quantities and the original price", async () => {
    await lookupAndCapture("c", "o")
    ok(await v1(s, "ReturnedPro", { orderID: "o", cartItems: [{ Index: 1, ItemID: "sku-2", TIC: 0, Price: 20, Qty: -2 }] }))
    const rs = await refunds("o")
    expect(rs[0].items.map((i: any) => [i.itemId, i.quantity, i.price])).toEqual([["sku-2", 2, 20]])
    const order = (await v3(s, "GET", "/orders/o")).body
    expect(rs[0].items[0].tax.amount).toBe(order.lineItems[1].tax.amount)
  })

  it("ReturnedPro refuses positive quantities and another price; Returned refuses negative quantities", async () => {
    await lookupAndCapture("c", "o")
    expectError(await v1(s, "ReturnedPro", { orderID: "o", cartItems: [{ ItemID: "sku-2", Qty: 1 }] }), /negative/)
    expectError(await v1(s, "ReturnedPro", { orderID: "o", cartItems: [{ ItemID: "sku-2", Price: 19, Qty: -1 }] }), /original price/)
    expectError(await v1(s, "Returned", { orderID: "o", cartItems: [{ ItemID: "sku-2", Qty: -1 }] }), /ReturnedPro/)
    expect(await refunds("o")).toEqual([])
  })
})

describe("exemption certificates", () => {
  it("AddExemptCertificate → GetExemptCertificates returns the Detail; version 3 reads the certificate", async () => {
    const add = ok(await v1(s, "AddExemptCertificate", { customerID: "cust-1", exemptCert: { Detail: detail() } }))
    const id = add.body.CertificateID
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const list = ok(await v1(s, "GetExemptCertificates", { customerID: "cust-1" })).body.ExemptCertificates
    expect(list).toHaveLength(1)
    expect(list[0].CertificateID).toBe(id)
    const d = list[0].Detail
    expect(d.ExemptStates).toEqual([{ StateAbbr: "WA", ReasonForExemption: "Resale", IdentificationNumber: "WA-123" }])
    expect([d.PurchaserFirstName, d.PurchaserLastName, d.PurchaserCity, d.PurchaserState, d.PurchaserZip]).toEqual([
      "Ada",
      "Lovelace",
      "Seattle",
      "WA",
      "98109",
    ])
    expect(d.PurchaserExemptionReason).toBe("Resale")
    expect(d.PurchaserBusinessType).toBe("RetailTrade")
    const c = (await v3(s, "GET", `/exemption-certificates/${id}`)).body
    expect(c.customerId).toBe("cust-1")
    expect(c.customerName).toBe("Ada Lovelace")
    expect(ok(await v1(s, "GetExemptCertificates", { customerID: "someone-else" })).body.ExemptCertificates).toEqual([])
  })

  it("accepts version 1 spellings (underscored business type, legacy reason names, numeric ZIP)", async () => {
    const r = ok(
      await v1(s, "AddExemptCertificate", {
        customerID: "gov",
        exemptCert: {
          Detail: detail({
            PurchaserBusinessType: "Agricultural_Forestry_Fishing_Hunting",
            PurchaserExemptionReason: "FederalGovernmentDepartment",
            PurchaserZip: 98109,
          }),
        },
      }),
    )
    const c = (await v3(s, "GET", `/exemption-certificates/${r.body.CertificateID}`)).body
    expect(c.customerBusinessType).toBe("AgriculturalForestryFishingHunting")
    expect(c.reason).toBe("FederalGovernment")
    expect(c.address.zip).toBe("98109")
  })

  it("rejects a Detail without states, reason or a valid purchaser address, naming the field", async () => {
    expectError(
      await v1(s, "AddExemptCertificate", { customerID: "c", exemptCert: { Detail: detail({ ExemptStates: [] }) } }),
      /ExemptStates/,
    )
    expectError(
      await v1(s, "AddExemptCertificate", {
        customerID: "c",
        exemptCert: { Detail: detail({ PurchaserExemptionReason: undefined, ExemptStates: [{ StateAbbr: "WA" }] }) },
      }),
      /PurchaserExemptionReason/,
    )
    expectError(
      await v1(s, "AddExemptCertificate", { customerID: "c", exemptCert: { Detail: detail({ PurchaserZip: "abc" }) } }),
      /PurchaserZip/,
    )
    expectError(
      await v1(s, "AddExemptCertificate", {
        customerID: "c",
        exemptCert: { Detail: detail({ PurchaserExemptionReason: "Other", PurchaserExemptionReasonValue: undefined }) },
      }),
      /PurchaserExemptionReasonValue/,
    )
    expectError(await v1(s, "AddExemptCertificate", { customerID: "c" }), /exemptCert/)
  })

  it("Lookup with exemptCert.CertificateID: tax 0 in a covered state, taxed elsewhere", async () => {
    const id = ok(await v1(s, "AddExemptCertificate", { customerID: "cust-1", exemptCert: { Detail: detail() } })).body.CertificateID
    const wa = ok(await v1(s, "Lookup", lookupBody({ exemptCert: { CertificateID: id } })))
    expect(wa.body.CartItemsResponse.map((c: any) => c.TaxAmount)).toEqual([0, 0])
    expect((await v3(s, "GET", "/carts/cart-1")).body.exemption.exemptionId).toBe(id)
    const pa = ok(await v1(s, "Lookup", lookupBody({ cartID: "pa", destination: PHILLY, exemptCert: { CertificateID: id } })))
    expect(pa.body.CartItemsResponse[1].TaxAmount).toBe(expectedTax({ state: "PA", zip: "19106" }, 20, 2))
    // a bare certificate id string works too
    const bare = ok(await v1(s, "Lookup", lookupBody({ cartID: "bare", exemptCert: id })))
    expect(bare.body.CartItemsResponse.map((c: any) => c.TaxAmount)).toEqual([0, 0])
  })

  it("Lookup refuses another customer's, a deleted or an unknown certificate", async () => {
    const id = ok(await v1(s, "AddExemptCertificate", { customerID: "cust-1", exemptCert: { Detail: detail() } })).body.CertificateID
    expectError(await v1(s, "Lookup", lookupBody({ customerID: "cust-2", exemptCert: { CertificateID: id } })), /exemptCert\.CertificateID/)
    expectError(
      await v1(s, "Lookup", lookupBody({ exemptCert: { CertificateID: "00000000-0000-4000-8000-0000000000aa" } })),
      /exemptCert\.CertificateID/,
    )
    ok(await v1(s, "DeleteExemptCertificate", { certificateID: id }))
    expectError(await v1(s, "Lookup", lookupBody({ exemptCert: { CertificateID: id } })), /exemptCert\.CertificateID/)
  })

  it("Lookup with an inline Detail stores the certificate once and applies it", async () => {
    const a = ok(await v1(s, "Lookup", lookupBody({ exemptCert: { Detail: detail() } })))
    expect(a.body.CartItemsResponse.map((c: any) => c.TaxAmount)).toEqual([0, 0])
    ok(await v1(s, "Lookup", lookupBody({ exemptCert: { Detail: detail() } })))
    expect(ok(await v1(s, "GetExemptCertificates", { customerID: "cust-1" })).body.ExemptCertificates).toHaveLength(1)
  })

  it("DeleteExemptCertificate removes it from the list; again → warning; unknown → error", async () => {
    const id = ok(await v1(s, "AddExemptCertificate", { customerID: "cust-1", exemptCert: { Detail: detail() } })).body.CertificateID
    expect((await v1(s, "DeleteExemptCertificate", { certificateID: id })).body).toEqual({ ResponseType: 3, Messages: [] })
    expect(ok(await v1(s, "GetExemptCertificates", { customerID: "cust-1" })).body.ExemptCertificates).toEqual([])
    expect((await v3(s, "GET", `/exemption-certificates/${id}`)).body.disabledAt).not.toBeNull()
    const again = await v1(s, "DeleteExemptCertificate", { certificateID: id })
    expect(again.body.ResponseType).toBe(1)
    expect(again.body.Messages[0].ResponseType).toBe(1)
    expectError(await v1(s, "DeleteExemptCertificate", { certificateID: "00000000-0000-4000-8000-0000000000ab" }), /not found/)
    expectError(await v1(s, "DeleteExemptCertificate", {}), /certificateID/)
  })
})

describe("TICs", () => {
  const catalog = JSON.parse(readFileSync("/work/shared/data/tic-catalog.json", "utf8")) as { TICID: number; Description: string }[]

  it("GetTICs lists the whole catalogue", async () => {
    const r = ok(await v1(s, "GetTICs"))
    expect(r.body.TICs).toHaveLength(catalog.length)
    expect(new Set(r.body.TICs.map((t: any) => t.TICID))).toEqual(new Set(catalog.map((t) => t.TICID)))
    const byId = new Map(catalog.map((t) => [t.TICID, t.Description.trim()]))
    for (const t of r.body.TICs) expect(t.Description).toBe(byId.get(t.TICID))
  })

  it("GetTICGroups and GetTICsByGroup partition the catalogue by the thousand", async () => {
    const groups = ok(await v1(s, "GetTICGroups")).body.TICGroups as { GroupID: number; Description: string }[]
    expect(groups.length).toBeGreaterThan(5)
    const seen: number[] = []
    for (const g of groups) {
      expect(typeof g.Description).toBe("string")
      const tics = ok(await v1(s, "GetTICsByGroup", { ticGroup: String(g.GroupID) })).body.TICs as { TICID: number }[]
      expect(tics.length).toBeGreaterThan(0)
      for (const t of tics) {
        expect(t.TICID < 10000 ? 0 : Math.floor(t.TICID / 1000) * 1000).toBe(g.GroupID)
        seen.push(t.TICID)
      }
    }
    expect(seen.sort((a, b) => a - b)).toEqual(catalog.map((t) => t.TICID).sort((a, b) => a - b))
  })

  it("GetTICsByGroup: clothing group holds 20010; unknown or missing group → error", async () => {
    const tics = ok(await v1(s, "GetTICsByGroup", { ticGroup: 20000 })).body.TICs
    expect(tics.map((t: any) => t.TICID)).toContain(20010)
    expectError(await v1(s, "GetTICsByGroup", { ticGroup: 12345 }), /ticGroup/)
    expectError(await v1(s, "GetTICsByGroup", {}), /ticGroup/)
  })
})

describe("VerifyAddress", () => {
  it("returns the postal city, upper-case state, the published Zip4 over the one sent, ErrNumber 0 and no ResponseType", async () => {
    const r = await v1(s, "VerifyAddress", { Address1: "400 Broad St", City: "seatle", State: "wa", Zip5: "98109", Zip4: 4312 })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      Address1: "400 Broad St",
      Address2: null,
      City: "Seattle",
      State: "WA",
      Zip5: "98109",
      Zip4: "4607",
      ErrNumber: "0",
      ErrDescription: null,
    })
    expect(r.body).not.toHaveProperty("ResponseType")
  })

  it("restores the leading zero of a numeric Zip5", async () => {
    const r = await v1(s, "VerifyAddress", { Address1: "1 Beacon St", City: "Boston", State: "MA", Zip5: 2108 })
    expect(r.body.ErrNumber).toBe("0")
    expect(r.body.Zip5).toBe("02108")
  })

  it("reports an unknown ZIP or a missing Zip5 through ErrNumber/ErrDescription", async () => {
    const a = await v1(s, "VerifyAddress", { ...SEATTLE, Zip5: "00000" })
    expect(a.body.ErrNumber).not.toBe("0")
    expect(a.body.ErrDescription).toMatch(/00000/)
    const c = await v1(s, "VerifyAddress", { Address1: "x" })
    expect(c.body).toEqual({
      Address1: null,
      Address2: null,
      City: null,
      State: null,
      Zip5: null,
      Zip4: null,
      ErrNumber: "2",
      ErrDescription: expect.stringMatching(/Zip5/),
    })
  })
})

describe("platform partner operations", () => {
  const location = { Name: "HQ", Address1: "1 Main St", City: "Seattle", State: "WA", Zip5: "98101", PrimaryBusinessAddress: true }

  it("CreatePlatformAccount issues working credentials; GetLocations lists the account's locations", async () => {
    const r = ok(await v1(s, "CreatePlatformAccount", { Name: "Shop", Locations: [location] }))
    expect(typeof r.body.NewAccountApiKey).toBe("string")
    expect(r.body.NewAccountApiKey).not.toBe(KEY)
    const cred = { apiLoginID: r.body.NewAccountApiLoginID, apiKey: r.body.NewAccountApiKey }
    expect((await v1(s, "Ping", {}, { cred })).body.ResponseType).toBe(3)
    const locs = ok(await v1(s, "GetLocations", {}, { cred })).body
    expect(locs.Messages).toEqual([])
    expect(locs.Locations).toHaveLength(1)
    expect(locs.Locations[0]).toMatchObject({
      Name: "HQ",
      City: "Seattle",
      State: "WA",
      Zip5: 98101,
      PrimaryBusinessAddress: true,
      LocationID: 1,
    })
    expect(ok(await v1(s, "GetLocations")).body.Locations).toEqual([])
  })

  it("AddTransactions records orders (tax = Tax, or Price × Qty × Rate to the cent) that version 3 reads", async () => {
    await setClock("2026-05-10T12:00:00Z")
    const r = ok(
      await v1(s, "AddTransactions", {
        transactions: [
          {
            orderID: "up-1",
            customerID: "c1",
            dateCaptured: "2026-05-01T10:00:00Z",
            dateTransaction: "2026-04-30T09:00:00Z",
            origin: ORIGIN,
            destination: SEATTLE,
            cartItems: [
              { Index: 0, ItemID: "a", Price: 10.75, Qty: 3, Rate: 0.1025, TIC: 0 },
              { Index: 1, ItemID: "b", Price: 5, Qty: 1, Rate: 0.1, Tax: 0.49 },
            ],
          },
          { customerID: "c2", origin: ORIGIN, destination: SEATTLE, cartItems: [{ Index: 0, ItemID: "z", Price: 1, Qty: 1, Rate: "0" }] },
        ],
      }),
    )
    expect(r.body.Transactions).toHaveLength(2)
    expect(r.body.Transactions[0]).toEqual({ CartID: expect.any(String), OrderID: "up-1" })
    const issued = r.body.Transactions[1]
    expect(issued.OrderID).toBe(issued.CartID)
    const o = (await v3(s, "GET", "/orders/up-1")).body
    expect(o.completedDate).toBe("2026-05-01T10:00:00.000Z")
    expect(o.transactionDate).toBe("2026-04-30T09:00:00.000Z")
    expect(o.lineItems[0].tax).toEqual({ amount: 3.31, rate: 0.1025 }) // 32.25 × 0.1025 = 3.305625
    expect(o.lineItems[1].tax).toEqual({ amount: 0.49, rate: 0.1 })
    expect((await v3(s, "GET", `/orders/${issued.OrderID}`)).body.completedDate).toBe("2026-05-10T12:00:00.000Z")
  })

  it("AddTransactions defaults the origin to the account's primary location", async () => {
    const acc = ok(await v1(s, "CreatePlatformAccount", { Locations: [location] })).body
    const cred = { apiLoginID: acc.NewAccountApiLoginID, apiKey: acc.NewAccountApiKey }
    ok(
      await v1(
        s,
        "AddTransactions",
        { transactions: [{ orderID: "p1", destination: SEATTLE, cartItems: [{ Index: 0, ItemID: "a", Price: 1, Qty: 1, Rate: 0.1 }] }] },
        { cred },
      ),
    )
    expectError(
      await v1(s, "AddTransactions", {
        transactions: [{ orderID: "p2", destination: SEATTLE, cartItems: [{ Index: 0, ItemID: "a", Price: 1, Qty: 1, Rate: 0.1 }] }],
      }),
      /origin/,
    )
  })

  it("AddTransactions is all or nothing on validation: a bad transaction records none", async () => {
    const good = {
      orderID: "g1",
      customerID: "c",
      origin: ORIGIN,
      destination: SEATTLE,
      cartItems: [{ Index: 0, ItemID: "a", Price: 1, Qty: 1, Rate: 0.1 }],
    }
    const before = s.run.sandbox.store.snapshot()
    expectError(await v1(s, "AddTransactions", { transactions: [good, { ...good, orderID: "g1" }] }), /appears twice/)
    expectError(
      await v1(s, "AddTransactions", { transactions: [good, { ...good, orderID: "g2", cartItems: [] }] }),
      /transactions\[1\]\.cartItems/,
    )
    expectError(
      await v1(s, "AddTransactions", { transactions: [good, { ...good, orderID: "g3", destination: undefined }] }),
      /transactions\[1\]\.destination/,
    )
    expectError(
      await v1(s, "AddTransactions", {
        transactions: [good, { ...good, orderID: "g4", cartItems: [{ Index: 0, ItemID: "a", Price: 1, Qty: 1, Rate: 8.25 }] }],
      }),
      /Rate/,
    )
    expectError(
      await v1(s, "AddTransactions", { transactions: Array.from({ length: 26 }, (_, i) => ({ ...good, orderID: `m${i}` })) }),
      /25/,
    )
    expectError(await v1(s, "AddTransactions", { transactions: [] }), /transactions/)
    expect(s.run.sandbox.store.snapshot()).toBe(before)
    ok(await v1(s, "AddTransactions", { transactions: [good] }))
    expectError(await v1(s, "AddTransactions", { transactions: [good] }), /already exists/)
  })
})
