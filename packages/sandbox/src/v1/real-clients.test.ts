import {
  formBody,
  KEY,
  ORIGIN,
  SEATTLE,
  lookupBody,
  makeV1Sandbox,
  messages,
  ok,
  request,
  v1,
  v3,
  CRED,
  CONN,
  type Res,
  type V1Sandbox,
} from "./__tests__/helpers"

import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fromNumber, mul, parseDecimal, roundToNumber } from "../decimal"
import { startSandbox } from "../index"
import { NO_ADDRESS } from "./index"
import { zip4For } from "../address/zip4"

/**
 * Version 1 as real clients use it (issue 15): the provider's name as the path segment, repeated
 * ItemIDs, empty-bracket form arrays, the service's message and VerifyAddress shapes, /_sandbox
 * counts and faults, one connection registry for v1 and v3.
 */
let s: V1Sandbox
beforeAll(async () => {
  s = await makeV1Sandbox()
})
afterAll(() => s.close())
beforeEach(async () => {
  await request(s.port, "POST", "/_sandbox/reset", { "x-api-key": KEY })
})

const json = { "content-type": "application/json" }
const post = (path: string, body: Record<string, unknown>) => request(s.port, "POST", path, json, JSON.stringify({ ...CRED, ...body }))
const control = (method: string, path: string, body?: unknown) =>
  request(
    s.port,
    method,
    `/_sandbox${path}`,
    { "x-api-key": KEY, ...(body === undefined ? {} : json) },
    body === undefined ? undefined : JSON.stringify(body),
  )
const counts = async (): Promise<Record<string, number>> => (await control("GET", "/counts")).body.counts
const refunds = async (orderId: string, key = KEY, conn = CONN) =>
  (await v3(s, "GET", `/orders/${orderId}?expand=refunds`, undefined, conn, key)).body.refunds

function expectError(r: Res, pattern: RegExp | string) {
  expect(r.status).toBe(200)
  expect(r.body.ResponseType).toBe(0)
  if (typeof pattern === "string") expect(messages(r)).toContain(pattern)
  else expect(messages(r).join("\n")).toMatch(pattern)
}

describe("paths: /1.0/{any single segment}/{Operation}", () => {
  it("answers under the provider's name (any name, any case) as under Service", async () => {
    for (const seg of ["AcmeTax", "acmetax", "ACME-TAX", "Service", "x"]) {
      const r = await post(`/1.0/${seg}/Ping`, {})
      expect({ seg, status: r.status, body: r.body }).toEqual({ seg, status: 200, body: { ResponseType: 3, Messages: [] } })
    }
    const r = ok(await post("/1.0/AcmeTax/lookup", lookupBody({ cartID: "named" })))
    expect(r.body.CartID).toBe("named")
    ok(await post("/1.0/acmetax/AuthorizedWithCapture/", { customerID: "cust-1", cartID: "named", orderID: "named-order" }))
    expect((await v3(s, "GET", "/orders/named-order")).status).toBe(200)
  })
})

