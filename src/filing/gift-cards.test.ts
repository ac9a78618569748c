import { TIC_CATALOG } from "../../packages/sandbox/src/tic/data/tic-catalog"
import { STATE_RATES } from "../../packages/sandbox/src/engine/data/states"
import { categoryOfTic, ruleFor } from "../../packages/sandbox/src/engine"
import { GIFT_CARD_TIC, filedItemTic } from "./snapshot"

describe("gift cards in filing", () => {
  const tics = new Map([
    ["prod_card", 10005],
    ["prod_lamp", 20010],
  ])
  it("a Medusa gift card line (never quoted at checkout) is filed under TIC 10005, not the default", () => {
    expect(filedItemTic({ is_giftcard: true, product_id: "prod_other" }, null, tics, 0)).toBe(GIFT_CARD_TIC)
    expect(filedItemTic({ is_giftcard: true, product_id: null }, null, tics, 0)).toBe(GIFT_CARD_TIC)
    // whatever TIC its tax lines or product name
    expect(filedItemTic({ is_giftcard: true, product_id: "prod_lamp" }, 20010, tics, 0)).toBe(GIFT_CARD_TIC)
  })
  it("other lines: the charged TIC, else the product's, else the default (a gift card product resolves to 10005)", () => {
    expect(filedItemTic({ is_giftcard: false, product_id: "prod_lamp" }, 30070, tics, 0)).toBe(30070)
    expect(filedItemTic({ product_id: "prod_card" }, null, tics, 0)).toBe(10005)
    expect(filedItemTic({ product_id: "prod_none" }, null, tics, 0)).toBe(0)
    expect(filedItemTic({ product_id: null }, null, tics, 31000)).toBe(31000)
  })
  it("10005 is the catalog's gift card TIC, and the sandbox exempts it in every state (the re-quote and refunds are $0)", () => {
    expect(TIC_CATALOG.filter((t) => /^gift card$/i.test(t.Description)).map((t) => t.TICID)).toEqual([GIFT_CARD_TIC])
    const taxing = STATE_RATES.map((r) => r.state).filter((st) => ruleFor(st, categoryOfTic(GIFT_CARD_TIC)).kind !== "exempt")
    expect(taxing).toEqual([])
    expect(STATE_RATES.length).toBeGreaterThan(50)
  })
})
