import * as coreFlows from "@medusajs/core-flows"
import * as utils from "@medusajs/framework/utils"
import CartModule from "@medusajs/cart"
import * as cartModels from "@medusajs/cart/dist/models"
import { directTaxRunOn, setDirectTaxRun } from "./update-tax-lines"
import { nestedRunOn, setNestedRun } from "./nested-workflow"
import { cartRestoreOn, setCartRestore } from "./cart-restore"
import { orderSalesOn, setOrderSales } from "./order-sales-by-state"
import { installedMedusaVersion } from "./medusa-range"
import {
  MEDUSA_ASSUMPTIONS,
  checkMedusaAssumptions,
  installedSurface,
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

  /** The provider's own read of the context (tax-line-context-fallback.ts) cannot run in this app. */
  const noReader = { taxLineContextFallback: ["the cart module has no Query entity line_item"] }

  it("a Medusa without the setTaxLineContext hooks (2.15, 2.16): nothing logged, the provider's own read replaces them", () => {
    const r = recorder()
    const surface: MedusaSurface = {
      ...installed,
      workflows: {
        ...without("updateTaxLinesWorkflow", "setTaxLineContext").workflows,
        upsertTaxLinesWorkflow: undefined,
        updateOrderTaxLinesWorkflow: { hooks: {} },
      },
      files: { taxLineContextFallback: [] },
    }
    expect(checkMedusaAssumptions(r.log, surface, "2.16.0")).toBeNull()
    expect(r.errors).toEqual([])
  })

  it("a workflow without the setTaxLineContext hook and no read to replace it: ONE error naming Medusa's version, the hook and what is turned off", () => {
    const r = recorder()
    const msg = checkMedusaAssumptions(r.log, { ...without("updateTaxLinesWorkflow", "setTaxLineContext"), files: noReader }, "2.18.0")
    expect(r.errors).toEqual([msg])
    expect(r.warnings).toEqual([])
    expect(msg).toBe(
      "sales-tax: Medusa 2.18.0 lacks a feature this plugin uses: updateTaxLinesWorkflow.hooks.setTaxLineContext " +
        "(and its replacement, the provider's read of the cart or order through Query) [the cart module has no Query entity line_item] is missing, " +
        "so cart tax: its tax-line context is not passed (discounts are not seen, items and shipping are quoted separately, " +
        "tax-inclusive prices are quoted as tax-exclusive). Supported Medusa versions: see the plugin's README (Compatibility).",
    )
  })

  it("below the oldest supported Medusa: ONE error naming the installed version and the minimum, not the list", () => {
    const r = recorder()
    const surface: MedusaSurface = {
      ...installed,
      workflows: { ...installed.workflows, upsertTaxLinesWorkflow: undefined },
      files: noReader,
    }
    const msg = checkMedusaAssumptions(r.log, surface, "2.14.2")
    expect(r.errors).toEqual([msg])
    expect(msg).toBe(
      "sales-tax: Medusa 2.14.2 is older than this plugin supports (2.15.0 or newer): update @medusajs/* to 2.15.0 or newer. " +
        "Until then US carts are refused at completion (sales_tax_medusa_unsupported), so no US order is placed untaxed.",
    )
    // below the minimum with nothing missing: the same one error
    const quiet = recorder()
    expect(checkMedusaAssumptions(quiet.log, installed, "2.13.0")).toContain("Medusa 2.13.0 is older than this plugin supports")
    expect(quiet.errors).toHaveLength(1)
  })

  it("runs from the boot checks (onApplicationStart): the missing hook's error is logged and returned", async () => {
    const r = recorder()
    const out = await runProviderBootChecks(r.log, { ...without("updateTaxLinesWorkflow", "setTaxLineContext"), files: noReader })
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatch(
      /^sales-tax: Medusa \S+ lacks a feature this plugin uses: updateTaxLinesWorkflow.hooks.setTaxLineContext \(and its replacement/,
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
      files: noReader,
    }
    checkMedusaAssumptions(r.log, surface, "2.17.0")
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toContain("Medusa 2.17.0 lacks 3 features")
    expect(r.errors[0]).toContain(
      "upsertTaxLinesWorkflow.hooks.setTaxLineContext (and its replacement, the provider's read of the cart or order through Query) [the cart module has no Query entity line_item] is missing, so cart tax on new lines",
    )
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
      { ...without("updateOrderTaxLinesWorkflow", "setTaxLineContext"), files: noReader },
      "2.18.0",
    )
    expect(warnings).toEqual([msg])
    expect(msg).toContain("updateOrderTaxLinesWorkflow.hooks.setTaxLineContext (and its replacement")
    expect(msg).toContain("is missing, so order edits, exchanges and claims")
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

describe("the boot check of src/medusa's reach-ins (issue 28, one boundary)", () => {
  /** The installed Medusa, every part checked; the Cart Module as its class (no app is running). */
  const full = (): MedusaSurface => ({
    ...installedSurface(),
    cart: { service: (CartModule as unknown as { service: { prototype: object } }).service.prototype, models: cartModels as never },
  })
  afterEach(() => {
    setDirectTaxRun(true)
    setNestedRun(true)
    setCartRestore(true)
    setOrderSales(true)
  })

  it("the installed Medusa meets every file, route and module assumption: nothing logged, nothing turned off", () => {
    const r = recorder()
    expect(missingMedusaAssumptions(full())).toEqual([])
    expect(checkMedusaAssumptions(r.log, full(), "2.21.2")).toBeNull()
    expect([r.errors, r.warnings]).toEqual([[], []])
    expect([directTaxRunOn(), nestedRunOn(), cartRestoreOn(), orderSalesOn()]).toEqual([true, true, true, true])
  })

  it("covers the one setTaxLineContext handler on all three workflows, and the completion's validate hook", () => {
    const names = MEDUSA_ASSUMPTIONS.map((a) => a.name)
    for (const w of ["updateTaxLinesWorkflow", "upsertTaxLinesWorkflow", "updateOrderTaxLinesWorkflow"])
      expect(names).toContain(`${w}.hooks.setTaxLineContext (and its replacement, the provider's read of the cart or order through Query)`)
    const r = recorder()
    const msg = checkMedusaAssumptions(r.log, without("completeCartWorkflow", "validate"), "2.18.0")
    expect(r.errors).toEqual([msg])
    expect(msg).toContain(
      "completeCartWorkflow.hooks.validate is missing, so the completion refusals: an unquotable US destination, a currency other than USD and a cart changed after its tax refresh are not refused",
    )
  })

  it("a changed updateTaxLinesWorkflow: ONE error, and the refresh hook's direct run is turned off", () => {
    const r = recorder()
    const s = full()
    s.files = { ...s.files, updateTaxLines: ["its cart fields changed (added: customer.has_account; removed: none)"] }
    const msg = checkMedusaAssumptions(r.log, s, "2.22.0")
    expect(msg).toBe(
      "sales-tax: Medusa 2.22.0 lacks a feature this plugin uses: @medusajs/core-flows updateTaxLinesWorkflow (its cart fields and steps, src/medusa/update-tax-lines.ts) is missing, " +
        "so the refresh hook's direct tax run: updateTaxLinesWorkflow runs instead (6 SQL statements more per store cart mutation). Supported Medusa versions: see the plugin's README (Compatibility).",
    )
    expect(r.errors).toEqual([msg])
    expect([directTaxRunOn(), nestedRunOn(), cartRestoreOn(), orderSalesOn()]).toEqual([false, true, true, true])
  })

  it("a Cart Module without a method the restore calls: the restore is turned off; a missing route names the draft-order guard", () => {
    const r = recorder()
    const s = full()
    const { updateAddresses: _gone, ...service } = Object.fromEntries(
      ["deleteLineItems", "restoreLineItems", "updateLineItems", "deleteShippingMethods", "restoreShippingMethods", "updateShippingMethods"]
        .concat(["setLineItemAdjustments", "setShippingMethodAdjustments", "setLineItemTaxLines", "setShippingMethodTaxLines"])
        .concat(["updateAddresses", "updateCarts"])
        .map((m) => [m, () => undefined]),
    )
    s.cart = { service, models: undefined }
    s.routeFile = () => false
    const msg = checkMedusaAssumptions(r.log, s, "2.22.0")!
    expect(r.errors).toEqual([msg])
    expect(msg).toContain("Medusa 2.22.0 lacks 2 features")
    expect(msg).toContain(
      "the cart restore writes (src/medusa/cart-restore.ts) is missing, so the restore of a cart after the request that discovers an outage",
    )
    expect(msg).toContain(
      "POST /admin/draft-orders/:id/convert-to-order (src/medusa/draft-order-convert-route.ts) is missing, so the draft-order conversion guard",
    )
    expect(cartRestoreOn()).toBe(false)
  })

  it("at start, the Order Module's tables are read once: a missing column turns the nexus sales off, in the ONE error", async () => {
    const r = recorder()
    const queries: string[] = []
    const pg = {
      raw: async (sql: string) => {
        queries.push(sql)
        return { rows: [{ table_name: "order", column_name: "id" }] }
      },
    }
    const s = full()
    s.files = { ...s.files, nestedWorkflow: ["runAsStep's context sets lockOwner too"] }
    const out = await runProviderBootChecks(r.log, s, pg)
    expect(queries).toHaveLength(1)
    expect(r.errors).toHaveLength(1)
    expect(out).toEqual(r.errors)
    expect(r.errors[0]).toContain("lacks 2 features")
    expect(r.errors[0]).toContain(
      "the Order Module's tables and columns the nexus sales statement reads (src/medusa/order-sales-by-state.ts) is missing, so the nexus report's sales per state",
    )
    expect(r.errors[0]).toContain("runAsStep's nested-run context (src/medusa/nested-workflow.ts) is missing")
    expect([directTaxRunOn(), nestedRunOn(), cartRestoreOn(), orderSalesOn()]).toEqual([true, false, true, false])
  })

  it("the app's error handler: a Medusa without errorHandler, or whose router ignores a middlewares file's, is named", () => {
    const r = recorder()
    const s = full()
    s.http = { ...s.http, errorHandler: undefined }
    expect(checkMedusaAssumptions(r.log, s, "2.22.0")).toContain(
      "src/medusa/error-handler.ts) is missing, so the 400 for an undecodable path of the plugin's routes (Medusa answers 500)",
    )
    const t = full()
    t.files = { ...t.files, errorHandlerRouting: ["Medusa's router no longer uses a middlewares file's errorHandler"] }
    expect(missingMedusaAssumptions(t).map((a) => a.name)).toEqual([
      "@medusajs/framework/http errorHandler, used in place of a middlewares file's errorHandler (src/medusa/error-handler.ts)",
    ])
  })

  it("the store cart routes: a route that no longer answers with the cart is named, with what is lost", () => {
    const r = recorder()
    const s = full()
    s.files = { ...s.files, storeCartRoutes: ["api/store/carts/[id]/promotions/route.js: no res.json answer with `cart`"] }
    expect(checkMedusaAssumptions(r.log, s, "2.22.0")).toContain(
      "the store cart routes' one res.json answer with the cart (src/medusa/store-cart-routes.ts) is missing, so the refresh after a store cart route",
    )
  })

  it("the root middleware and a module's database connection: each named, with what is lost, nothing turned off", () => {
    const r = recorder()
    const s = full()
    s.files = { ...s.files, rootMiddleware: ["Medusa's router no longer registers a root middleware first"], pgConnection: ["gone"] }
    const msg = checkMedusaAssumptions(r.log, s, "2.22.0")
    expect(msg).toContain("(src/medusa/root-middleware.ts) is missing, so nothing is turned off, but the hostile-input guard")
    expect(msg).toContain("(src/medusa/order-sales-by-state.ts) is missing, so the start-up check of the Order Module's tables is skipped")
    expect([directTaxRunOn(), nestedRunOn(), cartRestoreOn(), orderSalesOn()]).toEqual([true, true, true, true])
  })
})
