import {
  CONN,
  CONN_B,
  CRED,
  CRED_B,
  KEY,
  KEY_B,
  LOGIN,
  ORIGIN,
  SEATTLE,
  formBody,
  lookupBody,
  makeV1Sandbox,
  messages,
  ok,
  request,
  v1,
  v3,
  type V1Sandbox,
} from "./__tests__/helpers"

/**
 * The version 1 protocol: always HTTP 200 with ResponseType, credentials in the body (apiKey also
 * in the query string), JSON and form bodies, any letter case in the path and keys, strings for
 * numbers and booleans, malformed bodies answered with ResponseType 0 (never a 5xx).
 */
let s: V1Sandbox
beforeAll(async () => {
  s = await makeV1Sandbox()
})
afterAll(() => s.close())
beforeEach(() => request(s.port, "POST", "/_sandbox/reset", { "x-api-key": KEY }))

const expectError = (r: { status: number; body: any }) => {
  expect(r.status).toBe(200)
  expect(r.body.ResponseType).toBe(0)
  expect(Array.isArray(r.body.Messages)).toBe(true)
  expect(r.body.Messages.length).toBeGreaterThan(0)
  for (const m of r.body.Messages) {
    // partner operations (GetLocationsResult) carry Messages as strings
    if (typeof m === "string") continue
    expect(m.ResponseType).toBe(0)
    expect(typeof m.Message).toBe("string")
  }
}

describe("credentials", () => {
  it("accepts the configured apiLoginID + apiKey", async () => {
    const r = await v1(s, "Ping")
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ResponseType: 3, Messages: [] })
  })

  it("answers ResponseType 0 with a message for a wrong key, a wrong login, missing credentials — without echoing the key", async () => {
    const secret = "not-the-key-5f2c9a"
    for (const cred of [
      { apiLoginID: LOGIN, apiKey: secret },
      { apiLoginID: "someone-else", apiKey: KEY },
      { apiLoginID: LOGIN },
      { apiKey: KEY },
      {},
    ]) {
      const r = await v1(s, "Ping", {}, { cred })
      expectError(r)
      expect(messages(r).join(" ")).toMatch(/apiLoginID|apiKey/)
      expect(r.raw).not.toContain(secret)
      expect(r.raw).not.toContain(KEY)
    }
  })

  it("refuses a key of another connection with this login (the pair must match)", async () => {
    expectError(await v1(s, "Ping", {}, { cred: { apiLoginID: LOGIN, apiKey: KEY_B } }))
    expect((await v1(s, "Ping", {}, { cred: CRED_B })).body.ResponseType).toBe(3)
  })

  it("takes apiKey from the query string (any case of the parameter name)", async () => {
    for (const q of [`?apiKey=${KEY}`, `?APIKEY=${KEY}`, `?apikey=${KEY}&other=1`]) {
      const r = await v1(s, "Ping", { apiLoginID: LOGIN }, { cred: null, query: q })
      expect(r.body).toEqual({ ResponseType: 3, Messages: [] })
    }
    expectError(await v1(s, "Ping", { apiLoginID: LOGIN }, { cred: null, query: "?apiKey=wrong" }))
  })

  it("compares the login id case-insensitively and the key exactly", async () => {
    expect((await v1(s, "Ping", {}, { cred: { apiLoginID: LOGIN.toUpperCase(), apiKey: KEY } })).body.ResponseType).toBe(3)
    expectError(await v1(s, "Ping", {}, { cred: { apiLoginID: LOGIN, apiKey: KEY.toUpperCase() } }))
  })

  it("checks credentials on every operation", async () => {
    const ops = [
      "Ping",
      "Lookup",
      "LookupForDate",
      "Authorized",
      "Captured",
      "AuthorizedWithCapture",
      "Returned",
      "ReturnedPro",
      "AddExemptCertificate",
      "GetExemptCertificates",
      "DeleteExemptCertificate",
      "GetTICs",
      "GetTICGroups",
      "GetTICsByGroup",
      "CreatePlatformAccount",
      "GetLocations",
      "AddTransactions",
    ]
    for (const op of ops) expectError(await v1(s, op, { ticGroup: 20000 }, { cred: { apiLoginID: LOGIN, apiKey: "bad" } }))
    // VerifyAddress answers in its own shape: ErrNumber / ErrDescription
    const r = await v1(s, "VerifyAddress", SEATTLE, { cred: { apiLoginID: LOGIN, apiKey: "bad" } })
    expect(r.status).toBe(200)
    expect(r.body.ErrNumber).not.toBe("0")
    expect(r.body.ErrDescription).toMatch(/apiLoginID|apiKey/)
  })

  it("keeps connections apart: a cart looked up in connection B is not in the default connection", async () => {
    ok(await v1(s, "Lookup", lookupBody({ cartID: "b-cart" }), { cred: CRED_B }))
    expect((await v3(s, "GET", "/carts/b-cart", undefined, CONN_B, KEY_B)).status).toBe(200)
    expect((await v3(s, "GET", "/carts/b-cart")).status).toBe(404)
    expectError(await v1(s, "AuthorizedWithCapture", { cartID: "b-cart", orderID: "o" }))
  })
})