describe("repeated ItemIDs, told apart by Index", () => {
  const items = [
    { Index: 0, ItemID: "sku-1", TIC: 0, Price: 10, Qty: 1 },
    { Index: 1, ItemID: "sku-1", TIC: 0, Price: 30, Qty: 2 },
    { Index: 2, ItemID: "sku-2", TIC: 0, Price: 5, Qty: 1 },
  ]

  it("Lookup prices each line; the order keeps the three lines; a partial return picks the line by Index", async () => {
    const r = ok(await v1(s, "Lookup", lookupBody({ cartID: "rep", cartItems: items })))
    expect(r.body.CartItemsResponse.map((c: { CartItemIndex: number }) => c.CartItemIndex)).toEqual([0, 1, 2])
    const [a, b] = r.body.CartItemsResponse.map((c: { TaxAmount: number }) => c.TaxAmount)
    expect(b).toBeCloseTo(a * 6, 10) // 30 × 2 vs 10 × 1 at one rate
    ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "rep", orderID: "rep-o" }))
    const order = (await v3(s, "GET", "/orders/rep-o")).body
    expect(order.lineItems.map((l: { index: number; itemId: string }) => [l.index, l.itemId])).toEqual([
      [0, "sku-1"],
      [1, "sku-1"],
      [2, "sku-2"],
    ])
    ok(await v1(s, "Returned", { orderID: "rep-o", cartItems: [{ Index: 1, ItemID: "sku-1", Qty: 1 }] }))
    const [refund] = await refunds("rep-o")
    expect(refund.items.map((i: { index: number; quantity: number }) => [i.index, i.quantity])).toEqual([[1, 1]])
    expect(refund.items[0].tax.amount).toBe(roundToNumber(mul(fromNumber(order.lineItems[1].tax.amount), parseDecimal("0.5")), 2)) // half of line 1's tax
  })

  it("a return naming a repeated ItemID without Index is refused, naming Index; a repeated Index is refused", async () => {
    ok(await v1(s, "Lookup", lookupBody({ cartID: "rep2", cartItems: items })))
    ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "rep2", orderID: "rep2-o" }))
    expectError(
      await v1(s, "Returned", { orderID: "rep2-o", cartItems: [{ ItemID: "sku-1", Qty: 1 }] }),
      /cartItems\[0\]\.Index: item sku-1 is on several lines/,
    )
    expect(await refunds("rep2-o")).toEqual([])
    expectError(
      await v1(s, "Lookup", lookupBody({ cartItems: [items[0], { ...items[1], Index: 0 }] })),
      /cartItems\[1\]\.Index: Index appears twice/,
    )
  })

  it("AddTransactions accepts repeated ItemIDs; version 3 still refuses them in its own carts", async () => {
    const cartItems = [
      { Index: 0, ItemID: "a", Price: 1, Qty: 1, Rate: 0.1 },
      { Index: 1, ItemID: "a", Price: 2, Qty: 1, Rate: 0.1 },
    ]
    ok(
      await v1(s, "AddTransactions", {
        transactions: [{ orderID: "t-rep", customerID: "c", origin: ORIGIN, destination: SEATTLE, cartItems }],
      }),
    )
    expect((await v3(s, "GET", "/orders/t-rep")).body.lineItems).toHaveLength(2)
    const v3cart = {
      customerId: "c",
      currency: { currencyCode: "USD" },
      origin: { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" },
      destination: { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" },
      lineItems: [
        { index: 0, itemId: "a", price: 1, quantity: 1 },
        { index: 1, itemId: "a", price: 1, quantity: 1 },
      ],
    }
    const r = await v3(s, "POST", "/carts", { items: [v3cart] })
    expect(r.status).toBe(422)
    expect(r.body.errors[0].location).toBe("body.items[0].lineItems[1].itemId")
  })
})

