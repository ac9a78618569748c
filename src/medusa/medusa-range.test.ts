/** Contract: the app's Medusa version and the oldest one the plugin runs on (medusa-range.ts). */
import {
  MEDUSA_MINIMUM,
  belowMinimumError,
  installedMedusaVersion,
  medusaBelowMinimum,
  unsupportedMedusaMessage,
  versionBelow,
} from "./medusa-range"

describe("the supported Medusa range", () => {
  it("the installed @medusajs/medusa's version is read, and it is not below the minimum", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(installedMedusaVersion()).toBe((require("@medusajs/medusa/package.json") as { version: string }).version)
    expect(medusaBelowMinimum()).toBe(false)
    expect(MEDUSA_MINIMUM).toBe("2.15.0")
  })

  it("versionBelow compares major.minor.patch numerically; unreadable versions are not below", () => {
    expect(versionBelow("2.14.2")).toBe(true)
    expect(versionBelow("2.13.0")).toBe(true)
    expect(versionBelow("1.20.0")).toBe(true)
    expect(versionBelow("2.15.0")).toBe(false)
    expect(versionBelow("2.15.3")).toBe(false)
    expect(versionBelow("2.21.2")).toBe(false)
    expect(versionBelow("2.100.0")).toBe(false)
    expect(versionBelow("2.22.0-snapshot-20260911212358")).toBe(false)
    expect(versionBelow("2.14.9-rc.1")).toBe(true)
    expect(versionBelow("(version unknown)")).toBe(false)
  })

  it("the boot error and the shopper's message name the installed version and the minimum", () => {
    expect(belowMinimumError("2.14.2")).toContain("Medusa 2.14.2 is older than this plugin supports (2.15.0 or newer)")
    expect(belowMinimumError("2.14.2")).toContain("sales_tax_medusa_unsupported")
    expect(unsupportedMedusaMessage("2.14.2")).toBe(
      "Sales tax cannot be calculated for this order: this store runs Medusa 2.14.2, older than the sales tax plugin supports (2.15.0).",
    )
  })
})
