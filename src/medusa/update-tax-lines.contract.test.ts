/**
 * Contract: setCartTaxLines re-does the installed core-flows' updateTaxLinesWorkflow
 * (cart/workflows/update-tax-lines.js). Fails when Medusa changes the workflow's cart fields or steps.
 */
import { updateTaxLinesWorkflow } from "@medusajs/core-flows"
import { installedSource } from "./installed"
import {
  REFRESH_CART_ITEMS_SOURCE,
  refreshTaxWritesGuarded,
  UPDATE_TAX_LINES_CART_FIELDS,
  UPDATE_TAX_LINES_SOURCE,
  updateTaxLinesDifferences,
  updateTaxLinesMatchesInstalled,
} from "./update-tax-lines"

const source = installedSource("@medusajs/core-flows", UPDATE_TAX_LINES_SOURCE)

describe("contract: Medusa's updateTaxLinesWorkflow is the one setCartTaxLines re-does", () => {
  it("the installed workflow fetches exactly the copied field list and runs the copied steps in order", () => {
    expect(source).toContain('exports.updateTaxLinesWorkflowId = "update-tax-lines"')
    expect(updateTaxLinesDifferences(source)).toEqual([])
    expect(updateTaxLinesMatchesInstalled()).toEqual([])
    expect(Object.keys(updateTaxLinesWorkflow.hooks)).toEqual(["setTaxLineContext"])
  })

  it("a field added to or dropped from Medusa's list is named", () => {
    const changed = source!
      .replace('"customer.groups.id",', '"customer.groups.id",\n    "customer.has_account",')
      .replace('"items.is_giftcard",', "")
    expect(updateTaxLinesDifferences(changed)).toEqual([
      "its cart fields changed (added: customer.has_account; removed: items.is_giftcard)",
    ])
  })

  it("a step gone, moved or renamed is named; a file gone is named", () => {
    expect(updateTaxLinesDifferences(source!.replace("getTranslatedTaxLinesStep)(", "getTranslatedLinesStep)("))).toEqual([
      "step getTranslatedTaxLinesStep not found in its place",
    ])
    expect(updateTaxLinesDifferences(undefined)).toEqual([`@medusajs/core-flows/dist/${UPDATE_TAX_LINES_SOURCE} not found`])
    expect(updateTaxLinesDifferences("const x = 1")).toContain("its cartFields list is not found")
  })

  it("2.15's form (three fields fewer, no setTaxLineContext hook) is accepted; those fields dropped with the hook kept are not", () => {
    const before = source!.replace('"items.is_giftcard",', "").replace('"shipping_methods.name",', "").replace('"shipping_methods.id",', "")
    const hookStart = before.indexOf("const setTaxLineContext = (0, workflows_sdk_1.createHook)(")
    const hookEnd = before.indexOf("const taxLineItems")
    expect(hookStart).toBeGreaterThan(0)
    const as215 = before.slice(0, hookStart) + before.slice(hookEnd)
    expect(updateTaxLinesDifferences(as215)).toEqual([])
    expect(updateTaxLinesDifferences(before)).toEqual([
      "its cart fields changed (added: none; removed: items.is_giftcard, shipping_methods.name, shipping_methods.id)",
    ])
  })

  it("the copied list holds no field twice", () => {
    expect(new Set(UPDATE_TAX_LINES_CART_FIELDS).size).toBe(UPDATE_TAX_LINES_CART_FIELDS.length)
  })
})

describe("contract: Medusa's cart refresh writes tax lines after its read only when asked to", () => {
  const refresh = installedSource("@medusajs/core-flows", REFRESH_CART_ITEMS_SOURCE)
  it("the installed refreshCartItemsWorkflow runs each tax workflow once, under its force_refresh / new lines condition", () => {
    expect(refreshTaxWritesGuarded(refresh)).toBe(true)
  })
  it("a tax workflow run without its condition, or a file gone: the tax lines of the read are not taken as current", () => {
    expect(refreshTaxWritesGuarded(refresh!.replace('"force-refresh-update-tax-lines", ', ""))).toBe(false)
    expect(refreshTaxWritesGuarded(`${refresh!}\nupdateTaxLinesWorkflow.runAsStep({})`)).toBe(false)
    expect(refreshTaxWritesGuarded(undefined)).toBe(false)
  })
})