describe("form bodies with empty-bracket arrays", () => {
  const form = (pairs: [string, string][]) =>
    new URLSearchParams([["apiLoginID", CRED.apiLoginID], ["apiKey", CRED.apiKey], ...pairs]).toString()
  const formHeaders = { "content-type": "application/x-www-form-urlencoded" }

  it("Returned with cartItems[][…] pairs is a whole-order return, as the real service answered", async () => {
    ok(await v1(s, "Lookup", lookupBody({ cartID: "f" })))
    ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "f", orderID: "f-o" }))
    const body = form([
      ["orderID", "f-o"],
      ["cartItems[][Index]", "0"],
      ["cartItems[][ItemID]", "sku-1"],
      ["cartItems[][Qty]", "1"],
    ])
    const r = await request(s.port, "POST", "/1.0/Service/Returned", formHeaders, body)
    expect(r.body).toEqual({ ResponseType: 3, Messages: [] })
    const [refund] = await refunds("f-o")
    // every line, every unit: sku-1 × 1.5 and sku-2 × 2 (lookupBody), not sku-1 × 1
    expect(refund.items.map((i: { itemId: string; quantity: number }) => [i.itemId, i.quantity])).toEqual([
      ["sku-1", 1.5],
      ["sku-2", 2],
    ])
  })

  it("indexed brackets still list items, and a Lookup with only empty-bracket items has none", async () => {
    ok(await v1(s, "Lookup", lookupBody({ cartID: "f2" })))
    ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "f2", orderID: "f2-o" }))
    ok(
      await request(
        s.port,
        "POST",
        "/1.0/Service/Returned",
        formHeaders,
        formBody({ ...CRED, orderID: "f2-o", cartItems: [{ Index: 1, ItemID: "sku-2", Qty: 1 }] }),
      ),
    )
    expect((await refunds("f2-o"))[0].items.map((i: { itemId: string; quantity: number }) => [i.itemId, i.quantity])).toEqual([
      ["sku-2", 1],
    ])
    const lookup = form([
      ["customerID", "c"],
      ["origin[Address1]", "1 Main St"],
      ["origin[City]", "Seattle"],
      ["origin[State]", "WA"],
      ["origin[Zip5]", "98101"],
      ["destination[Address1]", "1 Main St"],
      ["destination[State]", "WA"],
      ["destination[Zip5]", "98101"],
      ["cartItems[][Index]", "0"],
      ["cartItems[][ItemID]", "a"],
      ["cartItems[][Price]", "1"],
      ["cartItems[][Qty]", "1"],
    ])
    expectError(await request(s.port, "POST", "/1.0/Service/Lookup", formHeaders, lookup), /cartItems: /)
  })
})

describe("the service's messages", () => {
  it("a whole-order return after a partial return ends with (OrderID : <orderId>)", async () => {
    ok(await v1(s, "Lookup", lookupBody({ cartID: "m" })))
    ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "m", orderID: "ORD-77" }))
    ok(await v1(s, "Returned", { orderID: "ORD-77", cartItems: [{ ItemID: "sku-2", Qty: 1 }] }))
    const r = await v1(s, "Returned", { orderID: "ORD-77" })
    expect(r.body).toEqual({
      ResponseType: 0,
      Messages: [
        { ResponseType: 0, Message: "Cannot return the entire order because some items have already been returned (OrderID : ORD-77)" },
      ],
    })
  })
})

describe("VerifyAddress answers", () => {
  const NULLS = { Address1: null, Address2: null, City: null, State: null, Zip5: null, Zip4: null }

  it("all fields empty → ErrNumber 98 'Unable to process address' with the six address fields null", async () => {
    const want = { ...NULLS, ErrNumber: "98", ErrDescription: "Unable to process address" }
    expect((await v1(s, "VerifyAddress", {})).body).toEqual(want)
    expect((await v1(s, "VerifyAddress", { Address1: "", Address2: "", City: "", State: "", Zip5: "", Zip4: "" })).body).toEqual(want)
    expect((await v1(s, "VerifyAddress", { Address1: null, City: null, State: null, Zip5: null })).body).toEqual(want)
  })

  it("a ZIP in another state than the one sent: the ZIP wins, ErrNumber 0", async () => {
    const r = await v1(s, "VerifyAddress", { Address1: "350 5th Ave", City: "Seattle", State: "WA", Zip5: "10118" })
    expect(r.body).toEqual({
      Address1: "350 5th Ave",
      Address2: null,
      City: "New York",
      State: "NY",
      Zip5: "10118",
      Zip4: zip4For("10118", "350 5th Ave"), // the sandbox's +4 of the street address in the ZIP's state
      ErrNumber: "0",
      ErrDescription: null,
    })
  })

  it("errors carry the six fields null beside ErrNumber and ErrDescription (unknown ZIP, credentials)", async () => {
    const unknown = await v1(s, "VerifyAddress", { ...SEATTLE, Zip5: "00000" })
    expect(unknown.body).toEqual({ ...NULLS, ErrNumber: "80040B1A", ErrDescription: "Zip5: ZIP code 00000 is not a known US ZIP code" })
    const cred = await v1(s, "VerifyAddress", SEATTLE, { cred: { apiLoginID: CRED.apiLoginID, apiKey: "wrong" } })
    expect(cred.body).toEqual({ ...NULLS, ErrNumber: "1", ErrDescription: "Invalid apiLoginID or apiKey" })
  })
})

