// The TIC of a product, product type or category: GET the resolved TIC with every level considered,
// POST { tic } sets it (checked at the service), DELETE clears it.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { graph } from "../query"
import { assignedTics, productTicRow, type TicTargetType as ModelTarget } from "../service/tics/product-tics"
import { requireTicModule } from "./medusa"
import { nearestWithTic, resolveProductTic, type ProductTic } from "../service/tics/tic-resolution"
import { getPluginOptions } from "../options"
import { bodyOf, handle, notFound } from "../http/answers"
import { invalidData } from "../http/input-guard"
import { lookupTic, TIC_UNVERIFIED_WARNING, ticInfo, type TicInfo } from "./lookup"
import { z } from "zod"

export type TicTargetType = "product" | "product-type" | "product-category"

/** GET's answer: the target, its own TIC, the resolved one and (a product's) every level considered. */
export type AdminTicResponse = NonNullable<Awaited<ReturnType<typeof describeTic>>>

/** `warning`: the service could not be asked whether it knows the TIC (saved anyway). */
export type AdminTicSetResponse = AdminTicResponse & { warning?: string }

export const AdminSetTicBody = z.object({
  tic: z
    .number({ error: "tic must be a number (a Taxability Information Code)" })
    .int("tic must be an integer")
    .min(0, "tic must be 0 or a positive TIC"),
})

const TARGETS: Record<TicTargetType, { entity: ModelTarget; fields: string[] }> = {
  product: { entity: "product", fields: ["id", "title", "type.id", "type.value", "categories.id", "categories.name", "categories.mpath"] },
  "product-type": { entity: "product_type", fields: ["id", "value"] },
  "product-category": { entity: "product_category", fields: ["id", "name"] },
}
const LABEL: Record<TicTargetType, string> = { product: "Product", "product-type": "Product type", "product-category": "Product category" }

type Scope = MedusaRequest["scope"]

interface TargetRow {
  id: string
  title?: string | null
  value?: string | null
  name?: string | null
  type?: { id: string; value?: string | null } | null
  categories?: { id: string; name?: string | null; mpath?: string | null }[] | null
}

async function loadTarget(scope: Scope, type: TicTargetType, id: string): Promise<TargetRow | null> {
  return (await graph<TargetRow>(scope, { ...TARGETS[type], filters: { id } }))[0] ?? null
}

export async function describeTic(scope: Scope, type: TicTargetType, id: string) {
  const target = await loadTarget(scope, type, id)
  if (!target) return null
  const defaultTic = getPluginOptions(scope).defaultTic
  const name = target.title ?? target.value ?? target.name ?? null
  // a product's TIC depends on its type's and categories' too: all read at once
  const row = type === "product" ? productTicRow({ ...target, type_id: target.type?.id }) : null
  const levels = row ? await assignedTics(scope, [row]) : null
  const own = levels ? levels.product[id] : (await requireTicModule(scope).getTics(TARGETS[type].entity, [id]))[id]
  const r: ProductTic =
    row && levels
      ? resolveProductTic(row, levels, defaultTic)
      : own === undefined || own === null
        ? { tic: defaultTic, source: "default", sourceId: null }
        : { tic: own, source: TARGETS[type].entity, sourceId: id }
  // one lookup per distinct TIC (ticInfo never rejects)
  const levelTics = levels ? [...Object.values(levels.productType), ...Object.values(levels.productCategory)] : []
  const tics = new Set([defaultTic, r.tic, own ?? defaultTic, ...levelTics])
  const labels = new Map(await Promise.all([...tics].map(async (t) => [t, await ticInfo(scope, t)] as const)))
  const info = (tic: number | null | undefined): TicInfo | null => (tic === undefined || tic === null ? null : labels.get(tic)!)
  const assigned = info(own)
  const answer = { target: { type, id, name }, assigned, resolved: { tic: info(r.tic)!, source: r.source, sourceId: r.sourceId } }
  // every level considered: a type's or category's chain is the default only
  if (!levels) return { ...answer, chain: { default: info(defaultTic)! } }
  const { productType: typeTics, productCategory: catTics } = levels
  const pt = target.type
  const categories = (target.categories ?? []).map((c) => {
    const from = nearestWithTic(c, catTics)
    return {
      id: c.id,
      name: c.name ?? null,
      tic: from ? info(catTics[from]) : null,
      // the nearest ancestor whose TIC this category inherits
      ...(from && from !== c.id ? { inheritedFrom: from } : {}),
    }
  })
  const productType = pt ? { id: pt.id, name: pt.value ?? null, tic: info(typeTics[pt.id]) } : null
  return { ...answer, chain: { product: assigned, productType, categories, default: info(defaultTic)! } }
}

export function ticRoutes(type: TicTargetType) {
  const GET = handle(async (req: MedusaRequest, res: MedusaResponse) => {
    const id = req.params.id!
    const out = await describeTic(req.scope, type, id)
    if (!out) return notFound(res, LABEL[type], id)
    res.json(out)
  })
  const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
    const id = req.params.id!
    const body = bodyOf(req, AdminSetTicBody)
    if (!(await loadTarget(req.scope, type, id))) return notFound(res, LABEL[type], id)
    // the service is the judge of TICs; when it cannot be asked, any integer >= 0 is saved with a warning
    const lookup = await lookupTic(getPluginOptions(req.scope), body.tic)
    if (lookup.status === "unknown") {
      const message = `${body.tic} is not a known TIC at the Sales Tax Service: pick one from the search`
      return void res.status(400).json(invalidData([{ location: "body.tic", message, value: body.tic }]))
    }
    await requireTicModule(req.scope).setTic(TARGETS[type].entity, id, body.tic)
    const out: AdminTicSetResponse = (await describeTic(req.scope, type, id))!
    if (lookup.status === "unverified") out.warning = TIC_UNVERIFIED_WARNING
    res.json(out)
  })
  const DELETE = handle(async (req: MedusaRequest, res: MedusaResponse) => {
    const id = req.params.id!
    if (!(await loadTarget(req.scope, type, id))) return notFound(res, LABEL[type], id)
    await requireTicModule(req.scope).setTic(TARGETS[type].entity, id, null)
    res.json(await describeTic(req.scope, type, id))
  })
  return { GET, POST, DELETE }
}