describe("paths, keys and encodings", () => {
  it("accepts any letter case in the path segment Service and the operation, and a trailing slash", async () => {
    for (const p of ["/1.0/service/ping", "/1.0/SERVICE/PING", "/1.0/Service/pInG/"]) {
      const r = await request(s.port, "POST", p, { "content-type": "application/json" }, JSON.stringify(CRED))
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ ResponseType: 3, Messages: [] })
    }
  })

  it("accepts keys in any letter case", async () => {
    const body = {
      APILOGINID: LOGIN,
      ApiKey: KEY,
      CustomerId: "c",
      CARTID: "case-cart",
      Origin: { address1: "1 Main St", CITY: "Seattle", state: "WA", zip5: "98101" },
      DESTINATION: { ADDRESS1: "400 Broad St", city: "Seattle", STATE: "WA", ZIP5: "98109" },
      CartItems: [{ index: 0, itemid: "x", tic: 0, price: 10, QTY: 1 }],
    }
    const r = await request(s.port, "POST", "/1.0/Service/Lookup", { "content-type": "application/json" }, JSON.stringify(body))
    expect(r.body.ResponseType).toBe(3)
    expect(r.body.CartID).toBe("case-cart")
  })

  it("reads numbers and booleans sent as strings, ZIP codes as numbers, a lower-case state", async () => {
    const strings = lookupBody({
      cartID: "str-cart",
      deliveredBySeller: "false",
      origin: { ...ORIGIN, Zip5: 98101, Zip4: "0000" },
      destination: { ...SEATTLE, State: "wa", Zip4: "" },
      cartItems: [
        { Index: "0", ItemID: 123, TIC: "00000", Price: "10.75", Qty: "1.5" },
        { Index: "1", ItemID: "b", TIC: "0", Price: "20", Qty: "2" },
      ],
    })
    const numbers = lookupBody({ cartID: "num-cart" })
    const a = ok(await v1(s, "Lookup", strings)).body
    const b = ok(await v1(s, "Lookup", numbers)).body
    expect(a.CartItemsResponse).toEqual(b.CartItemsResponse)
    const cart = (await v3(s, "GET", "/carts/str-cart")).body
    expect(cart.lineItems[0].itemId).toBe("123")
    expect(cart.deliveredBySeller).toBe(false)
    expect(cart.destination.state).toBe("WA")
  })

  it("restores leading zeros of numeric ZIP codes (Boston 02108 sent as 2108)", async () => {
    const boston = { Address1: "1 Beacon St", City: "Boston", State: "MA", Zip5: 2108 }
    const r = ok(await v1(s, "Lookup", lookupBody({ cartID: "bos", destination: boston })))
    expect(r.body.CartItemsResponse[0].TaxAmount).toBeGreaterThan(0)
    expect((await v3(s, "GET", "/carts/bos")).body.destination.zip).toBe("02108")
  })

  it("accepts form-encoded bodies with bracket and dot notation", async () => {
    const json = ok(await v1(s, "Lookup", lookupBody({ cartID: "json-cart" }))).body
    const form = formBody({ ...CRED, ...lookupBody({ cartID: "form-cart" }) })
    expect(form).toContain("cartItems%5B0%5D%5BPrice%5D=10.75")
    const r = await request(s.port, "POST", "/1.0/Service/Lookup", { "content-type": "application/x-www-form-urlencoded" }, form)
    expect(r.status).toBe(200)
    expect(r.body.ResponseType).toBe(3)
    expect(r.body.CartItemsResponse).toEqual(json.CartItemsResponse)
    const dotted =
      "apiLoginID=" +
      LOGIN +
      "&apiKey=" +
      KEY +
      "&customerID=c&origin.Address1=1&origin.State=WA&origin.Zip5=98101&destination.State=WA&destination.Zip5=98109&cartItems[0].Index=0&cartItems[0].ItemID=a&cartItems[0].Price=10&cartItems[0].Qty=1"
    const d = await request(
      s.port,
      "POST",
      "/1.0/Service/Lookup",
      { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
      dotted,
    )
    expect(d.body.ResponseType).toBe(3)
    expect(d.body.CartItemsResponse).toHaveLength(1)
  })

  it("sniffs JSON and form bodies sent with another or no content type", async () => {
    const j = await request(s.port, "POST", "/1.0/Service/Ping", { "content-type": "text/plain" }, JSON.stringify(CRED))
    expect(j.body).toEqual({ ResponseType: 3, Messages: [] })
    const f = await request(s.port, "POST", "/1.0/Service/Ping", {}, `apiLoginID=${LOGIN}&apiKey=${KEY}`)
    expect(f.body).toEqual({ ResponseType: 3, Messages: [] })
  })

  it("accepts a single cart item given as an object instead of a list", async () => {
    const r = ok(await v1(s, "Lookup", lookupBody({ cartItems: { Index: 0, ItemID: "x", TIC: 0, Price: 10, Qty: 1 } })))
    expect(r.body.CartItemsResponse).toHaveLength(1)
  })

  it("keeps version 3 JSON-only while version 1 is loaded", async () => {
    const r = await request(
      s.port,
      "POST",
      `/tax/connections/${CONN}/carts`,
      { "x-api-key": KEY, "content-type": "application/x-www-form-urlencoded" },
      "items=1",
    )
    expect(r.status).toBe(415)
    expect(String(r.headers["content-type"])).toContain("application/problem+json")
  })
})