describe("VerifyAddress as the issue reports the real service (issue 29)", () => {
  it("answers without apiLoginID when the key identifies the account; a wrong key alone is refused; other operations still need the login", async () => {
    const alone = await v1(s, "VerifyAddress", SEATTLE, { cred: { apiKey: KEY } })
    expect(alone.body).toMatchObject({ City: "Seattle", State: "WA", Zip5: "98109", ErrNumber: "0", ErrDescription: null })
    const inQuery = await request(s.port, "POST", `/1.0/Service/VerifyAddress?apiKey=${KEY}`, json, JSON.stringify(SEATTLE))
    expect(inQuery.body.ErrNumber).toBe("0")
    const wrong = await v1(s, "VerifyAddress", SEATTLE, { cred: { apiKey: "wrong" } })
    expect(wrong.body).toEqual({ ...NO_ADDRESS, ErrNumber: "1", ErrDescription: "Invalid apiLoginID or apiKey" })
    expectError(
      await v1(s, "Ping", {}, { cred: { apiKey: KEY } }),
      "apiLoginID and apiKey are required (apiKey may also be sent in the query string)",
    )
  })

  it("a key shared by two accounts does not say which: the login is needed", async () => {
    const shared = await startSandbox({
      connections: [
        { connectionId: "33333333-3333-4333-8333-333333333333", apiKey: "shared-key", apiLoginId: "first" },
        { connectionId: "44444444-4444-4444-8444-444444444444", apiKey: "shared-key", apiLoginId: "second" },
      ],
    })
    try {
      const r = await request(shared.port, "POST", "/1.0/Service/VerifyAddress", json, JSON.stringify({ apiKey: "shared-key", ...SEATTLE }))
      expect(r.body).toMatchObject({
        ErrNumber: "1",
        ErrDescription: "apiLoginID and apiKey are required (apiKey may also be sent in the query string)",
      })
      const withLogin = await request(
        shared.port,
        "POST",
        "/1.0/Service/VerifyAddress",
        json,
        JSON.stringify({ apiLoginID: "second", apiKey: "shared-key", ...SEATTLE }),
      )
      expect(withLogin.body.ErrNumber).toBe("0")
    } finally {
      await shared.close()
    }
  })

  it("folds the secondary unit into Address1 in postal style and answers Address2 null (the recorded exchange)", async () => {
    const recorded = await v1(s, "VerifyAddress", {
      Address1: "162 East Avenue",
      Address2: "Third Floor",
      City: "New York",
      State: "NY",
      Zip5: "10010",
    })
    expect(recorded.body).toMatchObject({ Address1: "162 East Ave # 3", Address2: null, State: "NY", ErrNumber: "0" })
    const lines = async (Address2: unknown) => {
      const { Address1, Address2: a2 } = (await v1(s, "VerifyAddress", { ...SEATTLE, Address1: "400 Broad Street", Address2 })).body
      return [Address1, a2]
    }
    expect(await lines(undefined)).toEqual(["400 Broad St", null])
    expect(await lines("")).toEqual(["400 Broad St", null])
    expect(await lines("Attn: Receiving")).toEqual(["400 Broad St", null])
    expect(await lines("leave at the back door")).toEqual(["400 Broad St", null])
    expect(await lines("  Suite   100 ")).toEqual(["400 Broad St Ste 100", null])
    expect(await lines("Apt 4B")).toEqual(["400 Broad St Apt 4B", null])
    expect(await lines("#12")).toEqual(["400 Broad St # 12", null])
    expect(await lines("PO Box 77")).toEqual(["400 Broad St", null])
  })

  it("Zip4: the published one for a known address, else the one sent, else the sandbox's stable +4 for a street address in a known ZIP", async () => {
    const zip4 = async (addr: Record<string, unknown>) => (await v1(s, "VerifyAddress", addr)).body.Zip4
    expect(await zip4(SEATTLE)).toBe("4607")
    expect(await zip4({ ...SEATTLE, Address1: "400 Broad Street" })).toBe("4607")
    const main = await zip4(ORIGIN) // 1 Main St, 98101: not in the published table
    expect(main).toMatch(/^(?!0000)\d{4}$/)
    expect(await zip4({ ...ORIGIN, Address1: "1 main street" })).toBe(main)
    expect(await zip4({ ...ORIGIN, Zip4: "1234" })).toBe("1234")
    expect(await zip4({ ...ORIGIN, Address1: "" })).toBeNull() // no street line: no +4
  })
})

