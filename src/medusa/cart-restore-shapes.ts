/** What cart-restore.ts assumes of the Cart Module (methods, columns), for its contract test and the boot check. */
import {
  ADDRESSES,
  ADDRESS_COLUMNS,
  ADJUSTMENT_COLUMNS,
  CART_COLUMNS,
  CART_RESTORE_METHODS,
  DERIVED,
  KINDS,
  LINE_KINDS,
  SHIPPING_ADJUSTMENT_COLUMNS,
  TAX_LINE_COLUMNS,
} from "./cart-restore"

/** Per Cart Module model (as @medusajs/cart/dist/models names it): the columns the restore reads and writes. */
export const CART_RESTORE_COLUMNS: Record<string, readonly string[]> = {
  Cart: [...CART_COLUMNS, ...ADDRESSES, ...KINDS],
  Address: ADDRESS_COLUMNS,
  LineItem: [...Object.keys(LINE_KINDS.items.values), ...DERIVED],
  ShippingMethod: [...Object.keys(LINE_KINDS.shipping_methods.values), ...DERIVED],
  LineItemTaxLine: [...TAX_LINE_COLUMNS, "item"],
  ShippingMethodTaxLine: [...TAX_LINE_COLUMNS, "shipping_method"],
  LineItemAdjustment: [...ADJUSTMENT_COLUMNS, "item"],
  ShippingMethodAdjustment: [...SHIPPING_ADJUSTMENT_COLUMNS, "shipping_method"],
}

/** The Cart Module's service (an instance or its class's prototype) and its models' schemas. */
export interface CartSurface {
  service: object | undefined
  models: Record<string, { schema?: Record<string, unknown> } | undefined> | undefined
}

function methodsOf(o: object): Set<string> {
  const names = new Set<string>()
  for (let p: object | null = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p))
    for (const n of Object.getOwnPropertyNames(p)) names.add(n)
  return names
}

/** What the Cart Module lacks of the restore's assumptions; empty: it holds. Pure over `s`. */
export function cartRestoreDifferences(s: CartSurface): string[] {
  const out: string[] = []
  if (!s.service) out.push("no Cart Module")
  else {
    const has = methodsOf(s.service)
    const missing = CART_RESTORE_METHODS.filter((m) => !has.has(m))
    if (missing.length) out.push(`the Cart Module lacks ${missing.join(", ")}`)
  }
  if (s.models) {
    for (const [model, cols] of Object.entries(CART_RESTORE_COLUMNS)) {
      const schema = s.models[model]?.schema
      if (!schema) {
        out.push(`the Cart Module has no model ${model}`)
        continue
      }
      const missing = cols.filter((c) => !(c in schema))
      if (missing.length) out.push(`${model} lacks ${missing.join(", ")}`)
    }
  }
  return out
}
