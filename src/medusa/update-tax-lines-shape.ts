/**
 * What src/medusa/update-tax-lines.ts assumes of the installed core-flows' updateTaxLinesWorkflow,
 * as data and a check (its field list, its steps), kept apart from the tax run itself so the boot
 * check (boot-check.ts) loads nothing of the checkout. Contract test: update-tax-lines.contract.test.ts.
 */
import { installedSource, sameStrings, stringArrayLiteral } from "./installed"
import { setSwitch, switchOn } from "./switches"

/**
 * The fields Medusa's updateTaxLinesWorkflow (2.19-2.21) reads when it fetches the cart itself
 * (@medusajs/core-flows, cart/workflows/update-tax-lines.js, `cartFields`): the refresh hook reads
 * them (less what only the workflow's own steps need: taxRunFields) together with the context
 * handler's TAXED_FIELDS, so that neither the tax run nor the handler reads the cart again.
 */
export const UPDATE_TAX_LINES_CART_FIELDS = [
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
  "items.tax_lines.id",
  "items.tax_lines.description",
  "items.tax_lines.code",
  "items.tax_lines.rate",
  "items.tax_lines.provider_id",
  "shipping_methods.tax_lines.id",
  "shipping_methods.tax_lines.description",
  "shipping_methods.tax_lines.code",
  "shipping_methods.tax_lines.rate",
  "shipping_methods.tax_lines.provider_id",
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
] as const

/** The file of @medusajs/core-flows' dist this module re-implements. */
export const UPDATE_TAX_LINES_SOURCE = "cart/workflows/update-tax-lines.js"

/**
 * What updateTaxLinesWorkflow runs, in this order (its hook among them): setCartTaxLines does the
 * same work (the lock steps excepted: the refresh that calls it already holds the cart's lock).
 */
export const UPDATE_TAX_LINES_STEPS = [
  "validateCartStep",
  "acquireLockStep",
  'createHook)("setTaxLineContext"',
  "getItemTaxLinesStep",
  "getTranslatedTaxLinesStep",
  "setTaxLinesForItemsStep",
  "releaseLockStep",
] as const

/**
 * The workflow as 2.15 ships it (before the setTaxLineContext hook): three fields fewer and no hook.
 * The direct run needs the plugin's handler on that hook, so there it never runs; the refresh hook
 * runs the workflow with the cart read with the fields above (a superset), which is why this form
 * is accepted rather than reported.
 */
export const UPDATE_TAX_LINES_CART_FIELDS_BEFORE_HOOK: readonly string[] = UPDATE_TAX_LINES_CART_FIELDS.filter(
  (f) => !["items.is_giftcard", "shipping_methods.name", "shipping_methods.id"].includes(f),
)
const STEPS_BEFORE_HOOK: readonly string[] = UPDATE_TAX_LINES_STEPS.filter((st) => !st.includes("setTaxLineContext"))

function differencesFrom(source: string, expectedFields: readonly string[], steps: readonly string[]): string[] {
  const out: string[] = []
  const fields = stringArrayLiteral(source, "cartFields")
  if (!fields) out.push("its cartFields list is not found")
  else if (!sameStrings(fields, expectedFields)) {
    const added = fields.filter((f) => !expectedFields.includes(f))
    const removed = expectedFields.filter((f) => !fields.includes(f))
    out.push(`its cart fields changed (added: ${added.join(", ") || "none"}; removed: ${removed.join(", ") || "none"})`)
  }
  const body = source.slice(source.indexOf("createWorkflow)"))
  let at = 0
  for (const step of steps) {
    const i = body.indexOf(step, at)
    if (i < 0) {
      out.push(`step ${step} not found in its place`)
      continue
    }
    at = i + step.length
  }
  return out
}

/**
 * Whether `source` (core-flows' update-tax-lines.js) is the workflow this module re-implements: its
 * cart field list is UPDATE_TAX_LINES_CART_FIELDS and its steps are UPDATE_TAX_LINES_STEPS, in
 * order (or it is 2.15's form: UPDATE_TAX_LINES_CART_FIELDS_BEFORE_HOOK, no hook). Returns what
 * differs from the current form (empty: it matches). Pure.
 */
export function updateTaxLinesDifferences(source: string | undefined): string[] {
  if (!source) return [`@medusajs/core-flows/dist/${UPDATE_TAX_LINES_SOURCE} not found`]
  const out = differencesFrom(source, UPDATE_TAX_LINES_CART_FIELDS, UPDATE_TAX_LINES_STEPS)
  const beforeHook = !source.includes('createHook)("setTaxLineContext"')
  return out.length && beforeHook && !differencesFrom(source, UPDATE_TAX_LINES_CART_FIELDS_BEFORE_HOOK, STEPS_BEFORE_HOOK).length ? [] : out
}

/** updateTaxLinesDifferences of the app's installed core-flows. */
export function updateTaxLinesMatchesInstalled(): string[] {
  return updateTaxLinesDifferences(installedSource("@medusajs/core-flows", UPDATE_TAX_LINES_SOURCE))
}

/** Whether the refresh hook may do updateTaxLinesWorkflow's work as module calls (false once the boot check found it changed). */
export const directTaxRunOn = (): boolean => switchOn("directTaxRun")
export const setDirectTaxRun = (on: boolean): void => setSwitch("directTaxRun", on)

/**
 * The file of @medusajs/core-flows' dist whose `cartFieldsForRefreshSteps` Medusa's cart refresh
 * reads the cart with (updateCartPromotionsWorkflow's read: the cart its `validate` hook gets). The
 * refresh hook's direct run starts from that read (cart-refresh-tax.ts) only while it names every
 * field the run takes from it.
 */
export const REFRESH_FIELDS_SOURCE = "cart/utils/fields.js"

/** Pure: `cartFieldsForRefreshSteps` as `source` (core-flows' cart/utils/fields.js) lists it; undefined when not found. */
export function refreshFieldsOf(source: string | undefined): string[] | undefined {
  const named = source?.replace(/exports\.cartFieldsForRefreshSteps\s*=\s*\[/, "const cartFieldsForRefreshSteps = [")
  return stringArrayLiteral(named, "cartFieldsForRefreshSteps")
}

/** refreshFieldsOf the app's installed core-flows. */
export function installedRefreshFields(): string[] | undefined {
  return refreshFieldsOf(installedSource("@medusajs/core-flows", REFRESH_FIELDS_SOURCE))
}

/** Pure: the fields of `needed` a Query field list `have` does not name ("x.*" names x's own columns). */
export function uncoveredFields(have: readonly string[], needed: readonly string[]): string[] {
  const named = new Set(have)
  return needed.filter((f) => !named.has(f) && !named.has(`${f.slice(0, f.lastIndexOf(".") + 1)}*`))
}
