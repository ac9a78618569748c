// Product → TIC, the one Medusa-side resolver: the products' type and categories through Query, the
// assignments from the salesTax module, each resolved with resolveProductTic.
import { SALES_TAX_MODULE } from "../../constants"
import { graph, type QueryScope } from "../../query"
import { tryResolve } from "../../runtime"
import { ancestry, resolveProductTic, type AssignedTics, type ProductTic, type ProductTicRow } from "./tic-resolution"

export const TIC_TARGET_TYPES = ["product", "product_type", "product_category"] as const
export type TicTargetType = (typeof TIC_TARGET_TYPES)[number]
export type TargetTic = { target_type: TicTargetType; target_id: string; tic: number | null }

/** The salesTax module's TIC assignments (its service implements this). */
export interface TicModule {
  getTics(targetType: TicTargetType, ids: string[]): Promise<Record<string, number>>
  setTic(targetType: TicTargetType, targetId: string, tic: number | null): Promise<TargetTic>
}

/** The salesTax module, or null when the app has not registered it. */
export function ticModule(scope: QueryScope): TicModule | null {
  return (tryResolve(scope, SALES_TAX_MODULE) as TicModule | undefined) ?? null
}

export const PRODUCT_TIC_FIELDS = ["id", "type_id", "categories.id", "categories.mpath"] as const

/** Products through Query, oldest first, in pages of 500 up to 10,000 (`truncated`: there were more). */
export async function readProducts<T>(
  scope: QueryScope,
  fields: readonly string[],
  filters: Record<string, unknown> = {},
): Promise<{ rows: T[]; truncated: boolean }> {
  const rows: T[] = []
  for (let skip = 0; ; skip += 500) {
    const page = await graph<T>(scope, {
      entity: "product",
      fields,
      filters,
      pagination: { skip, take: 500, order: { created_at: "ASC" } },
    })
    rows.push(...page)
    if (page.length < 500) return { rows, truncated: false }
    if (rows.length >= 10_000) return { rows, truncated: true }
  }
}

export interface ProductTicFields {
  id: string
  type_id?: string | null
  categories?: { id: string; mpath?: string | null }[] | null
}

export function productTicRow(p: ProductTicFields): ProductTicRow {
  return { id: p.id, typeId: p.type_id ?? null, categories: (p.categories ?? []).map((c) => ({ id: c.id, mpath: c.mpath ?? null })) }
}

const NONE: AssignedTics = { product: {}, productType: {}, productCategory: {} }

/** The assignments `rows` depend on (each category's whole ancestry); none without the module. */
export async function assignedTics(scope: QueryScope, rows: readonly ProductTicRow[]): Promise<AssignedTics> {
  const svc = ticModule(scope)
  if (!svc || !rows.length) return NONE
  const uniq = (xs: string[]) => [...new Set(xs)]
  const productIds = rows.map((r) => r.id)
  const [product, productType, productCategory] = await Promise.all([
    svc.getTics("product", productIds),
    svc.getTics("product_type", uniq(rows.flatMap((r) => (r.typeId ? [r.typeId] : [])))),
    svc.getTics("product_category", uniq(rows.flatMap((r) => r.categories.flatMap(ancestry)))),
  ])
  return { product, productType, productCategory }
}

/** Products through Query with what their TIC depends on (and `fields`), and each one's resolved TIC. */
export async function readProductTics<T extends ProductTicFields>(
  scope: QueryScope,
  defaultTic: number,
  fields: readonly string[] = [],
  filters: Record<string, unknown> = {},
): Promise<{ rows: T[]; truncated: boolean; tics: Map<string, ProductTic> }> {
  const { rows, truncated } = await readProducts<T>(scope, [...PRODUCT_TIC_FIELDS, ...fields], filters)
  return { rows, truncated, tics: await resolveLoadedProductTics(scope, rows.map(productTicRow), defaultTic) }
}

/** The TIC of each product already read, by product id. */
export async function resolveLoadedProductTics(
  scope: QueryScope,
  rows: readonly ProductTicRow[],
  defaultTic: number,
): Promise<Map<string, ProductTic>> {
  const assigned = await assignedTics(scope, rows)
  return new Map(rows.map((r) => [r.id, resolveProductTic(r, assigned, defaultTic)]))
}

/** The TIC of each product by id; a product Medusa does not have (deleted) is absent: the caller uses the default. */
export async function resolveProductTics(
  scope: QueryScope,
  productIds: readonly string[],
  defaultTic: number,
): Promise<Map<string, ProductTic>> {
  const ids = [...new Set(productIds.filter(Boolean))]
  if (!ids.length) return new Map()
  const products = await graph<ProductTicFields>(scope, { entity: "product", fields: PRODUCT_TIC_FIELDS, filters: { id: ids } })
  return resolveLoadedProductTics(scope, products.map(productTicRow), defaultTic)
}
