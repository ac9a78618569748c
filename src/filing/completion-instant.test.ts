import { completionInstant } from "./snapshot"

describe("completionInstant", () => {
  const order = (captured: (string | null)[]) => ({
    payment_collections: [{ payments: captured.map((captured_at) => ({ captured_at })) }],
    fulfillments: [],
  })

  it("is the earliest capture (captured mode), null when nothing was captured or the mode is placed", () => {
    const o = order(["2026-03-02T10:00:00.000Z", null, "2026-01-02T08:00:00.000Z"])
    expect(completionInstant(o as never, "captured")?.toISOString()).toBe("2026-01-02T08:00:00.000Z")
    expect(completionInstant(order([null]) as never, "captured")).toBeNull()
    expect(completionInstant(o as never, "placed")).toBeNull()
  })

  it("skips a timestamp it cannot read instead of answering an invalid date", () => {
    const o = order(["not a date", "2026-01-02T08:00:00.000Z"])
    expect(completionInstant(o as never, "captured")?.toISOString()).toBe("2026-01-02T08:00:00.000Z")
  })
})
