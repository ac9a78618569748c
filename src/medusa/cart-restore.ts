/**
 * BOUNDARY: "block means block": on `sales_tax_unavailable` the cart's state before the change is put
 * back under Medusa's cart lock, as Medusa's compensation misses part of it (a new address row stays
 * linked) and the promotions routes commit before the plugin's refresh.
 * Assumes: the Cart Module's methods and columns, the cart-promotion link. Contract test:
 * cart-restore-shapes.test.ts (`cartRestoreDifferences`). Boot check: off (`cartRestoreOn()`) when it differs; the 400 stands.
 */
import type { BigNumberValue, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { refreshPaymentCollectionForCartWorkflow } from "@medusajs/medusa/core-flows"
import { graph } from "../query"
import { amountNumber } from "../money/amount"
import { setSwitch, switchOn } from "./switches"

/** Pure: a JSON value with its objects' keys sorted (a jsonb column gives them back in its own order). */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical)
  if (!v || typeof v !== "object") return v
  const o = v as Record<string, unknown>
  const keys = Object.keys(o).sort()
  return Object.fromEntries(keys.map((k) => [k, canonical(o[k])]))
}

export interface LockingLike {
  execute<T>(keys: string | string[], job: () => Promise<T>, args?: { timeout?: number; expire?: number }): Promise<T>
}

/** The Locking Module, or undefined when the app registered none. */
export function lockingOf(scope: MedusaContainer): LockingLike | undefined {
  try {
    return scope.resolve<LockingLike>(Modules.LOCKING)
  } catch {
    return undefined
  }
}

/** An address, a tax line or an adjustment: compared and written back as content. */
type Row = Record<string, unknown>
interface LineRow {
  id: string
  quantity?: BigNumberValue | null
  unit_price?: BigNumberValue | null
  is_custom_price?: boolean | null
  amount?: BigNumberValue | null
  tax_lines?: Row[] | null
  adjustments?: Row[] | null
}
/** The Cart Module's writes, untyped: its input DTOs type nullable columns as non-null, the rows as read are written. */
type CartWrites = Record<CartMethod, (...args: unknown[]) => Promise<unknown>>
export type CartRow = Partial<Record<(typeof CART_COLUMNS)[number], unknown>> & {
  id: string
  region?: { automatic_taxes?: boolean | null } | null
  payment_collection?: { id: string } | null
  promotions?: ({ id: string } | null)[] | null
} & Partial<Record<LineKind, LineRow[] | null> & Record<(typeof ADDRESSES)[number], Row | null>>

export interface CartState extends Record<LineKind, LineRow[]> {
  id: string
  /** automatic taxes, a US shipping address */
  usTaxed: boolean
  fields: Record<(typeof CART_COLUMNS)[number], unknown>
  /** as content: Medusa may replace an address row */
  addresses: Record<(typeof ADDRESSES)[number], Row | null>
  promotionIds: string[]
  /** from the last tax run, which reads no links: Medusa's compensation puts them back, a promotions route reads them */
  promotionsUnread?: true
  hasPaymentCollection: boolean
  /** from the last tax run (quotedCartState): its lines per line id, put back only while the cart still has them */
  quotedLines?: Record<string, string[]>
}

const CART_COLUMNS = ["email", "customer_id", "region_id", "currency_code", "sales_channel_id", "locale", "metadata"] as const
const ADDRESSES = ["shipping_address", "billing_address"] as const
const ADDRESS_COLUMNS = [
  "customer_id",
  "company",
  "first_name",
  "last_name",
  "address_1",
  "address_2",
  "city",
  "country_code",
  "province",
  "postal_code",
  "phone",
  "metadata",
] as const
const TAX_LINE_COLUMNS = ["description", "tax_rate_id", "code", "rate", "provider_id", "data", "metadata"] as const
const ADJUSTMENT_COLUMNS = ["code", "amount", "description", "promotion_id", "provider_id", "is_tax_inclusive", "metadata"] as const
const SHIPPING_ADJUSTMENT_COLUMNS = ADJUSTMENT_COLUMNS.filter((c) => c !== "is_tax_inclusive")

