// Which TIC a line carries: the product's own → its product type's → its categories' (each its nearest ancestor's TIC:
// categoryTics) → the plugin's default. resolveTic relies on the caller ordering `categories` most specific first.
export type TicSource = "product" | "product_type" | "product_category" | "default"

export interface TicResolutionInput {
  product?: number | null
  productType?: number | null
  categories?: ReadonlyArray<number | null | undefined>
  defaultTic: number
}

export function resolveTic(input: TicResolutionInput): { tic: number; source: TicSource } {
  if (isTic(input.product)) return { tic: input.product, source: "product" }
  if (isTic(input.productType)) return { tic: input.productType, source: "product_type" }
  for (const c of input.categories ?? []) {
    if (isTic(c)) return { tic: c, source: "product_category" }
  }
  return { tic: input.defaultTic, source: "default" }
}

function isTic(v: number | null | undefined): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0
}

export interface CategoryLike {
  id: string
  /** Medusa's materialized path: "pcat_root.pcat_child.pcat_self" */
  mpath?: string | null
}

/** The category's materialized path, root first, itself last. */
export function ancestry(c: CategoryLike): string[] {
  const path = c.mpath ? c.mpath.split(".").filter(Boolean) : [c.id]
  return path[path.length - 1] === c.id ? path : [...path, c.id]
}

/** Id of the category itself or of its nearest ancestor that has a TIC, or null. */
export function nearestWithTic(c: CategoryLike, ticsById: Readonly<Record<string, number>>): string | null {
  const chain = ancestry(c)
  for (let i = chain.length - 1; i >= 0; i--) if (typeof ticsById[chain[i]!] === "number") return chain[i]!
  return null
}

/** Orders categories most specific first (the deepest path, then by id), each as the id of itself or its nearest ancestor with a TIC. */
function categorySources(categories: ReadonlyArray<CategoryLike>, ticsById: Readonly<Record<string, number>>): Array<string | null> {
  return [...categories]
    .sort((a, b) => ancestry(b).length - ancestry(a).length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => nearestWithTic(c, ticsById))
}

/** Orders a product's categories most specific first and gives each the TIC of itself or its nearest ancestor that has one. */
export function categoryTics(categories: ReadonlyArray<CategoryLike>, ticsById: Readonly<Record<string, number>>): Array<number | null> {
  return categorySources(categories, ticsById).map((from) => (from === null ? null : ticsById[from]!))
}

export interface ProductTicRow {
  id: string
  typeId: string | null
  categories: ReadonlyArray<CategoryLike>
}

/** Per level: { [targetId]: tic }. */
export interface AssignedTics {
  product: Readonly<Record<string, number>>
  productType: Readonly<Record<string, number>>
  productCategory: Readonly<Record<string, number>>
}

export interface ProductTic {
  tic: number
  source: TicSource
  sourceId: string | null
}

/** A product's TIC from the assignments, and the id that carries it (null for the default). */
export function resolveProductTic(p: ProductTicRow, assigned: AssignedTics, defaultTic: number): ProductTic {
  const sources = categorySources(p.categories, assigned.productCategory)
  const r = resolveTic({
    product: assigned.product[p.id],
    productType: p.typeId === null ? undefined : assigned.productType[p.typeId],
    categories: sources.map((from) => (from === null ? null : assigned.productCategory[from]!)),
    defaultTic,
  })
  const sourceId = { product: p.id, product_type: p.typeId, product_category: sources.find((id) => id !== null) ?? null, default: null }
  return { ...r, sourceId: sourceId[r.source] }
}