describe("/_sandbox counts and faults apply to v1 calls", () => {
  it("counts each v1 call under v1.<Operation>, whatever the path segment; DELETE resets", async () => {
    await post("/1.0/Service/Ping", {})
    await post("/1.0/AcmeTax/ping", {})
    await v1(s, "Lookup", lookupBody())
    await v1(s, "Lookup", { bad: true })
    const c = await counts()
    expect({ ping: c["v1.Ping"], lookup: c["v1.Lookup"], returned: c["v1.Returned"], v3: c.calculateCarts }).toEqual({
      ping: 2,
      lookup: 2,
      returned: 0,
      v3: 0,
    })
    expect((await control("DELETE", "/counts")).status).toBe(204)
    expect((await counts())["v1.Ping"]).toBe(0)
  })

  it("a fault before the operation answers its status (nothing written) and fires count times", async () => {
    const f = await control("POST", "/faults", { operation: "v1.Lookup", status: 503, retryAfter: "2", count: 1 })
    expect(f.status).toBe(201)
    const r = await v1(s, "Lookup", lookupBody({ cartID: "faulted" }))
    expect(r.status).toBe(503)
    expect(r.headers["retry-after"]).toBe("2")
    expect(String(r.headers["content-type"])).toContain("application/problem+json")
    expect((await v3(s, "GET", "/carts/faulted")).status).toBe(404)
    ok(await v1(s, "Lookup", lookupBody({ cartID: "faulted" })))
    expect((await counts())["v1.Lookup"]).toBe(2)
  })

  it("a fault after the operation loses the answer but keeps the write; drop and '*' apply too", async () => {
    ok(await v1(s, "Lookup", lookupBody({ cartID: "after" })))
    await control("POST", "/faults", { operation: "v1.AuthorizedWithCapture", status: 500, phase: "after", count: 1 })
    const lost = await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "after", orderID: "after-o" })
    expect(lost.status).toBe(500)
    expect((await v3(s, "GET", "/orders/after-o")).status).toBe(200)
    await control("POST", "/faults", { operation: "v1.Ping", drop: true, count: 1 })
    expect((await v1(s, "Ping")).status).toBe(-1)
    await control("POST", "/faults", { operation: "*", status: 429, count: 1 })
    expect((await v1(s, "GetTICGroups")).status).toBe(429)
    expect((await v1(s, "Ping")).body).toEqual({ ResponseType: 3, Messages: [] })
  })

  it("refuses an unknown operation name in a fault, listing the v1 keys", async () => {
    const r = await control("POST", "/faults", { operation: "v1.NoSuch", status: 500 })
    expect(r.status).toBe(422)
    expect(r.body.errors[0].location).toBe("body.operation")
  })
})