/** Per kind of line: its owner column in derived rows, the columns set back, the Cart Module's methods. */
const LINE_KINDS = {
  items: {
    owner: "item_id",
    values: { quantity: amountNumber, unit_price: amountNumber, is_custom_price: Boolean },
    remove: "deleteLineItems",
    restore: "restoreLineItems",
    update: "updateLineItems",
    derived: {
      tax_lines: { columns: TAX_LINE_COLUMNS, set: "setLineItemTaxLines" },
      adjustments: { columns: ADJUSTMENT_COLUMNS, set: "setLineItemAdjustments" },
    },
  },
  shipping_methods: {
    owner: "shipping_method_id",
    values: { amount: amountNumber },
    remove: "deleteShippingMethods",
    restore: "restoreShippingMethods",
    update: "updateShippingMethods",
    derived: {
      tax_lines: { columns: TAX_LINE_COLUMNS, set: "setShippingMethodTaxLines" },
      adjustments: { columns: SHIPPING_ADJUSTMENT_COLUMNS, set: "setShippingMethodAdjustments" },
    },
  },
} as const
type LineKind = keyof typeof LINE_KINDS
const KINDS = Object.keys(LINE_KINDS) as LineKind[]
const DERIVED = ["tax_lines", "adjustments"] as const
export const CART_RESTORE_METHODS = [
  ...KINDS.flatMap((kind) => {
    const k = LINE_KINDS[kind]
    return [k.remove, k.restore, k.update, ...DERIVED.map((d) => k.derived[d].set)]
  }),
  "updateAddresses",
  "updateCarts",
] as const
type CartMethod = (typeof CART_RESTORE_METHODS)[number]

/** Per Cart Module model (as @medusajs/cart/dist/models names it): the columns the restore reads and writes (its contract, the boot check's). */
const CART_RESTORE_COLUMNS: Record<string, readonly string[]> = {
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

/** What the Cart Module lacks of the restore's assumptions; empty: it holds. Pure over `s`. */
export function cartRestoreDifferences(s: CartSurface): string[] {
  // `in` reads the class chain too: an instance's methods are its classes'
  const lacks = (what: string, o: object, names: readonly string[]) => {
    const missing = names.filter((n) => !(n in o))
    return missing.length ? [`${what} lacks ${missing.join(", ")}`] : []
  }
  const out = s.service ? lacks("the Cart Module", s.service, CART_RESTORE_METHODS) : ["no Cart Module"]
  for (const [model, cols] of Object.entries(s.models ? CART_RESTORE_COLUMNS : {})) {
    const schema = s.models?.[model]?.schema
    if (schema) out.push(...lacks(model, schema, cols))
    else out.push(`the Cart Module has no model ${model}`)
  }
  return out
}

/** A state's tax lines (or adjustments) of one kind of line, each naming its line. */
const derivedRows = (s: CartState, kind: LineKind, derived: (typeof DERIVED)[number]): Row[] =>
  s[kind].flatMap((l) => (l[derived] ?? []).map((r) => ({ ...r, [LINE_KINDS[kind].owner]: l.id })))

/** What the restore reads of a cart (the refresh hook's tax run too: quotedCartState). */
export const RESTORE_FIELDS = [
  "id",
  ...CART_COLUMNS,
  ...ADDRESSES.map((a) => `${a}.*`),
  "region.automatic_taxes",
  "payment_collection.id",
  "promotions.id",
  ...KINDS.flatMap((k) => [`${k}.id`, ...Object.keys(LINE_KINDS[k].values).map((c) => `${k}.${c}`), ...DERIVED.map((d) => `${k}.${d}.*`)]),
]

export async function readCartState(scope: MedusaContainer, cartId: string): Promise<CartState | undefined> {
  const [c] = await graph<CartRow>(scope, { entity: "cart", fields: RESTORE_FIELDS, filters: { id: cartId } })
  return c ? cartStateOf(c) : undefined
}

export function cartStateOf(c: CartRow): CartState {
  return {
    id: c.id,
    usTaxed: c.region?.automatic_taxes !== false && String(c.shipping_address?.country_code ?? "").toLowerCase() === "us",
    fields: Object.fromEntries(CART_COLUMNS.map((k) => [k, c[k] ?? null])) as CartState["fields"],
    addresses: Object.fromEntries(
      ADDRESSES.map((k) => [k, c[k] ? pick(c[k], ["id", ...ADDRESS_COLUMNS]) : null]),
    ) as CartState["addresses"],
    items: c.items ?? [],
    shipping_methods: c.shipping_methods ?? [],
    promotionIds: (c.promotions ?? []).flatMap((p) => (p?.id ? [p.id] : [])).sort(),
    hasPaymentCollection: !!c.payment_collection?.id,
  }
}

/** A tax line as the Cart Module's setLineItemTaxLines / setShippingMethodTaxLines return it. */
export type WrittenTaxLine = Row & { id: string; item_id?: string; shipping_method_id?: string }

/** Pure: a tax line's id and record: a line rewritten in place since keeps its id but differs here. */
export const quotedLineKey = (t: Row): string => JSON.stringify(["id", "code", "tax_rate_id", "provider_id"].map((k) => t[k] ?? null))

/** Pure: the cart after a tax run (its `read` and the lines it wrote), the next change's restore point instead of a read. */
export function quotedCartState(read: CartRow, items: WrittenTaxLine[], shipping: WrittenTaxLine[]): CartState {
  const state = cartStateOf(read)
  const written = { items, shipping_methods: shipping }
  const quotedLines: Record<string, string[]> = {}
  for (const kind of KINDS)
    state[kind] = state[kind].map((r) => {
      const mine = written[kind].filter((l) => l[LINE_KINDS[kind].owner] === r.id)
      quotedLines[r.id] = mine.map(quotedLineKey).sort()
      return { ...r, tax_lines: mine }
    })
  return { ...state, ...(read.promotions === undefined ? { promotionsUnread: true as const } : {}), quotedLines }
}

/** Pure: whether each line of a last-tax-run state still there carries that run's tax lines (older ones beside: the restore's). */
export function quotedStateHolds(before: CartState, now: CartState): boolean {
  const lines = before.quotedLines
  if (!lines) return true
  return [...now.items, ...now.shipping_methods].every((r) => {
    const was = lines[r.id]
    if (!was) return true
    const is = new Set((r.tax_lines ?? []).map(quotedLineKey))
    return was.every((k) => is.has(k))
  })
}

const pick = (r: Row, cols: readonly string[]) => Object.fromEntries(cols.map((k) => [k, r[k] ?? null]))
/** A row's content for comparison (amounts as numbers, json keys sorted). */
function content(r: Row, cols: readonly string[], owner: string): string {
  const p = pick(r, cols)
  for (const k of ["rate", "amount"]) if (k in p) p[k] = amountNumber(p[k])
  return JSON.stringify(canonical({ owner: r[owner], ...p }))
}
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i])

