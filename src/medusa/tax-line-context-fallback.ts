/**
 * The tax-line context on a Medusa without the setTaxLineContext hooks (core-flows before 2.17): the
 * provider gets line and shipping-method ids only, so it finds their cart or order through Query (on
 * the request's container, else the app's) and builds the context the hooks would have.
 * BOUNDARY. Assumes: the Cart Module's Query entities `line_item` and `shipping_method` carry
 * `cart_id`, the Order Module's `order_item` links `item_id` to `order_id`; outside a request,
 * @medusajs/framework's `container` is the app's. Buys: TICs, origins, discounts, exemptions, one
 * service call per cart state on 2.15-2.16. Contract test: tax-line-context-fallback.test.ts.
 * Boot check: boot-check.ts (the hooks, else this reader's entities).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { Modules } from "@medusajs/framework/utils"
import { graph, type QueryScope } from "../query"

/** The workflows whose setTaxLineContext hook carries the context, per what they tax. */
export const TAX_LINE_CONTEXT_WORKFLOWS = {
  cart: ["updateTaxLinesWorkflow", "upsertTaxLinesWorkflow"],
  order: ["updateOrderTaxLinesWorkflow"],
} as const

/** The Query entities (and fields) the reader relies on, per module: checked by the contract test and at boot. */
export const FALLBACK_QUERY_ENTITIES = {
  cart: { line_item: ["id", "cart_id"], shipping_method: ["id", "cart_id"] },
  order: { order_item: ["item_id", "order_id"] },
} as const

/** Pure: whether the installed core-flows `workflows` lack the cart (or order) tax-line context hook. */
export function lacksTaxLineContextHook(workflows: Record<string, unknown>, kind: "cart" | "order"): boolean {
  return TAX_LINE_CONTEXT_WORKFLOWS[kind].some((name) => {
    const hooks = (workflows[name] as { hooks?: Record<string, unknown> } | undefined)?.hooks
    return typeof hooks?.setTaxLineContext !== "function"
  })
}

let lacking: boolean | undefined
/** Whether the app's core-flows lacks the tax-line context hooks (then the provider reads the context itself); read once. */
export function taxLineContextFallbackOn(): boolean {
  if (lacking === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const workflows = require("@medusajs/core-flows") as Record<string, unknown>
      lacking = lacksTaxLineContextHook(workflows, "cart") || lacksTaxLineContextHook(workflows, "order")
    } catch {
      lacking = false
    }
  }
  return lacking
}
/** Tests: force the answer (undefined: read the installed core-flows again). */
export function setTaxLineContextFallback(on: boolean | undefined): void {
  lacking = on
}

/** The app's root container (Query registered on it), or undefined outside a booted app (or another copy of the framework). */
export function appContainer(): MedusaContainer | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { container } = require("@medusajs/framework") as { container?: MedusaContainer }
    return typeof container?.hasRegistration === "function" && container.hasRegistration("query") ? container : undefined
  } catch {
    return undefined
  }
}

/** What the provider's lines belong to. */
export interface LinesOwner {
  entity: "cart" | "order"
  id: string
}

/**
 * The cart or order of the lines the provider was handed (one Query per entity tried: cart lines,
 * then cart shipping methods, then order items); undefined when none is found (an order's line not
 * on it yet: an edit's or an exchange's new line).
 */
export async function linesOwner(
  scope: QueryScope,
  itemIds: readonly string[],
  shippingIds: readonly string[],
): Promise<LinesOwner | undefined> {
  if (itemIds.length) {
    const [line] = await graph<{ cart_id?: string | null }>(scope, {
      entity: "line_item",
      fields: FALLBACK_QUERY_ENTITIES.cart.line_item,
      filters: { id: [...itemIds] },
      pagination: { take: 1 },
    })
    if (line?.cart_id) return { entity: "cart", id: line.cart_id }
  }
  if (shippingIds.length) {
    const [sm] = await graph<{ cart_id?: string | null }>(scope, {
      entity: "shipping_method",
      fields: FALLBACK_QUERY_ENTITIES.cart.shipping_method,
      filters: { id: [...shippingIds] },
      pagination: { take: 1 },
    })
    if (sm?.cart_id) return { entity: "cart", id: sm.cart_id }
  }
  if (itemIds.length) {
    const [item] = await graph<{ order_id?: string | null }>(scope, {
      entity: "order_item",
      fields: FALLBACK_QUERY_ENTITIES.order.order_item,
      filters: { item_id: [...itemIds] },
      pagination: { take: 1 },
    })
    if (item?.order_id) return { entity: "order", id: item.order_id }
  }
  return undefined
}

/** A module's Query aliases as its joiner config lists them (`alias[].name`: a name or [singular, plural]). */
export interface JoinerLike {
  alias?: readonly { name?: string | readonly string[] }[] | { name?: string | readonly string[] }
}

/** Pure: the names a joiner config answers to. */
export function joinerAliases(j: JoinerLike | undefined): string[] {
  const list = j?.alias === undefined ? [] : Array.isArray(j.alias) ? j.alias : [j.alias]
  return list.flatMap((a: { name?: string | readonly string[] }) =>
    a.name === undefined ? [] : typeof a.name === "string" ? [a.name] : [...a.name],
  )
}

/** Pure: what the reader needs and the app lacks (empty: it holds): the modules' Query entities. */
export function readerDifferences(joiners: Record<keyof typeof FALLBACK_QUERY_ENTITIES, JoinerLike | undefined>): string[] {
  const out: string[] = []
  for (const [mod, entities] of Object.entries(FALLBACK_QUERY_ENTITIES) as [keyof typeof FALLBACK_QUERY_ENTITIES, object][]) {
    const names = joinerAliases(joiners[mod])
    for (const e of Object.keys(entities)) if (!names.includes(e)) out.push(`the ${mod} module has no Query entity ${e}`)
  }
  return out
}

/** readerDifferences of the booted app (its Cart and Order Modules' joiner configs, its container). */
export function fallbackReaderDifferences(): string[] {
  const joinerOf = (key: string): JoinerLike | undefined => {
    const inst = MedusaModule.getModuleInstance(key) as Record<string, { __joinerConfig?: () => JoinerLike }> | undefined
    const svc = Object.values(inst ?? {})[0]
    return typeof svc?.__joinerConfig === "function" ? svc.__joinerConfig() : undefined
  }
  return readerDifferences({ cart: joinerOf(Modules.CART), order: joinerOf(Modules.ORDER) })
}
