import { hasFailedWork, money, stateLabel, type FilingRefundView, type FilingView } from "./filing"

const filing = (state: string, refundStates: string[] = []): FilingView =>
  ({
    state,
    refunds: refundStates.map((s, i) => ({ id: `r${i}`, state: s }) as FilingRefundView),
  }) as FilingView

describe("the order filing widget's formatting", () => {
  it("money: dollars with two decimals, the sign before the dollar, a dash for nothing, odd text as is", () => {
    expect(money("12.5")).toBe("$12.50")
    expect(money(-0.43)).toBe("-$0.43")
    expect(money(0)).toBe("$0.00")
    expect([money(null), money(undefined), money("")]).toEqual(["—", "—", "—"])
    expect(money("n/a")).toBe("n/a")
  })

  it("stateLabel: underscores become spaces", () => {
    expect(stateLabel("needs_attention")).toBe("needs attention")
    expect(stateLabel("partially_refunded")).toBe("partially refunded")
  })

  it("hasFailedWork: the record failed, or one of its refunds did", () => {
    expect(hasFailedWork(filing("failed"))).toBe(true)
    expect(hasFailedWork(filing("completed", ["refunded", "failed"]))).toBe(true)
    expect(hasFailedWork(filing("completed", ["refunded"]))).toBe(false)
    expect(hasFailedWork({ ...filing("filed"), refunds: undefined })).toBe(false)
  })
})
