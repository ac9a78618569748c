/**
 * validateBodyLocated, as Medusa's validateAndTransformBody takes a body (strict): the fields a body carries
 * that the schema does not name are located from the plugin's own strict parse (no parsing of Medusa's message).
 */
import { z } from "zod"
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { unknownFields, validateBodyLocated } from "./validate"

const Body = z.object({ name: z.string(), zip: z.string().optional() })

async function run(body: unknown) {
  const sent: { status?: number; body?: unknown } = {}
  const res = {
    status(s: number) {
      sent.status = s
      return res
    },
    json(b: unknown) {
      sent.body = b
      return res
    },
  } as unknown as MedusaResponse
  const req = { body, query: {}, scope: { resolve: () => undefined } } as unknown as MedusaRequest
  let passed: unknown = "not called"
  await validateBodyLocated(Body)(req, res, (err?: unknown) => {
    passed = err
  })
  return { sent, passed, req }
}

describe("validateBodyLocated", () => {
  it("two fields the schema does not name: Medusa refuses the body, and each field is located on its own", async () => {
    const { sent, passed } = await run({ name: "a", customerId: "cus_1", extra: { deep: 1 } })
    expect(passed).toBe("not called")
    expect(sent).toEqual({
      status: 400,
      body: {
        type: "invalid_data",
        message: "Invalid request: customerId: not a field of this request; extra: not a field of this request",
        errors: [
          { location: "body.customerId", message: "not a field of this request", value: "cus_1" },
          { location: "body.extra", message: "not a field of this request", value: "{object with 1 key}" },
        ],
      },
    })
  })

  it("a wrong type is located from the schema's own parse", async () => {
    const { sent } = await run({ name: 5 })
    expect(sent.status).toBe(400)
    expect((sent.body as { errors: { location: string }[] }).errors.map((e) => e.location)).toEqual(["body.name"])
  })

  it("an object where a string belongs, built to break formatting ({toString: {}}): Medusa's validator fails on it, and the answer is still the located 400, never a 500", async () => {
    const { sent, passed } = await run({ name: { toString: {}, valueOf: {} } })
    expect(passed).toBe("not called")
    expect(sent.status).toBe(400)
    expect((sent.body as { errors: { location: string; value: unknown }[] }).errors).toEqual([
      expect.objectContaining({ location: "body.name", value: "{object with 2 keys}" }),
    ])
  })

  it("a valid body goes on to the route", async () => {
    const { sent, passed, req } = await run({ name: "a" })
    expect(passed).toBeUndefined()
    expect(sent).toEqual({})
    expect((req as unknown as { validatedBody: unknown }).validatedBody).toEqual({ name: "a" })
  })
})

describe("unknownFields", () => {
  it("the top-level keys the schema does not name; none for a valid body or a schema that cannot be strict", () => {
    expect(unknownFields(Body, { name: "a", b: 1, c: 2 })).toEqual(["b", "c"])
    expect(unknownFields(Body, { name: "a" })).toEqual([])
    expect(unknownFields(z.string(), "x")).toEqual([])
  })
})
