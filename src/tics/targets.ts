// The TIC of a product, product type or category: GET the resolved TIC with every level considered,
// POST { tic } sets it (checked at the service), DELETE clears it.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { graph } from "../query"
import { assignedTics, productTicRow } from "./product-tics"
import { requireTicModule } from "./medusa"
import { nearestWithTic, resolveProductTic, type TicSource } from "./tic-resolution"
import { bodyOf, handle, notFound, pluginOptions, sendError } from "../http/answers"
import { lookupTic, TIC_UNVERIFIED_WARNING, ticInfo, type TicInfo } from "./lookup"
import { z } from "zod"
import type { TicResult } from "../service/contract"
import type { TicTargetType as ModelTarget } from "../modules/sales-tax/service"

export type TicTargetType = "product" | "product-type" | "product-category"

export interface TicTargetRef {
  id: string
  name: string | null
  tic: TicInfo | null
  /** Category whose TIC this one inherits (nearest ancestor with a TIC), when not its own. */
  inheritedFrom?: string
}

export interface AdminTicResponse {
  target: { type: TicTargetType; id: string; name: string | null }
  /** The TIC assigned to this target itself (null: none). */
  assigned: TicInfo | null
  /** What this target's items are taxed as, and which level it came from. */
  resolved: { tic: TicInfo; source: TicSource; sourceId: string | null }
  /** Every level that was considered (products only carry productType and categories). */
  chain: {
    product?: TicInfo | null
    productType?: TicTargetRef | null
    categories?: TicTargetRef[]
    default: TicInfo
  }
}

/** POST /admin/sales-tax/tics/{target}/:id: the new state, and a warning when the TIC is unverified. */
export interface AdminTicSetResponse extends AdminTicResponse {
  /** Set when the Sales Tax Service could not be asked whether it knows the TIC (saved anyway). */
  warning?: string
}

export interface AdminTicSearchResponse {
  query: string
  results: TicResult[]
  nextCursor: string | null
}

/** POST …/tics/{target}/:id; whether the service knows the TIC is checked by the route (lookup.ts). */
export const AdminSetTicBody = z.object({
  tic: z
    .number({ error: "tic must be a number (a Taxability Information Code)" })
    .int("tic must be an integer")
    .min(0, "tic must be 0 or a positive TIC"),
})
export type AdminSetTicBody = z.infer<typeof AdminSetTicBody>

const MODEL_TARGET: Record<TicTargetType, ModelTarget> = {
  product: "product",
  "product-type": "product_type",
  "product-category": "product_category",
}

type Scope = MedusaRequest["scope"]

interface ProductRow {
  id: string
  title?: string | null
  type?: { id: string; value?: string | null } | null
  categories?: { id: string; name?: string | null; mpath?: string | null }[] | null
}

async function loadTarget(scope: Scope, type: TicTargetType, id: string): Promise<ProductRow | { id: string; name: string | null } | null> {
  if (type === "product") {
    const fields = ["id", "title", "type.id", "type.value", "categories.id", "categories.name", "categories.mpath"]
    return (await graph<ProductRow>(scope, { entity: "product", fields, filters: { id } }))[0] ?? null
  }
  const [row] =
    type === "product-type"
      ? await graph<{ id: string; value?: string | null }>(scope, { entity: "product_type", fields: ["id", "value"], filters: { id } })
      : await graph<{ id: string; name?: string | null }>(scope, { entity: "product_category", fields: ["id", "name"], filters: { id } })
  if (!row) return null
  return { id: row.id, name: ("value" in row ? row.value : "name" in row ? row.name : null) ?? null }
}

/** The resolved TIC of one target and every level considered. */
export async function describeTic(scope: Scope, type: TicTargetType, id: string): Promise<AdminTicResponse | null> {
  const target = await loadTarget(scope, type, id)
  if (!target) return null
  const defaultTic = pluginOptions(scope).defaultTic
  // a product's TIC depends on its type's and categories' too: all read at once
  const product = type === "product" ? (target as ProductRow) : null
  const row = product ? productTicRow({ ...product, type_id: product.type?.id }) : null
  const levels = row ? await assignedTics(scope, [row]) : null
  const own = levels ? levels.product[id] : (await requireTicModule(scope).getTics(MODEL_TARGET[type], [id]))[id]
  // one service lookup per distinct TIC of this answer, started together (cached, see tic-lookup.ts;
  // ticInfo never rejects: a label it cannot get is null)
  const infos = new Map<number, Promise<TicInfo>>()
  const info = (tic: number) => {
    let p = infos.get(tic)
    if (!p) infos.set(tic, (p = ticInfo(scope, tic)))
    return p
  }
  void info(defaultTic)
  const assigned = own === undefined || own === null ? null : await info(own)

  if (!product || !row || !levels) {
    const t = target as { id: string; name: string | null }
    const source: TicSource = assigned ? MODEL_TARGET[type] : "default"
    return {
      target: { type, id, name: t.name },
      assigned,
      resolved: { tic: assigned ?? (await info(defaultTic)), source, sourceId: assigned ? id : null },
      chain: { default: await info(defaultTic) },
    }
  }

  const p = product
  const typeTics = levels.productType
  const catTics = levels.productCategory
  for (const t of [...Object.values(typeTics), ...Object.values(catTics)]) void info(t)
  const productType: TicTargetRef | null = p.type
    ? { id: p.type.id, name: p.type.value ?? null, tic: typeTics[p.type.id] !== undefined ? await info(typeTics[p.type.id]!) : null }
    : null
  const categories: TicTargetRef[] = await Promise.all(
    (p.categories ?? []).map(async (c) => {
      const from = nearestWithTic(c, catTics)
      return {
        id: c.id,
        name: c.name ?? null,
        tic: from ? await info(catTics[from]!) : null,
        ...(from && from !== c.id ? { inheritedFrom: from } : {}),
      }
    }),
  )
  const r = resolveProductTic(row, levels, defaultTic)
  await Promise.all(infos.values()) // no lookup outlives the answer
  return {
    target: { type, id, name: p.title ?? null },
    assigned,
    resolved: { tic: await info(r.tic), source: r.source, sourceId: r.sourceId },
    chain: { product: assigned, productType, categories, default: await info(defaultTic) },
  }
}

const LABEL: Record<TicTargetType, string> = { product: "Product", "product-type": "Product type", "product-category": "Product category" }

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
    const lookup = await lookupTic(pluginOptions(req.scope), body.tic)
    if (lookup.status === "unknown") {
      const message = `${body.tic} is not a known TIC at the Sales Tax Service: pick one from the search`
      return sendError(res, 400, MedusaError.Types.INVALID_DATA, `Invalid request: tic: ${message}`, [
        { location: "body.tic", message, value: body.tic },
      ])
    }
    await requireTicModule(req.scope).setTic(MODEL_TARGET[type], id, body.tic)
    const out: AdminTicSetResponse = (await describeTic(req.scope, type, id))!
    if (lookup.status === "unverified") out.warning = TIC_UNVERIFIED_WARNING
    res.json(out)
  })
  const DELETE = handle(async (req: MedusaRequest, res: MedusaResponse) => {
    const id = req.params.id!
    if (!(await loadTarget(req.scope, type, id))) return notFound(res, LABEL[type], id)
    await requireTicModule(req.scope).setTic(MODEL_TARGET[type], id, null)
    res.json(await describeTic(req.scope, type, id))
  })
  return { GET, POST, DELETE }
}
