import { StepResponse } from "@medusajs/framework/workflows-sdk"
import { composeTaxLineContext } from "./tax-line-context-handler"

const ctx = { container: {} as never }

describe("composeTaxLineContext", () => {
  it("runs every handler with the same input and merges their results; sales_tax stays the plugin's", async () => {
    const seen: unknown[] = []
    const ours = async (input: unknown) => {
      seen.push(input)
      return new StepResponse({ sales_tax: { v: 1, cart_id: "cart_1" }, shared: "ours" })
    }
    const host = async (input: unknown) => {
      seen.push(input)
      return { shared: "host", loyalty_tier: "gold", sales_tax: "must not win" }
    }
    const plainStep = () => new StepResponse({ extra: 1 })
    const composed = composeTaxLineContext(ours, host, plainStep)
    const out = await composed({ cart: { id: "cart_1" } }, ctx)
    expect(out).toBeInstanceOf(StepResponse)
    const value = (out as unknown as { output: Record<string, unknown> }).output
    expect(value).toEqual({ sales_tax: { v: 1, cart_id: "cart_1" }, shared: "host", loyalty_tier: "gold", extra: 1 })
    expect(seen).toEqual([{ cart: { id: "cart_1" } }, { cart: { id: "cart_1" } }])
  })

  it("handlers returning nothing contribute nothing", async () => {
    const out = await composeTaxLineContext(async () => undefined, () => ({ a: 1 }))({}, ctx)
    expect((out as unknown as { output: unknown }).output).toEqual({ a: 1 })
  })
})
