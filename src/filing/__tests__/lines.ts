/** Test fixtures of filing's unit tests (not shipped: package.json "files" leaves out __tests__). */
import type { FilingLine } from "../../modules/sales-tax-filing/types"

/** An item line of a filing snapshot: $10 a unit at 7 %, TIC 0, with the tax charged for `quantity`. */
export const itemLine = (itemId: string, quantity: number, chargedTax: number): FilingLine => ({
  index: 0,
  itemId,
  kind: "item",
  price: 10,
  quantity,
  tic: 0,
  chargedTax,
  chargedRate: 0.07,
  fallback: false,
})