export function cartStateDiff(before: CartState, now: CartState): string[] {
  const out: string[] = []
  for (const k of CART_COLUMNS) if (JSON.stringify(before.fields[k]) !== JSON.stringify(now.fields[k])) out.push(k)
  const addr = (a: Row | null) => (a ? JSON.stringify(pick(a, ADDRESS_COLUMNS)) : null)
  for (const k of ADDRESSES) if (addr(before.addresses[k]) !== addr(now.addresses[k])) out.push(k)
  const ids = (rows: LineRow[]) => rows.map((r) => `${r.id}x${amountNumber(r.quantity ?? r.amount)}`).sort()
  for (const kind of KINDS) if (!sameSet(ids(before[kind]), ids(now[kind]))) out.push(kind)
  for (const derived of DERIVED)
    for (const kind of KINDS) {
      const { owner, derived: columns } = LINE_KINDS[kind]
      const rows = (s: CartState) =>
        derivedRows(s, kind, derived)
          .map((r) => content(r, columns[derived].columns, owner))
          .sort()
      if (!sameSet(rows(before), rows(now))) out.push(`${kind}.${derived}`)
    }
  if (!sameSet(before.promotionIds, now.promotionIds)) out.push("promotions")
  return out
}

/** `state` with its promotion links read, when the tax run that made it did not. */
export async function withPromotionLinks(scope: MedusaContainer, state: CartState): Promise<CartState> {
  if (!state.promotionsUnread) return state
  const links = await graph<{ promotion_id: string }>(scope, {
    entity: "cart_promotion",
    fields: ["promotion_id"],
    filters: { cart_id: state.id },
  })
  const { promotionsUnread: _, ...rest } = state
  return { ...rest, promotionIds: links.map((l) => l.promotion_id).sort() }
}

export const cartRestoreOn = (): boolean => switchOn("cartRestore")
export const setCartRestore = (on: boolean): void => setSwitch("cartRestore", on)

