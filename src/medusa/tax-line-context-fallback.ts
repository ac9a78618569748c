/**
 * BOUNDARY: on a Medusa without the setTaxLineContext hooks the provider gets line and shipping-method
 * ids only: it finds their cart or order through Query and builds the context the hooks would have.
 * Assumes: FALLBACK_QUERY_ENTITIES; outside a request, @medusajs/framework's `container` is the app's.
 * Contract test: tax-line-context-fallback.test.ts. Boot check: boot-check.ts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaModule } from "@medusajs/framework/modules-sdk"
import { Modules } from "@medusajs/framework/utils"
import { graph, type QueryScope } from "../query"
import { runtimeSlot, type SalesTaxRuntime } from "../runtime"
import type { TaxedItem, TaxedShipping } from "./taxed-entity"
import { hasHook } from "./workflow-hooks"

export const TAX_LINE_CONTEXT_WORKFLOWS = {
  cart: ["updateTaxLinesWorkflow", "upsertTaxLinesWorkflow"],
  order: ["updateOrderTaxLinesWorkflow"],
} as const

/** The Query entities (and fields) the reader relies on, per module. */
export const FALLBACK_QUERY_ENTITIES = {
  cart: { line_item: ["id", "cart_id", "is_giftcard"], shipping_method: ["id", "cart_id"] },
  order: {
    order_item: ["item_id", "order_id"],
    order_line_item: ["id"],
    order_shipping_method: ["id"],
    order_exchange: ["order_id"],
    order_claim: ["order_id"],
    return: ["order_id"],
  },
} as const

/** Pure: whether the installed core-flows `workflows` lack the cart (or order) tax-line context hook. */
export function lacksTaxLineContextHook(workflows: Record<string, unknown>, kind: "cart" | "order"): boolean {
  return TAX_LINE_CONTEXT_WORKFLOWS[kind].some((name) => !hasHook(workflows[name], "setTaxLineContext"))
}

/** Whether the provider reads the context itself; in the runtime: the provider and src/workflows are separate module instances. */
const fallback = runtimeSlot("taxLineContextFallback", () => ({ on: false }))
export function noteTaxLineContextHooks(workflows: Record<string, unknown>, rt?: SalesTaxRuntime): boolean {
  fallback(rt).on = lacksTaxLineContextHook(workflows, "cart") || lacksTaxLineContextHook(workflows, "order")
  return fallback(rt).on
}

