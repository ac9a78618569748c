import * as coreFlows from "@medusajs/core-flows"
import * as utils from "@medusajs/framework/utils"
import {
  MEDUSA_ASSUMPTIONS,
  checkMedusaAssumptions,
  installedMedusaVersion,
  medusaAssumptionsError,
  missingMedusaAssumptions,
  runProviderBootChecks,
  type MedusaSurface,
  type WorkflowLike,
} from "./boot-check"

function recorder() {
  const errors: string[] = []
  const warnings: string[] = []
  return { errors, warnings, log: { error: (m: string) => errors.push(m), warn: (m: string) => warnings.push(m) } }
}

const installed: MedusaSurface = {
  workflows: coreFlows as unknown as Record<string, WorkflowLike>,
  utils: utils as unknown as Record<string, unknown>,
}

/** The installed Medusa with `workflow` replaced by a fake that has every hook of the real one but `hook`. */
function without(workflow: string, hook: string): MedusaSurface {
  const real = installed.workflows[workflow]!
  const hooks = Object.fromEntries(Object.entries(real.hooks ?? {}).filter(([name]) => name !== hook))
  return { ...installed, workflows: { ...installed.workflows, [workflow]: { hooks } } }
}

describe("the boot check of what the plugin assumes of Medusa", () => {
  it("the installed Medusa meets every assumption: nothing is logged", () => {
    const r = recorder()
    expect(missingMedusaAssumptions(installed)).toEqual([])
    expect(checkMedusaAssumptions(r.log, installed, "2.21.2")).toBeNull()
    expect(r.errors).toEqual([])
    expect(r.warnings).toEqual([])
  })

  it("a workflow without the setTaxLineContext hook: ONE error naming Medusa's version, the hook and what is turned off", () => {
    const r = recorder()
    const msg = checkMedusaAssumptions(r.log, without("updateTaxLinesWorkflow", "setTaxLineContext"), "2.18.0")
    expect(r.errors).toEqual([msg])
    expect(r.warnings).toEqual([])
    expect(msg).toBe(
      "sales-tax: Medusa 2.18.0 lacks a feature this plugin uses: updateTaxLinesWorkflow.hooks.setTaxLineContext is missing, " +
        "so cart tax: its tax-line context is not passed (discounts are not seen, items and shipping are quoted separately, " +
        "tax-inclusive prices are quoted as tax-exclusive). Supported Medusa versions: see the plugin's README (Compatibility).",
    )
  })

  it("runs from the boot checks (onApplicationStart): the missing hook's error is logged and returned", async () => {
    const r = recorder()
    const out = await runProviderBootChecks(r.log, without("updateTaxLinesWorkflow", "setTaxLineContext"))
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /^sales-tax: Medusa \S+ lacks a feature this plugin uses: updateTaxLinesWorkflow.hooks.setTaxLineContext is missing/,
    )
    expect(out).toEqual(r.errors)
    const quiet = recorder()
    expect(await runProviderBootChecks(quiet.log, installed)).toEqual([])
    expect(quiet.errors).toEqual([])
  })

  it("several missing pieces are still ONE error, listing each", () => {
    const r = recorder()
    const surface: MedusaSurface = {
      workflows: {
        ...without("refreshCartItemsWorkflow", "beforeRefreshingPaymentCollection").workflows,
        upsertTaxLinesWorkflow: undefined,
      },
      utils: { ...installed.utils, applyTranslationsToTaxLines: undefined },
    }
    checkMedusaAssumptions(r.log, surface, "2.17.0")
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain("Medusa 2.17.0 lacks 3 features")
    expect(r.errors[0]).toContain("upsertTaxLinesWorkflow.hooks.setTaxLineContext is missing, so cart tax on new lines")
    expect(r.errors[0]).toContain(
      "refreshCartItemsWorkflow.hooks.beforeRefreshingPaymentCollection is missing, so the one tax run inside Medusa's cart refresh: tax lines are refreshed after each store cart route instead",
    )
    expect(r.errors[0]).toContain("applyTranslationsToTaxLines is missing")
  })

  it("a Medusa without refreshPaymentCollectionForCartWorkflow: named, with what it turns off", () => {
    const r = recorder()
    const surface = { ...installed, workflows: { ...installed.workflows, refreshPaymentCollectionForCartWorkflow: undefined } }
    const msg = checkMedusaAssumptions(r.log, surface, "2.18.0")
    expect(r.errors).toEqual([msg])
    expect(msg).toContain(
      "@medusajs/core-flows refreshPaymentCollectionForCartWorkflow is missing, so the store cart routes' after-route tax refresh",
    )
  })

  it("a logger without error() gets the message as a warning", () => {
    const warnings: string[] = []
    const msg = checkMedusaAssumptions(
      { warn: (m) => warnings.push(m) },
      without("updateOrderTaxLinesWorkflow", "setTaxLineContext"),
      "2.18.0",
    )
    expect(warnings).toEqual([msg])
    expect(msg).toContain("updateOrderTaxLinesWorkflow.hooks.setTaxLineContext is missing, so order edits, exchanges and claims")
  })

  it("an assumption whose check throws counts as missing", () => {
    const boom = {
      name: "x",
      present: () => {
        throw new Error("no")
      },
      without: "y",
    }
    expect(missingMedusaAssumptions(installed, [boom])).toEqual([boom])
  })

  it("medusaAssumptionsError is null with nothing missing; the version is the installed @medusajs/medusa's", () => {
    expect(medusaAssumptionsError("2.21.2", [])).toBeNull()
    expect(MEDUSA_ASSUMPTIONS.length).toBeGreaterThan(0)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(installedMedusaVersion()).toBe((require("@medusajs/medusa/package.json") as { version: string }).version)
  })
})
