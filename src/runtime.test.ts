import { asValue } from "@medusajs/framework/awilix"
import { createMedusaContainer } from "@medusajs/framework/utils"
import { memoSet, resetRuntime, runtimeFromDeps, runtimeOf, SALES_TAX_RUNTIME, SalesTaxRuntime, salesTaxRuntime } from "./runtime"
import { itemFigures, serviceCustomerId } from "./service/cart/build-service-cart"
import { solvedRate } from "./checkout/inclusive/back-solve"
import registerSalesTaxRuntime from "./modules/sales-tax/loaders/runtime"
import { isDegraded, markOutage, quoteHealth } from "./checkout/quote/health"
import { refusedLocations } from "./service/origins/origins"
import { completionGuardStats } from "./checkout/hooks/complete-cart-guard"
import { requestScope, runAsActor } from "./checkout/hooks/request-actor"
import { ticAssignmentsChanged, ticGeneration } from "./service/tics/product-tic-cache"
import { markServesRequests, servesRequests } from "./core/serving"

afterEach(() => resetRuntime())

describe("the plugin's runtime", () => {
  it("is one object per process until a test resets it; a reset starts every registry empty", () => {
    const first = salesTaxRuntime()
    expect(salesTaxRuntime()).toBe(first)
    markOutage(1)
    markServesRequests()
    ticAssignmentsChanged()
    completionGuardStats().checked++
    refusedLocations().set("sloc_1", {
      locationId: "sloc_1",
      name: null,
      address: { line1: "a", city: "b", state: "WA", zip: "98109" },
      reason: "x",
      at: "t",
    })
    expect([isDegraded(), servesRequests(), ticGeneration(), completionGuardStats().checked, refusedLocations().size]).toEqual([
      true,
      true,
      1,
      1,
      1,
    ])

    const fresh = resetRuntime()
    expect(fresh).not.toBe(first)
    expect(salesTaxRuntime()).toBe(fresh)
    expect([isDegraded(), servesRequests(), ticGeneration(), completionGuardStats().checked, refusedLocations().size]).toEqual([
      false,
      false,
      0,
      0,
      0,
    ])
    expect(quoteHealth()).toEqual({ outageAt: null, okAt: null })
    // the old one is left as it was (nothing shared between the two)
    expect([quoteHealth(first).outageAt, first.ticGeneration, refusedLocations(first).size]).toEqual([1, 1, 1])
  })

  it("checkout's memos are the runtime's (a reset forgets them); memoSet empties a memo when it is full", () => {
    const first = salesTaxRuntime()
    serviceCustomerId(null, "cart_1")
    itemFigures({ unit_price: "10", quantity: "1", discount: "0" })
    solvedRate({ taxable: "10", amount: "0.8" })
    expect(["serviceCarts", "solvedRates"].filter((k) => first.slots.has(k))).toEqual(["serviceCarts", "solvedRates"])
    expect(resetRuntime().slots.size).toBe(0)
    const m = new Map([["a", 1]])
    expect(memoSet(m, "b", 2, 2)).toBe(2)
    expect([...m]).toEqual([
      ["a", 1],
      ["b", 2],
    ])
    memoSet(m, "c", 3, 2)
    expect([...m]).toEqual([["c", 3]])
  })

  it("an accessor given a runtime reads and writes that runtime, not the process's", () => {
    const other = new SalesTaxRuntime()
    ticAssignmentsChanged(other)
    markServesRequests(other)
    expect([ticGeneration(other), servesRequests(other)]).toEqual([1, true])
    expect([ticGeneration(), servesRequests()]).toEqual([0, false])
    const actor = { actorType: "customer", actorId: "cus_1" }
    expect(runAsActor(actor, () => [requestScope()?.actor(), requestScope(other)], salesTaxRuntime())).toEqual([actor, undefined])
  })

  it("the salesTax module's loader registers the process's runtime in the module's container, where the service finds it among its dependencies", async () => {
    const moduleContainer = createMedusaContainer()
    await registerSalesTaxRuntime({ container: moduleContainer })
    expect(moduleContainer.resolve(SALES_TAX_RUNTIME)).toBe(salesTaxRuntime())
    expect(runtimeFromDeps(moduleContainer.cradle)).toBe(salesTaxRuntime())
    expect(runtimeOf(moduleContainer)).toBe(salesTaxRuntime())
    // a cradle without it (awilix throws on an unknown key): the process's
    const bare = createMedusaContainer()
    expect(() => (bare.cradle as Record<string, unknown>)[SALES_TAX_RUNTIME]).toThrow()
    expect(runtimeFromDeps(bare.cradle)).toBe(salesTaxRuntime())
    expect(runtimeFromDeps(undefined)).toBe(salesTaxRuntime())
  })

  it("runtimeOf: the container's registration, else the salesTax module's runtime, else the process's", () => {
    const registered = new SalesTaxRuntime()
    const ofModule = new SalesTaxRuntime()
    const both = createMedusaContainer()
    both.register(SALES_TAX_RUNTIME, asValue(registered))
    both.register("salesTax", asValue({ runtime: ofModule }))
    expect(runtimeOf(both)).toBe(registered)

    const app = createMedusaContainer()
    app.register("salesTax", asValue({ runtime: ofModule }))
    expect(runtimeOf(app)).toBe(ofModule)
    // a request scope of Medusa's container
    expect(runtimeOf(app.createScope())).toBe(ofModule)

    // a host without the plugin's module; a module without a runtime; a container that throws; none
    expect(runtimeOf(createMedusaContainer())).toBe(salesTaxRuntime())
    const noRuntime = createMedusaContainer()
    noRuntime.register("salesTax", asValue({ listTicAssignments: () => [] }))
    expect(runtimeOf(noRuntime)).toBe(salesTaxRuntime())
    expect(
      runtimeOf({
        resolve: () => {
          throw new Error("unexpected")
        },
      }),
    ).toBe(salesTaxRuntime())
    expect(runtimeOf(undefined)).toBe(salesTaxRuntime())
  })
})