export function taxLineContextFallbackOn(rt?: SalesTaxRuntime): boolean {
  return fallback(rt).on
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

/** What the provider's lines belong to (with an order's new lines); `giftCards`: those a tax step handed over anyway. */
export interface LinesOwner {
  entity: "cart" | "order"
  id: string
  giftCards?: string[]
  newItems?: TaxedItem[]
  newShipping?: TaxedShipping[]
}

/** The admin routes whose tax runs add lines not on the order yet: the Query entity the path's id names. */
const ORDER_ROUTES: Record<string, "order" | "order_exchange" | "order_claim" | "return"> = {
  orders: "order",
  "order-edits": "order",
  "draft-orders": "order",
  exchanges: "order_exchange",
  claims: "order_claim",
  returns: "return",
}

/** Pure: the order entity an admin request's path names (`/admin/exchanges/exc_1/outbound/items` → order_exchange exc_1). */
export function routeOrderRef(path: string | undefined): { entity: (typeof ORDER_ROUTES)[string]; id: string } | undefined {
  const m = /^\/admin\/([a-z-]+)\/([^/?#]+)/.exec(path ?? "")
  const entity = m ? ORDER_ROUTES[m[1]!] : undefined
  return entity && m ? { entity, id: decodeURIComponent(m[2]!) } : undefined
}

/** The cart or order of the lines the provider was handed (else the order the admin path names), or undefined. */
export async function linesOwner(
  scope: QueryScope,
  itemIds: readonly string[],
  shippingIds: readonly string[],
  requestPath?: string,
): Promise<LinesOwner | undefined> {
  const first = async (ids: readonly string[], entity: string, key: string, fields: readonly string[], owner: string) => {
    if (!ids.length) return undefined
    const [row] = await graph<Record<string, string | null | undefined>>(scope, {
      entity,
      fields: [...fields],
      filters: { [key]: [...ids] },
      pagination: { take: 1 },
    })
    return row?.[owner] ?? undefined
  }
  const byId = <T>(entity: string, fields: readonly string[], ids: readonly string[]) =>
    ids.length ? graph<T>(scope, { entity, fields: [...fields], filters: { id: [...ids] } }) : undefined
  const { cart, order } = FALLBACK_QUERY_ENTITIES
  // every line: which are gift cards
  const lines =
    (await byId<{ id: string; cart_id?: string | null; is_giftcard?: boolean | null }>("line_item", cart.line_item, itemIds)) ?? []
  const cartId =
    lines.find((l) => l.cart_id)?.cart_id ?? (await first(shippingIds, "shipping_method", "id", cart.shipping_method, "cart_id"))
  if (cartId) return { entity: "cart", id: cartId, giftCards: lines.filter((l) => l.is_giftcard).map((l) => l.id) }
  // lines on the order (a draft order's, an order's creation: the whole order is taxed)
  const ownerOrder = await first(itemIds, "order_item", "item_id", order.order_item, "order_id")
  if (ownerOrder) return { entity: "order", id: ownerOrder }
  const ref = routeOrderRef(requestPath)
  if (!ref) return undefined
  let orderId: string | undefined = ref.id
  if (ref.entity !== "order") {
    const [row] = await graph<{ order_id?: string | null }>(scope, { entity: ref.entity, fields: ["order_id"], filters: { id: ref.id } })
    orderId = row?.order_id ?? undefined
  }
  if (!orderId) return undefined
  const [newItems, newShipping] = await Promise.all([
    byId<TaxedItem>(
      "order_line_item",
      ["id", "product_id", "variant_id", "quantity", "unit_price", "is_tax_inclusive", "is_giftcard"],
      itemIds,
    ),
    byId<TaxedShipping>("order_shipping_method", ["id", "shipping_option_id", "amount", "is_tax_inclusive"], shippingIds),
  ])
  return { entity: "order", id: orderId, ...(newItems ? { newItems } : {}), ...(newShipping ? { newShipping } : {}) }
}

/** A module's Query aliases as its joiner config lists them (`alias[].name`: a name or [singular, plural]). */
export interface JoinerLike {
  alias?: readonly { name?: string | readonly string[] }[] | { name?: string | readonly string[] }
}

export function joinerAliases(j: JoinerLike | undefined): string[] {
  return [j?.alias ?? []].flat().flatMap((a) => [a.name ?? []].flat())
}

/** Pure: what the reader needs and the app lacks (empty: it holds): the modules' Query entities. */
export function readerDifferences(joiners: Record<keyof typeof FALLBACK_QUERY_ENTITIES, JoinerLike | undefined>): string[] {
  const out: string[] = []
  for (const [mod, entities] of Object.entries(FALLBACK_QUERY_ENTITIES) as [keyof typeof FALLBACK_QUERY_ENTITIES, object][]) {
    // a module this copy of the framework does not see (not loaded, or another copy's): not checked
    if (!joiners[mod]) continue
    const names = joinerAliases(joiners[mod])
    for (const e of Object.keys(entities)) if (!names.includes(e)) out.push(`the ${mod} module has no Query entity ${e}`)
  }
  return out
}

export function fallbackReaderDifferences(): string[] {
  const joinerOf = (key: string): JoinerLike | undefined => {
    const inst = MedusaModule.getModuleInstance(key) as Record<string, { __joinerConfig?: () => JoinerLike }> | undefined
    const svc = Object.values(inst ?? {})[0]
    return typeof svc?.__joinerConfig === "function" ? svc.__joinerConfig() : undefined
  }
  return readerDifferences({ cart: joinerOf(Modules.CART), order: joinerOf(Modules.ORDER) })
}
