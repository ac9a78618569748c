/**
 * The plugin's process state, in one object (issue 28: was eleven `globalThis[Symbol.for(…)]`
 * registries spread over the tree).
 *
 * Medusa loads the plugin's API, modules, providers and workflows as separate module instances
 * (and jest gives each test file its own module registry), so state kept in a module-level
 * variable of one file is not seen by the other copies of that file. The runtime is created once
 * per process and:
 * - registered in the salesTax module's container under `salesTaxRuntime` (asValue) by the
 *   module's loader (src/modules/sales-tax/loaders/runtime.ts: module loaders are the documented
 *   place where a plugin registers resources; Medusa gives a plugin no hook into its root
 *   container). The module's service takes it from its dependencies and exposes it as
 *   `runtime`, so anything holding Medusa's container (workflow hooks' `{ container }`, routes'
 *   `req.scope`) resolves it through `runtimeOf(container)`;
 * - held on `globalThis` under ONE registered symbol (below), for the code that has no container
 *   reaching the plugin's module: the tax provider (its deps are a child scope of the Tax
 *   Module's container, which does not hold the plugin's module), the hooks registered when
 *   Medusa imports src/workflows, src/api/middlewares.ts (loaded before any container exists),
 *   and a copy of a file loaded as another module instance (source and build, the API's copy).
 * Tests that reset this state take a fresh runtime with `resetRuntime()`.
 */
import { AsyncLocalStorage } from "node:async_hooks"
import { MemoryStore } from "./checkout/quote/result-cache"
import type { RateMemory } from "./modules/sales-tax/last-known-rates"
import type { TaxLineContextHandler } from "./checkout/hooks/tax-line-context-handler"
import type { CompletionScope } from "./checkout/hooks/complete-cart-guard"
import type { RequestScope } from "./checkout/hooks/request-actor"
import type { CartRefreshScope } from "./checkout/hooks/cart-refresh-scope"
import type { CertificateReviews, ListedCertificate } from "./checkout/exemptions/exemptions"
import type { QuoteHealth } from "./checkout/quote/health"
import type { RefusedLocation } from "./checkout/origins/origins"

/** The key of the runtime in the salesTax module's container (and the module service's `runtime`). */
export const SALES_TAX_RUNTIME = "salesTaxRuntime"

export class SalesTaxRuntime {
  /** TIC assignment changes seen by this process (src/modules/sales-tax/tic-generation.ts). */
  ticGeneration = 0
  /** The salesTax module's last-known-rate table, set when Medusa constructs the module's service. */
  rateMemory: RateMemory | undefined = undefined
  /** The certificate-origin table (review states), set likewise (src/checkout/exemptions/exemptions.ts). */
  certificateReviews: CertificateReviews | undefined = undefined
  /** Medusa lacks the setTaxLineContext hooks: the provider reads the context itself (src/medusa/tax-line-context-fallback.ts). */
  taxLineContextFallback = false
  /** The handler Medusa accepted on updateTaxLinesWorkflow's setTaxLineContext hook, if the plugin registered it. */
  updateTaxLinesHandler: TaxLineContextHandler | undefined = undefined
  /** A completion request's scope (src/checkout/hooks/complete-cart-guard.ts). */
  readonly completionScope = new AsyncLocalStorage<CompletionScope>()
  /** How many completions the `validate` handler compared, and refused. */
  readonly completionGuardStats = { checked: 0, refused: 0 }
  /** Who the current request is authenticated as (src/checkout/hooks/request-actor.ts). */
  readonly requestActor = new AsyncLocalStorage<RequestScope>()
  /** A store cart request's scope (src/checkout/hooks/cart-refresh-scope.ts). */
  readonly cartRefreshScope = new AsyncLocalStorage<CartRefreshScope>()
  /** Whether this process serves requests (src/core/serving.ts). */
  servesRequests = false
  /** Active certificates per customer (and connection), in process (src/checkout/exemptions/exemptions.ts). */
  readonly certificateCache = new MemoryStore<ListedCertificate[]>(10_000)
  /** The non-default connections whose certificate lists this process cached. */
  readonly certificateConnections = new Set<string>()
  /** Whether the checkout path is in an outage, as this process last saw it (src/checkout/quote/health.ts). */
  readonly quoteHealth: QuoteHealth = { outageAt: null, okAt: null }
  /** Locations whose address the service refused as an origin (src/checkout/origins/origins.ts). */
  readonly refusedLocations = new Map<string, RefusedLocation>()
}

// the one process-wide instance (see the header for who needs it)
const KEY = Symbol.for("medusa-sales-tax/runtime")
type Holder = { [KEY]?: SalesTaxRuntime }

/** The process's runtime (created on first use). */
export function salesTaxRuntime(): SalesTaxRuntime {
  const g = globalThis as Holder
  return (g[KEY] ??= new SalesTaxRuntime())
}

/** Tests: a fresh runtime for this process (every registry empty), returned. */
export function resetRuntime(): SalesTaxRuntime {
  return ((globalThis as Holder)[KEY] = new SalesTaxRuntime())
}

/** Anything with `resolve` (a Medusa container, a request scope, a module's container). */
interface ScopeLike {
  resolve(key: string, opts?: { allowUnregistered?: boolean }): unknown
}

function tryResolve(scope: ScopeLike, key: string): unknown {
  try {
    return scope.resolve(key, { allowUnregistered: true })
  } catch {
    return undefined // a container that throws on an unknown key
  }
}

function isRuntime(v: unknown): v is SalesTaxRuntime {
  // duck-typed: a copy of this file loaded as another module instance has another class
  return typeof v === "object" && v !== null && (v as Partial<SalesTaxRuntime>).refusedLocations instanceof Map
}

/**
 * The runtime as `scope` holds it: registered under `salesTaxRuntime` (the salesTax module's
 * container) or as the salesTax module's `runtime` (Medusa's container, a request scope); the
 * process's instance when the scope has neither (no scope, a host without the plugin's module).
 */
export function runtimeOf(scope?: ScopeLike | null): SalesTaxRuntime {
  if (scope && typeof scope.resolve === "function") {
    const own = tryResolve(scope, SALES_TAX_RUNTIME)
    if (isRuntime(own)) return own
    const mod = tryResolve(scope, "salesTax") as { runtime?: unknown } | undefined
    if (mod && typeof mod === "object" && isRuntime(mod.runtime)) return mod.runtime
  }
  return salesTaxRuntime()
}

/** The runtime among a module service's dependencies (the cradle Medusa constructs it with), else the process's. */
export function runtimeFromDeps(deps: unknown): SalesTaxRuntime {
  let rt: unknown
  try {
    rt = (deps as Record<string, unknown> | undefined)?.[SALES_TAX_RUNTIME]
  } catch {
    rt = undefined // a cradle throws on a key it does not hold
  }
  return isRuntime(rt) ? rt : salesTaxRuntime()
}
