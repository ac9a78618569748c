import { checkParam, ID_SHAPES } from "./id-shapes"

describe("id shapes", () => {
  it("accepts Medusa ids with their prefix, and UUID certificates", () => {
    expect(ID_SHAPES.product.safeParse("prod_01JABCDEF0123456789ABCDEFG").success).toBe(true)
    expect(ID_SHAPES.productType.safeParse("ptyp_x").success).toBe(true)
    expect(ID_SHAPES.productCategory.safeParse("pcat_01J").success).toBe(true)
    expect(ID_SHAPES.customer.safeParse("cus_missing").success).toBe(true)
    for (const id of ["order_01J", "oexc_01J", "claim_01J", "order_failed_1", "order_01J~0a1b2c3d"])
      expect(ID_SHAPES.filingOrder.safeParse(id).success).toBe(true)
    expect(ID_SHAPES.certificate.safeParse("00000000-0000-4000-8000-00000000DEAD").success).toBe(true)
  })

  it("refuses other prefixes, traversal, control characters, empty and over-long ids", () => {
    const bad = [
      "",
      "..",
      ".",
      "prod_",
      "prod_../x",
      "prod_a%00",
      "prod_a\u0000",
      "prod_a b",
      "ptyp_1",
      "PROD_1",
      `prod_${"a".repeat(65)}`,
      "prod_a/b",
    ]
    for (const id of bad) expect(ID_SHAPES.product.safeParse(id).success).toBe(false)
    expect(ID_SHAPES.certificate.safeParse("..").success).toBe(false)
    expect(ID_SHAPES.certificate.safeParse("00000000-0000-4000-8000-00000000dead/..").success).toBe(false)
    expect(ID_SHAPES.filingOrder.safeParse("cart_01J").success).toBe(false)
    // an origin's order id: exactly 8 lower-case hex digits after "~"
    for (const id of ["order_01J~", "order_01J~0a1b2c3", "order_01J~0A1B2C3D", "order_01J~0a1b2c3d~0a1b2c3d", "order_01J~../x"])
      expect(ID_SHAPES.filingOrder.safeParse(id).success).toBe(false)
    expect(ID_SHAPES.customer.safeParse(["cus_1"]).success).toBe(false)
  })

  it("checkParam gives a located error with a short excerpt of the value", () => {
    expect(checkParam("certId", "..", "certificate")).toEqual({
      location: "path.certId",
      message: "certId must be a certificate id (a UUID)",
      value: "..",
    })
    expect(checkParam("id", "x".repeat(500), "product")!.value).toHaveLength(41)
    expect(checkParam("id", "prod_1", "product")).toBeUndefined()
  })
})
