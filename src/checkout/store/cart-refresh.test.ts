/**
 * Contract: Medusa's refresh read (core-flows' cartFieldsForRefreshSteps, the cart updateCartPromotionsWorkflow's
 * validate hook gets) names every field the refresh hook's direct tax run takes from it.
 */
import { installedRefreshFields, refreshFieldsOf, uncoveredFields } from "../../medusa/update-tax-lines"
import { fieldsFromRefreshRead } from "./cart-refresh"

describe("contract: the tax run starts from Medusa's refresh read", () => {
  it("the installed cartFieldsForRefreshSteps names every field the run takes from it", () => {
    const installed = installedRefreshFields()
    expect(installed).toContain("items.*")
    expect(fieldsFromRefreshRead()).toEqual(expect.arrayContaining(["items.quantity", "shipping_address.*", "customer.groups.id"]))
    expect(uncoveredFields(installed!, fieldsFromRefreshRead())).toEqual([])
  })

  it("a field Medusa stops reading is named (the run then reads the cart itself)", () => {
    const installed = installedRefreshFields()!
    expect(
      uncoveredFields(
        installed.filter((f) => f !== "customer.groups.*"),
        fieldsFromRefreshRead(),
      ),
    ).toEqual(["customer.groups.id"])
    expect(uncoveredFields(["items.id"], ["items.quantity", "items.id", "id"])).toEqual(["items.quantity", "id"])
  })

  it("the list is found in core-flows' compiled form only", () => {
    expect(refreshFieldsOf('exports.cartFieldsForRefreshSteps = [\n  "id",\n  "items.*",\n];')).toEqual(["id", "items.*"])
    expect(refreshFieldsOf("exports.cartFieldsForRefreshSteps = void 0;")).toBeUndefined()
    expect(refreshFieldsOf(undefined)).toBeUndefined()
  })
})