describe("malformed requests (never a 5xx)", () => {
  const post = (body: string | Buffer, ct = "application/json", op = "Lookup") =>
    request(s.port, "POST", `/1.0/Service/${op}`, { "content-type": ct }, body)

  it.each([
    ["invalid JSON", '{"apiLoginID": ', "application/json"],
    ["a JSON array", "[1,2,3]", "application/json"],
    ["a JSON string", '"hello"', "application/json"],
    ["JSON null", "null", "application/json"],
    ["SOAP/XML", "<soap:Envelope><soap:Body/></soap:Envelope>", "text/xml"],
    ["binary noise", Buffer.from([0, 255, 1, 254, 128, 10]), "application/octet-stream"],
    ["a text without pairs", "just some words", "text/plain"],
  ])("%s → HTTP 200, ResponseType 0", async (_name, body, ct) => {
    expectError(await post(body, ct))
  })

  it("an empty body asks for credentials", async () => {
    const r = await request(s.port, "POST", "/1.0/Service/Ping", {})
    expectError(r)
    expect(messages(r)[0]).toMatch(/apiLoginID/)
  })

  it("a body over the size limit → HTTP 200, ResponseType 0", async () => {
    const big = JSON.stringify({ ...CRED, pad: "x".repeat(1024 * 1024 + 10) })
    const r = await post(big)
    expectError(r)
    expect(messages(r)[0]).toMatch(/too large/)
  })

  it("names the offending v1 field in the message", async () => {
    const r = await v1(s, "Lookup", lookupBody({ cartItems: [{ Index: 0, ItemID: "a", TIC: 0, Price: "ten", Qty: 1 }] }))
    expectError(r)
    expect(messages(r).join("\n")).toMatch(/cartItems\[0\]\.Price/)
    const st = await v1(s, "Lookup", lookupBody({ destination: { ...SEATTLE, State: "Washington" } }))
    expectError(st)
    expect(messages(st).join("\n")).toMatch(/destination\.State/)
    const pr = await v1(s, "Lookup", lookupBody({ cartItems: [{ Index: 0, ItemID: "a", Price: 1, Qty: 0 }] }))
    expect(messages(pr).join("\n")).toMatch(/cartItems\[0\]\.Qty/)
  })

  it("does not let __proto__ keys pollute objects", async () => {
    const r = await post(`{"__proto__": {"polluted": true}, "apiLoginID": "${LOGIN}", "apiKey": "${KEY}"}`, "application/json", "Ping")
    expect(r.body.ResponseType).toBe(3)
    expect(({} as any).polluted).toBeUndefined()
    const f = await post(
      `__proto__[polluted]=1&constructor[prototype][polluted]=1&apiLoginID=${LOGIN}&apiKey=${KEY}`,
      "application/x-www-form-urlencoded",
      "Ping",
    )
    expect(f.body.ResponseType).toBe(3)
    expect(({} as any).polluted).toBeUndefined()
  })

  it("answers an unknown operation and a non-POST method with ResponseType 0", async () => {
    const u = await v1(s, "NoSuchOperation")
    expectError(u)
    expect(messages(u)[0]).toMatch(/unknown operation/)
    const g = await request(s.port, "GET", "/1.0/Service/Ping", {})
    expectError(g)
    expect(messages(g)[0]).toMatch(/POST/)
  })

  it("a path that is not /1.0/{one segment}/{Operation} stays a 404 problem", async () => {
    for (const p of ["/1.0/a/b/Ping", "/2.0/Service/Ping", "/1.0/Ping"]) {
      const r = await request(s.port, "POST", p, { "content-type": "application/json" }, JSON.stringify(CRED))
      expect({ p, status: r.status }).toEqual({ p, status: 404 })
      expect(String(r.headers["content-type"])).toContain("application/problem+json")
    }
  })
})
