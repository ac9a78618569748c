import { createHook, createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { hasHook, registerHook } from "./workflow-hooks"

const handler = () => undefined

describe("guarded hook registration (a Medusa without the workflow or the hook)", () => {
  it("a missing workflow (an older core-flows does not export it: undefined) is 'absent', never a TypeError", () => {
    expect(() => registerHook(undefined, "setTaxLineContext", handler)).not.toThrow()
    expect(registerHook(undefined, "setTaxLineContext", handler)).toBe("absent")
    expect(registerHook(null, "setTaxLineContext", handler)).toBe("absent")
  })

  it("a workflow without hooks, or without that hook, is 'absent' and nothing is called", () => {
    const other = jest.fn()
    expect(registerHook({}, "setTaxLineContext", handler)).toBe("absent")
    expect(registerHook({ hooks: undefined }, "setTaxLineContext", handler)).toBe("absent")
    expect(registerHook({ hooks: { validate: other } }, "setTaxLineContext", handler)).toBe("absent")
    expect(registerHook({ hooks: { setTaxLineContext: "not a function" } }, "setTaxLineContext", handler)).toBe("absent")
    expect(other).not.toHaveBeenCalled()
  })

  it("a present hook gets the handler once, called on its hooks object", () => {
    const calls: unknown[] = []
    const wf = {
      hooks: {
        setTaxLineContext(this: unknown, h: unknown) {
          calls.push([this, h])
        },
      },
    }
    expect(registerHook(wf, "setTaxLineContext", handler)).toBe("registered")
    expect(calls).toEqual([[wf.hooks, handler]])
    expect(hasHook(wf, "setTaxLineContext")).toBe(true)
  })

  it("a hook that refuses (a handler already there) is 'failed' and the error is reported, not thrown", () => {
    const seen: string[] = []
    const wf = {
      hooks: {
        validate: () => {
          throw new Error("Cannot define multiple hook handlers for the validate hook")
        },
      },
    }
    expect(registerHook(wf, "validate", handler, (e) => seen.push(e.message))).toBe("failed")
    expect(seen).toEqual(["Cannot define multiple hook handlers for the validate hook"])
  })

  it("a real workflow of the installed workflows-sdk: its hook registers, an absent one is 'absent'", () => {
    const wf = createWorkflow("sales-tax-test-guarded-hooks", (input: { a?: number }) => {
      const h = createHook("present", { input })
      return new WorkflowResponse(input, { hooks: [h] })
    })
    expect(hasHook(wf, "present")).toBe(true)
    expect(registerHook(wf, "setTaxLineContext", handler)).toBe("absent")
    expect(registerHook(wf, "present", handler)).toBe("registered")
  })
})
