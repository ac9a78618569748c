/**
 * Which TIC a line carries: the product's own → its product type's → its categories' → the
 * plugin's default. `categories` is ordered by the caller, most specific first (the hook puts
 * deeper categories first, then by id, and maps each category to its nearest ancestor's TIC).
 */
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
  /** Materialized path of the category: "pcat_root.pcat_child.pcat_self" (Medusa's `mpath`). */
  mpath?: string | null
}

/**
 * Orders a product's categories most specific first (deepest mpath, then id) and gives each the
 * TIC of itself or its nearest ancestor that has one.
 */
export function categoryTics(categories: ReadonlyArray<CategoryLike>, ticsById: Readonly<Record<string, number>>): Array<number | null> {
  const withPath = categories.map((c) => ({ id: c.id, path: c.mpath ? c.mpath.split(".").filter(Boolean) : [c.id] }))
  withPath.sort((a, b) => b.path.length - a.path.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return withPath.map(({ id, path }) => {
    const chain = path[path.length - 1] === id ? path : [...path, id]
    for (let i = chain.length - 1; i >= 0; i--) {
      const t = ticsById[chain[i]]
      if (typeof t === "number") return t
    }
    return null
  })
}
