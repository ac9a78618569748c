/** The TICs of an order's products as the provider resolves them at checkout (product → type → category → default). */
import type { MedusaContainer } from "@medusajs/framework/types"
import { categoryTics, resolveTic } from "../tics/tic-resolution"
import { graph } from "../query"

// TICs (product → type → category → default, as the provider resolves them at checkout)

interface TicAssignments {
  getTics(targetType: string, ids: string[]): Promise<Record<string, number>>
}

export async function ticsForProducts(container: MedusaContainer, productIds: string[], defaultTic: number): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  if (!productIds.length) return out
  let svc: TicAssignments | undefined
  try {
    svc = container.resolve("salesTax", { allowUnregistered: true }) as TicAssignments | undefined
  } catch {
    svc = undefined
  }
  if (!svc?.getTics) {
    for (const id of productIds) out.set(id, defaultTic)
    return out
  }
  const products = await graph<{ id: string; type_id?: string | null; categories?: { id: string; mpath?: string | null }[] | null }>(
    container,
    { entity: "product", fields: ["id", "type_id", "categories.id", "categories.mpath"], filters: { id: productIds } },
  )
  const typeIds = [...new Set(products.map((p) => p.type_id).filter((t): t is string => !!t))]
  const cats = products.flatMap((p) => p.categories ?? [])
  const catIds = [...new Set(cats.flatMap((c) => (c.mpath ? c.mpath.split(".") : [c.id])).filter(Boolean))]
  const [byProduct, byType, byCat] = await Promise.all([
    svc.getTics("product", productIds),
    typeIds.length ? svc.getTics("product_type", typeIds) : Promise.resolve({} as Record<string, number>),
    catIds.length ? svc.getTics("product_category", catIds) : Promise.resolve({} as Record<string, number>),
  ])
  for (const p of products) {
    out.set(
      p.id,
      resolveTic({
        product: byProduct[p.id],
        productType: p.type_id ? byType[p.type_id] : null,
        categories: categoryTics(p.categories ?? [], byCat),
        defaultTic,
      }).tic,
    )
  }
  return out
}