describe("one connection registry: a v1 account is a v3 connection", () => {
  async function account() {
    const a = ok(await v1(s, "CreatePlatformAccount", { Name: "Shop" })).body
    return {
      conn: a.NewAccountConnectionID as string,
      key: a.NewAccountApiKey as string,
      cred: { apiLoginID: a.NewAccountApiLoginID, apiKey: a.NewAccountApiKey },
    }
  }

  it("an order made through v1 is read through v3 with the account's key, and not with another key", async () => {
    const acc = await account()
    ok(await v1(s, "Lookup", lookupBody({ cartID: "acc-cart" }), { cred: acc.cred }))
    ok(await v1(s, "AuthorizedWithCapture", { customerID: "cust-1", cartID: "acc-cart", orderID: "acc-order" }, { cred: acc.cred }))
    const got = await v3(s, "GET", "/orders/acc-order", undefined, acc.conn, acc.key)
    expect(got.status).toBe(200)
    expect(got.body.connectionId).toBe(acc.conn)
    expect((await v3(s, "GET", `/ping`, undefined, acc.conn, acc.key)).status).toBe(200)
    expect((await v3(s, "GET", "/orders/acc-order", undefined, acc.conn, KEY)).status).toBe(403) // the default key does not grant it
    expect((await v3(s, "GET", "/orders/acc-order", undefined, CONN, acc.key)).status).toBe(403) // its key grants only its connection
    expect((await v3(s, "GET", "/orders/acc-order")).status).toBe(404) // the default connection has no such order
  })

  it("an order made through v3 on the account's connection is returned through v1 with its credentials", async () => {
    const acc = await account()
    const cart = {
      cartId: "v3-cart",
      customerId: "c",
      currency: { currencyCode: "USD" },
      origin: { line1: "1 Main St", city: "Seattle", state: "WA", zip: "98101" },
      destination: { line1: "400 Broad St", city: "Seattle", state: "WA", zip: "98109" },
      lineItems: [{ index: 0, itemId: "a", price: 10, quantity: 1 }],
    }
    expect((await v3(s, "POST", "/carts", { items: [cart] }, acc.conn, acc.key)).status).toBe(200)
    expect(
      (await v3(s, "POST", "/carts/orders", { cartId: "v3-cart", orderId: "v3-order", completed: true }, acc.conn, acc.key)).status,
    ).toBe(201)
    ok(await v1(s, "Returned", { orderID: "v3-order" }, { cred: acc.cred }))
    expect(await refunds("v3-order", acc.key, acc.conn)).toHaveLength(1)
    expectError(await v1(s, "Returned", { orderID: "v3-order" }), /not found/) // the default connection has no such order
  })

  it("accounts are kept in the journal with --data-dir: after a restart the account works in v1 and v3", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-accounts-"))
    try {
      const first = await startSandbox({ dataDir: dir })
      const r = await request(first.port, "POST", "/1.0/Service/CreatePlatformAccount", json, JSON.stringify({ ...CRED, Name: "Kept" }))
      const a = ok(r).body
      await first.close()
      const again = await startSandbox({ dataDir: dir })
      try {
        const ping3 = await request(again.port, "GET", `/tax/connections/${a.NewAccountConnectionID}/ping`, {
          "x-api-key": a.NewAccountApiKey,
        })
        expect(ping3.status).toBe(200)
        const ping1 = await request(
          again.port,
          "POST",
          "/1.0/Service/Ping",
          json,
          JSON.stringify({ apiLoginID: a.NewAccountApiLoginID, apiKey: a.NewAccountApiKey }),
        )
        expect(ping1.body).toEqual({ ResponseType: 3, Messages: [] })
      } finally {
        await again.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("/_sandbox/reset removes the accounts with the data", async () => {
    const acc = await account()
    await control("POST", "/reset")
    expect((await v3(s, "GET", "/ping", undefined, acc.conn, acc.key)).status).toBe(401)
    expectError(await v1(s, "Ping", {}, { cred: acc.cred }), "Invalid apiLoginID or apiKey")
  })
})
