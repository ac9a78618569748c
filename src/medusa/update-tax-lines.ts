/**
 * BOUNDARY: updateTaxLinesWorkflow's work as module calls inside the refresh hook's step: no workflow
 * run, no second cart read, and the lines it writes are the cart's next restore point.
 * Assumes: the workflow reads UPDATE_TAX_LINES_CART_FIELDS and runs UPDATE_TAX_LINES_STEPS.
 * Contract test: update-tax-lines.contract.test.ts. Boot check: off (`directTaxRunOn()`): the workflow runs.
 */
import type {
  BigNumberInput,
  CreateTaxLineDTO,
  ICartModuleService,
  ITaxModuleService,
  ItemTaxLineDTO,
  MedusaContainer,
  ShippingTaxLineDTO,
  TaxCalculationContext,
  TaxableItemDTO,
  TaxableShippingDTO,
} from "@medusajs/framework/types"
import { FeatureFlag, MedusaError, Modules, applyTranslationsToTaxLines, isDefined } from "@medusajs/framework/utils"
import {
  taxLineContextOutput,
  type TaxLineContext,
  type TaxLineContextHandler,
  type TaxedEntity,
  type TaxedItem,
  type TaxedShipping,
} from "./taxed-entity"
import { canonical, type WrittenTaxLine } from "./cart-restore"
import { installedSource, stringArrayLiteral } from "./installed"
import { amountNumber } from "../money/amount"
import { setSwitch, switchOn } from "./switches"

/** The cart as the tax run reads it (taxRunFields). */
export interface TaxRunCart extends TaxedEntity {
  locale?: string | null
  completed_at?: unknown
  region?: { id?: string; automatic_taxes?: boolean | null } | null
  customer?: {
    id: string
    email?: string | null
    metadata?: Record<string, unknown> | null
    groups?: { id: string }[] | null
    has_account?: boolean | null
  } | null
  shipping_address?:
    | (Partial<Record<"country_code" | "province" | "address_1" | "address_2" | "city" | "postal_code", string | null>> & {
        metadata?: Record<string, unknown> | null
      })
    | null
  items?: (TaxedItem & { product_type_id?: string | null; quantity?: BigNumberInput | null; unit_price?: BigNumberInput | null })[] | null
  shipping_methods?: (TaxedShipping & { name?: string | null; amount?: BigNumberInput | null })[] | null
}

/** The workflow's cart fields and `contextFields`; its tax lines (only its compensation reads them) only for a host's handler. */
export function taxRunFields(withTaxLines: boolean, contextFields: readonly string[]): string[] {
  const medusa = withTaxLines ? UPDATE_TAX_LINES_CART_FIELDS : UPDATE_TAX_LINES_CART_FIELDS.filter((f) => !f.includes(".tax_lines."))
  return [...new Set<string>([...medusa, ...contextFields, "completed_at"])]
}

/** Pure: normalizeTaxModuleContext's context, values as read (null: no tax; the cast: Medusa types nullable columns as string). */
export function taxContextOf(cart: TaxRunCart, additional: TaxLineContext | undefined): TaxCalculationContext | null {
  const a = cart.shipping_address
  if (!cart.region?.automatic_taxes || !a?.country_code) return null
  const c = cart.customer
  const { country_code, province, address_1, address_2, city, postal_code, metadata } = a
  return {
    address: { country_code, province_code: province, address_1, address_2, city, postal_code, metadata },
    customer: c && { id: c.id, email: c.email, customer_groups: c.groups?.map((g) => g.id) || [], metadata: c.metadata },
    is_return: false,
    locale: cart.locale,
    shipping_methods: cart.shipping_methods?.map(({ id, name, shipping_option_id, amount }) => ({ id, name, shipping_option_id, amount })),
    additional_context: additional,
  } as TaxCalculationContext
}

/** Pure: the lines the Tax Module quotes, as normalizeLineItemsForTax (no gift cards) and normalizeLineItemsForShipping write them. */
function taxableLines(cart: TaxRunCart): (TaxableItemDTO | TaxableShippingDTO)[] {
  const items = (cart.items ?? [])
    .filter((i) => !i.is_giftcard || !isDefined(i.is_giftcard))
    .map((i) => ({
      id: i.id,
      product_id: i.product_id,
      product_type_id: i.product_type_id,
      quantity: i.quantity,
      unit_price: i.unit_price,
      currency_code: cart.currency_code,
    })) as TaxableItemDTO[]
  const shipping = (cart.shipping_methods ?? []).map((s) => ({
    id: s.id,
    shipping_option_id: s.shipping_option_id,
    unit_price: s.amount,
    currency_code: cart.currency_code,
  })) as TaxableShippingDTO[]
  return [...items, ...shipping]
}

