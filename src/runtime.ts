// The plugin's process state, in one object. Medusa loads the plugin's parts as separate module
// instances, so module-level state would not be shared: the runtime is registered in the salesTax
// module's container and held on `globalThis` (under a registered symbol) for code without it.
// Each feature keeps its state in a slot of its own (`runtimeSlot`), so this file imports nothing from the wings.
/** The key of the runtime in the salesTax module's container (and the module service's `runtime`). */
export const SALES_TAX_RUNTIME = "salesTaxRuntime"

export class SalesTaxRuntime {
  /** TIC assignment changes seen by this process (src/service/tics/product-tic-cache.ts). */
  ticGeneration = 0
  /** Per-feature state, by slot name (runtimeSlot). */
  readonly slots = new Map<string, unknown>()
}

const KEY = Symbol.for("medusa-sales-tax/runtime")
type Holder = { [KEY]?: SalesTaxRuntime }

/** The process's runtime (created on first use). */
export function salesTaxRuntime(): SalesTaxRuntime {
  return ((globalThis as Holder)[KEY] ??= new SalesTaxRuntime())
}

/** Tests: a fresh runtime for this process (every slot empty), returned. */
export function resetRuntime(): SalesTaxRuntime {
  return ((globalThis as Holder)[KEY] = new SalesTaxRuntime())
}

/** A feature's slot: its accessor, which makes the state with `init` on a runtime's first use. */
export function runtimeSlot<T>(name: string, init: () => T): (rt?: SalesTaxRuntime) => T {
  return (rt = salesTaxRuntime()) => {
    if (!rt.slots.has(name)) rt.slots.set(name, init())
    return rt.slots.get(name) as T
  }
}

/** A value one wing registers in the plugin's runtime and another reads: its setter and its getter. */
export function registration<T>(name: string) {
  const slot = runtimeSlot(name, (): { value?: T } => ({}))
  const set = (value: T | undefined, rt: SalesTaxRuntime = salesTaxRuntime()): void => {
    slot(rt).value = value
  }
  const get = (rt: SalesTaxRuntime = salesTaxRuntime()): T | undefined => slot(rt).value
  return [set, get] as const
}

/** Anything with `resolve` (a Medusa container, a request scope, a module's container). */
export interface ScopeLike {
  resolve(key: string, opts?: { allowUnregistered?: boolean }): unknown
}

/** What `scope` holds under `key`, or undefined (unregistered, or a container that throws). */
export function tryResolve(scope: ScopeLike, key: string): unknown {
  try {
    return scope.resolve(key, { allowUnregistered: true })
  } catch {
    return undefined // a container that throws on an unknown key
  }
}

function isRuntime(v: unknown): v is SalesTaxRuntime {
  // duck-typed: a copy of this file loaded as another module instance has another class
  return typeof v === "object" && v !== null && (v as Partial<SalesTaxRuntime>).slots instanceof Map
}

/** The runtime `scope` holds (as `salesTaxRuntime`, or the salesTax module's `runtime`), else the process's. */
export function runtimeOf(scope?: ScopeLike | null): SalesTaxRuntime {
  if (scope && typeof scope.resolve === "function") {
    const own = tryResolve(scope, SALES_TAX_RUNTIME)
    if (isRuntime(own)) return own
    const mod = tryResolve(scope, "salesTax") as { runtime?: unknown } | undefined
    if (mod && typeof mod === "object" && isRuntime(mod.runtime)) return mod.runtime
  }
  return salesTaxRuntime()
}

/** A dependency in the cradle Medusa constructs a module service or provider with, or undefined. */
export function fromCradle(deps: unknown, key: string): unknown {
  try {
    return (deps as Record<string, unknown> | undefined)?.[key]
  } catch {
    return undefined // a cradle throws on a key it does not hold
  }
}

/** The runtime among a module service's dependencies, else the process's. */
export function runtimeFromDeps(deps: unknown): SalesTaxRuntime {
  const rt = fromCradle(deps, SALES_TAX_RUNTIME)
  return isRuntime(rt) ? rt : salesTaxRuntime()
}

/** Stores `v` under `k` in a memo that is emptied when it holds `max` entries; returns `v`. */
export function memoSet<K, V>(m: Map<K, V>, k: K, v: V, max = 20_000): V {
  if (m.size >= max) m.clear()
  m.set(k, v)
  return v
}
