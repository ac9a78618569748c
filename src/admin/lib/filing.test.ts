import { hasFailedWork, lineName, lineNames, money, stateLabel, type FilingView } from "./filing"

const filing = (state: string, refundStates: string[] = []): FilingView =>
  ({
    state,
    refunds: refundStates.map((s, i) => ({ id: `r${i}`, state: s }) as NonNullable<FilingView["refunds"]>[number]),
  }) as FilingView

describe("the order filing widget's formatting", () => {
  it("lineName: a line named by its product's title, Shipping for shipping; the id only for a line the order no longer has", () => {
    const order = {
      items: [
        { id: "ordli_1", product_title: "Sweatpants", title: "L" },
        { id: "ordli_2", product_title: null, title: "Custom engraving" },
      ],
    }
    expect(lineName(order, "ordli_1")).toBe("Sweatpants")
    expect(lineName(order, "ordli_2")).toBe("Custom engraving")
    expect(lineName(order, "shipping:ordsm_1")).toBe("Shipping")
    expect(lineName(order, "ordli_gone")).toBe("ordli_gone")
    expect(lineNames(order, ["ordli_1", "shipping:a", "shipping:b", "ordli_2"])).toBe("Sweatpants, Shipping, Custom engraving")
  })

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