const isItemLine = (l: ItemTaxLineDTO | ShippingTaxLineDTO): l is ItemTaxLineDTO => "line_item_id" in l
const isShippingLine = (l: ItemTaxLineDTO | ShippingTaxLineDTO): l is ShippingTaxLineDTO => "shipping_line_id" in l

/** The workflow's work, throwing what its steps throw; `current`: `cart`'s tax lines are the cart's, so the write is inPlace. */
export async function setCartTaxLines(
  container: MedusaContainer,
  cart: TaxRunCart,
  contextHandler: TaxLineContextHandler,
  current = false,
): Promise<{ items: WrittenTaxLine[]; shipping: WrittenTaxLine[] }> {
  if (cart.completed_at) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Cart ${cart.id} is already completed.`)
  const items = cart.items ?? []
  const shipping = cart.shipping_methods ?? []
  const additional = taxLineContextOutput(await contextHandler({ cart, items, shipping_methods: shipping }, { container }))
  const context = taxContextOf(cart, additional)
  let itemLines: ItemTaxLineDTO[] = []
  let shippingLines: ShippingTaxLineDTO[] = []
  // one Tax Module call for items and shipping (Medusa's step makes two)
  const taxable = context ? taxableLines(cart) : []
  if (context && taxable.length) {
    const lines = await container.resolve<ITaxModuleService>(Modules.TAX).getTaxLines(taxable, context)
    itemLines = lines.filter(isItemLine)
    shippingLines = lines.filter(isShippingLine)
  }
  if (FeatureFlag.isFeatureEnabled("translation")) {
    const locale = cart.locale ?? undefined
    ;[itemLines, shippingLines] = await Promise.all([
      applyTranslationsToTaxLines(itemLines, locale, container).then((l) => l.filter(isItemLine)),
      applyTranslationsToTaxLines(shippingLines, locale, container).then((l) => l.filter(isShippingLine)),
    ])
  }
  const carts = container.resolve<ICartModuleService>(Modules.CART)
  // a tax line as setTaxLinesForItemsStep writes it, less the line's own id (item or shipping method)
  const written = (l: ItemTaxLineDTO | ShippingTaxLineDTO): TaxLineWrite => ({
    description: l.name,
    tax_rate_id: l.rate_id,
    code: l.code ?? "",
    rate: l.rate,
    provider_id: l.provider_id,
    data: l.data,
  })
  const itemWrites = itemLines.map((l) => ({ ...written(l), item_id: l.line_item_id }))
  const shippingWrites = shippingLines.map((l) => ({ ...written(l), shipping_method_id: l.shipping_line_id }))
  const itemPlan = current ? inPlace(items, itemWrites, "item_id") : undefined
  const shippingPlan = current ? inPlace(shipping, shippingWrites, "shipping_method_id") : undefined
  const [itemRows, shippingRows] = await Promise.all([
    !items.length
      ? []
      : itemPlan
        ? withUpdated(itemPlan, itemPlan.update.length ? carts.upsertLineItemTaxLines(itemPlan.update) : undefined)
        : carts.setLineItemTaxLines(cart.id, itemWrites),
    !shipping.length
      ? []
      : shippingPlan
        ? withUpdated(shippingPlan, shippingPlan.update.length ? carts.upsertShippingMethodTaxLines(shippingPlan.update) : undefined)
        : carts.setShippingMethodTaxLines(cart.id, shippingWrites),
  ])
  return { items: itemRows as WrittenTaxLine[], shipping: shippingRows as WrittenTaxLine[] }
}

/** A tax line as the Cart Module's setters take it, less its owner's id. */
type TaxLineWrite = Omit<CreateTaxLineDTO, "item_id" | "metadata">
type Owner = "item_id" | "shipping_method_id"
/** What an in-place write keeps as is and updates (by the replaced rows' ids). */
interface InPlace<K extends Owner> {
  keep: WrittenTaxLine[]
  update: (TaxLineWrite & Record<K, string> & { id: string })[]
}

const sameLine = (was: WrittenTaxLine, is: TaxLineWrite): boolean =>
  (["description", "tax_rate_id", "code", "provider_id"] as const).every((k) => (was[k] ?? null) === (is[k] ?? null)) &&
  amountNumber(was.rate) === amountNumber(is.rate) &&
  JSON.stringify(canonical(was.data ?? null)) === JSON.stringify(canonical(is.data ?? null))

/** Pure: `lines` over each owner's current tax lines: an equal one kept, others written into its row; undefined: replace all. */
export function inPlace<K extends Owner>(
  owners: readonly { id: string; tax_lines?: readonly Record<string, unknown>[] | null }[],
  lines: readonly (TaxLineWrite & Record<K, string>)[],
  key: K,
): InPlace<K> | undefined {
  const plan: InPlace<K> = { keep: [], update: [] }
  const byCode = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.code ?? "").localeCompare(String(b.code ?? ""))
  for (const o of owners) {
    const was = [...((o.tax_lines ?? []) as WrittenTaxLine[])].sort(byCode)
    const is = lines.filter((l) => l[key] === o.id).sort((a, b) => a.code.localeCompare(b.code))
    if (was.length !== is.length || was.some((w) => w.metadata !== null && w.metadata !== undefined)) return undefined
    was.forEach((w, i) => {
      if (sameLine(w, is[i]!)) plan.keep.push({ ...w, [key]: o.id })
      else plan.update.push({ ...is[i]!, id: String(w.id) })
    })
  }
  // no line for an owner the read did not have
  return plan.keep.length + plan.update.length === lines.length ? plan : undefined
}

async function withUpdated<K extends Owner>(plan: InPlace<K>, updated: Promise<unknown[]> | undefined): Promise<WrittenTaxLine[]> {
  return [...plan.keep, ...(((await updated) ?? []) as WrittenTaxLine[])]
}

/** The `cartFields` updateTaxLinesWorkflow reads: the refresh hook reads them (and TAXED_FIELDS) once for both. */
export const UPDATE_TAX_LINES_CART_FIELDS: readonly string[] = [
  "id",
  "currency_code",
  "email",
  "locale",
  "region.id",
  "region.automatic_taxes",
  "items.id",
  "items.variant_id",
  "items.product_id",
  "items.product_title",
  "items.product_description",
  "items.product_subtitle",
  "items.product_type",
  "items.product_type_id",
  "items.product_collection",
  "items.product_handle",
  "items.variant_sku",
  "items.variant_barcode",
  "items.variant_title",
  "items.title",
  "items.quantity",
  "items.unit_price",
  "items.is_giftcard",
  ...["items", "shipping_methods"].flatMap((r) => ["id", "description", "code", "rate", "provider_id"].map((c) => `${r}.tax_lines.${c}`)),
  "shipping_methods.shipping_option_id",
  "shipping_methods.amount",
  "shipping_methods.name",
  "shipping_methods.id",
  "customer.id",
  "customer.email",
  "customer.metadata",
  "customer.groups.id",
  "shipping_address.id",
  "shipping_address.address_1",
  "shipping_address.address_2",
  "shipping_address.city",
  "shipping_address.postal_code",
  "shipping_address.country_code",
  "shipping_address.region_code",
  "shipping_address.province",
  "shipping_address.metadata",
]

export const UPDATE_TAX_LINES_SOURCE = "cart/workflows/update-tax-lines.js"

/** updateTaxLinesWorkflow's steps in order: setCartTaxLines does their work but the lock's (the refresh holds it). */
export const UPDATE_TAX_LINES_STEPS = [
  "validateCartStep",
  "acquireLockStep",
  'createHook)("setTaxLineContext"',
  "getItemTaxLinesStep",
  "getTranslatedTaxLinesStep",
  "setTaxLinesForItemsStep",
  "releaseLockStep",
] as const

/** The workflow before its setTaxLineContext hook (three fields fewer): accepted, the direct run never runs there. */
export const UPDATE_TAX_LINES_CART_FIELDS_BEFORE_HOOK: readonly string[] = UPDATE_TAX_LINES_CART_FIELDS.filter(
  (f) => !["items.is_giftcard", "shipping_methods.name", "shipping_methods.id"].includes(f),
)
const STEPS_BEFORE_HOOK: readonly string[] = UPDATE_TAX_LINES_STEPS.filter((st) => !st.includes("setTaxLineContext"))

function differencesFrom(source: string, expectedFields: readonly string[], steps: readonly string[]): string[] {
  const out: string[] = []
  const fields = stringArrayLiteral(source, "cartFields")
  if (!fields) out.push("its cartFields list is not found")
  else {
    const added = fields.filter((f) => !expectedFields.includes(f))
    const removed = expectedFields.filter((f) => !fields.includes(f))
    if (added.length || removed.length)
      out.push(`its cart fields changed (added: ${added.join(", ") || "none"}; removed: ${removed.join(", ") || "none"})`)
  }
  const body = source.slice(source.indexOf("createWorkflow)"))
  let at = 0
  for (const step of steps) {
    const i = body.indexOf(step, at)
    if (i < 0) out.push(`step ${step} not found in its place`)
    else at = i + step.length
  }
  return out
}

/** Pure: what differs between `source` and the workflow re-implemented here (empty: it matches). */
export function updateTaxLinesDifferences(source: string | undefined): string[] {
  if (!source) return [`@medusajs/core-flows/dist/${UPDATE_TAX_LINES_SOURCE} not found`]
  const out = differencesFrom(source, UPDATE_TAX_LINES_CART_FIELDS, UPDATE_TAX_LINES_STEPS)
  const beforeHook = !source.includes('createHook)("setTaxLineContext"')
  return out.length && beforeHook && !differencesFrom(source, UPDATE_TAX_LINES_CART_FIELDS_BEFORE_HOOK, STEPS_BEFORE_HOOK).length ? [] : out
}

export function updateTaxLinesMatchesInstalled(): string[] {
  return updateTaxLinesDifferences(installedSource("@medusajs/core-flows", UPDATE_TAX_LINES_SOURCE))
}

export const directTaxRunOn = (): boolean => switchOn("directTaxRun")
export const setDirectTaxRun = (on: boolean): void => setSwitch("directTaxRun", on)

/** Pure: `cartFieldsForRefreshSteps` (the cart refresh's read, which the direct run reuses) as `source` lists it. */
export function refreshFieldsOf(source: string | undefined): string[] | undefined {
  const named = source?.replace(/exports\.cartFieldsForRefreshSteps\s*=\s*\[/, "const cartFieldsForRefreshSteps = [")
  return stringArrayLiteral(named, "cartFieldsForRefreshSteps")
}

export function installedRefreshFields(): string[] | undefined {
  return refreshFieldsOf(installedSource("@medusajs/core-flows", "cart/utils/fields.js"))
}

/** Pure: the fields of `needed` a Query field list `have` does not name ("x.*" names x's own columns). */
export function uncoveredFields(have: readonly string[], needed: readonly string[]): string[] {
  const named = new Set(have)
  return needed.filter((f) => !named.has(f) && !named.has(`${f.slice(0, f.lastIndexOf(".") + 1)}*`))
}

export const REFRESH_CART_ITEMS_SOURCE = "cart/workflows/refresh-cart-items.js"

/** Pure: whether the refresh in `source` writes tax lines after its read only when asked to (else they may be stale by the hook). */
export function refreshTaxWritesGuarded(source: string | undefined): boolean {
  // `step` once, after its `when` step
  const guarded = (step: string, when: string) =>
    source?.split(step).length === 2 && source.includes(when) && source.indexOf(when) < source.indexOf(step)
  return (
    guarded("updateTaxLinesWorkflow.runAsStep", '"force-refresh-update-tax-lines"') &&
    guarded("upsertTaxLinesWorkflow.runAsStep", '"force-refresh-upsert-tax-lines"')
  )
}

/** Whether the installed refresh guards its tax writes (read once per runtime by the caller). */
export const installedRefreshTaxWritesGuarded = (): boolean =>
  refreshTaxWritesGuarded(installedSource("@medusajs/core-flows", REFRESH_CART_ITEMS_SOURCE))

/** Pure: whether a refresh with this input wrote no tax line after its read (given refreshTaxWritesGuarded). */
export const refreshLeftTaxLines = (input: { force_refresh?: unknown; items?: unknown[] | null; shipping_methods?: unknown[] | null }) =>
  !input.force_refresh && !input.items?.length && !input.shipping_methods?.length