/** Puts the cart back as `state` describes it; returns what still differs. */
export async function restoreCartState(scope: MedusaContainer, state: CartState): Promise<string[]> {
  if (!cartRestoreOn()) return ["cart (the restore is turned off: see the start-up error)"]
  const locking = lockingOf(scope)
  let before = state
  const run = async () => {
    const now = await readCartState(scope, state.id)
    // links not read: as they are now (Medusa's compensation put them back)
    if (now && state.promotionsUnread) before = { ...state, promotionIds: now.promotionIds }
    if (now) await restoreUnlocked(scope, before, now)
  }
  if (locking) await locking.execute(state.id, run, { timeout: 5 })
  else await run()
  const after = await readCartState(scope, before.id)
  const left = after ? cartStateDiff(before, after) : ["cart"]
  if (left.length)
    scope
      .resolve(ContainerRegistrationKeys.LOGGER)
      .error(`sales-tax: cart ${before.id} could not be fully restored after a refused change (still different: ${left.join(", ")})`)
  return left
}

async function restoreUnlocked(scope: MedusaContainer, before: CartState, now: CartState): Promise<void> {
  // the last tax run's state, but the cart changed since elsewhere: not put back over that change
  if (!quotedStateHolds(before, now)) {
    scope
      .resolve(ContainerRegistrationKeys.LOGGER)
      .error(`sales-tax: cart ${before.id} changed since its last quote outside this process; the refused change is not undone`)
    return
  }
  const diff = cartStateDiff(before, now)
  if (!diff.length) return
  const cart = scope.resolve<CartWrites>(Modules.CART)
  const cartId = before.id

  // derived rows are written back as content (new row ids)
  for (const kind of KINDS) {
    const k = LINE_KINDS[kind]
    const values = (r: LineRow) => Object.fromEntries(Object.entries(k.values).map(([c, as]) => [c, as(r[c as keyof LineRow])]))
    const was = new Map(before[kind].map((r) => [r.id, r]))
    const is = new Map(now[kind].map((r) => [r.id, r]))
    const added = [...is.keys()].filter((id) => !was.has(id))
    const removed = [...was.keys()].filter((id) => !is.has(id))
    const changed = [...was.values()].filter((b) => is.has(b.id) && JSON.stringify(values(is.get(b.id)!)) !== JSON.stringify(values(b)))
    if (added.length) await cart[k.remove](added)
    if (removed.length) await cart[k.restore](removed)
    if (changed.length) await cart[k.update](changed.map((b) => ({ id: b.id, ...values(b) })))
    for (const derived of DERIVED) {
      const { columns, set } = k.derived[derived]
      if (diff.includes(`${kind}.${derived}`) || removed.length)
        await cart[set](
          cartId,
          derivedRows(before, kind, derived).map((r) => pick(r, [...columns, k.owner])),
        )
    }
  }

  if (diff.includes("promotions")) {
    const link = scope.resolve(ContainerRegistrationKeys.LINK)
    const entry = (promotion_id: string) => ({ [Modules.CART]: { cart_id: cartId }, [Modules.PROMOTION]: { promotion_id } })
    const added = now.promotionIds.filter((p) => !before.promotionIds.includes(p))
    const removed = before.promotionIds.filter((p) => !now.promotionIds.includes(p))
    if (added.length) await link.dismiss(added.map(entry))
    if (removed.length) await link.create(removed.map(entry))
  }

  // Medusa's compensation leaves the cart on the new address row: it gets the old content back
  const update: Row = {}
  for (const k of CART_COLUMNS) if (diff.includes(k)) update[k] = before.fields[k]
  const addressRows: Row[] = []
  for (const k of ADDRESSES) {
    if (!diff.includes(k)) continue
    const was = before.addresses[k]
    const is = now.addresses[k]
    if (!was) update[k] = null
    else if (!is) update[k] = pick(was, ADDRESS_COLUMNS)
    else addressRows.push({ id: is.id, ...pick(was, ADDRESS_COLUMNS) })
  }
  if (addressRows.length) await cart.updateAddresses(addressRows)
  if (Object.keys(update).length) await cart.updateCarts([{ id: cartId, ...update }])

  if (before.hasPaymentCollection || now.hasPaymentCollection)
    await refreshPaymentCollectionForCartWorkflow(scope).run({ input: { cart_id: cartId } })
}
