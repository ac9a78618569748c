// GET / POST / DELETE /admin/sales-tax/tics/{product|product-type|product-category}/:id
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { AdminTicResponse, AdminTicSetResponse, TicInfo, TicSource, TicTargetRef, TicTargetType } from "../../../admin/lib/types"
import { SALES_TAX_MODULE } from "../../../modules/sales-tax"
import { categoryTics, resolveTic } from "../../../core/tic-resolution"
import { bodyOf, handle, notFound, pluginOptions, sendError, ticInfo } from "./helpers"
import { lookupTic, TIC_UNVERIFIED_WARNING } from "./tic-lookup"
import { AdminSetTicBody } from "./validators"

type ModelTarget = "product" | "product_type" | "product_category"
const MODEL_TARGET: Record<TicTargetType, ModelTarget> = {
  product: "product",
  "product-type": "product_type",
  "product-category": "product_category",
}

export interface TicAssignments {
  setTic(targetType: ModelTarget, targetId: string, tic: number | null): Promise<unknown>
  getTics(targetType: ModelTarget, ids: string[]): Promise<Record<string, number>>
}

type Scope = MedusaRequest["scope"]

function ticService(scope: Scope): TicAssignments {
  return scope.resolve<TicAssignments>(SALES_TAX_MODULE)
}

interface Query {
  graph(args: {
    entity: string
    fields: string[]
    filters?: Record<string, unknown>
    pagination?: { take?: number; skip?: number }
  }): Promise<{
    data: Record<string, unknown>[]
    metadata?: { count?: number }
  }>
}

export function queryOf(scope: Scope): Query {
  return scope.resolve<Query>(ContainerRegistrationKeys.QUERY)
}

interface ProductRow {
  id: string
  title: string | null
  type: { id: string; value: string | null } | null
  categories: { id: string; name: string | null; mpath: string | null }[]
}

async function loadTarget(scope: Scope, type: TicTargetType, id: string): Promise<ProductRow | { id: string; name: string | null } | null> {
  const query = queryOf(scope)
  if (type === "product") {
    const { data } = await query.graph({
      entity: "product",
      fields: ["id", "title", "type.id", "type.value", "categories.id", "categories.name", "categories.mpath"],
      filters: { id },
    })
    const p = data[0] as unknown as ProductRow | undefined
    return p ? { id: p.id, title: p.title ?? null, type: p.type ?? null, categories: p.categories ?? [] } : null
  }
  const entity = type === "product-type" ? "product_type" : "product_category"
  const fields = type === "product-type" ? ["id", "value"] : ["id", "name"]
  const { data } = await query.graph({ entity, fields, filters: { id } })
  const row = data[0] as { id: string; value?: string; name?: string } | undefined
  return row ? { id: row.id, name: row.value ?? row.name ?? null } : null
}

/** The category's materialized path (root first, itself last). */
export function ancestry(c: { id: string; mpath?: string | null }): string[] {
  const path = c.mpath ? c.mpath.split(".").filter(Boolean) : [c.id]
  return path[path.length - 1] === c.id ? path : [...path, c.id]
}

/** Id of the category itself or its nearest ancestor that has a TIC. */
export function nearestWithTic(c: { id: string; mpath?: string | null }, tics: Readonly<Record<string, number>>): string | null {
  const chain = ancestry(c)
  for (let i = chain.length - 1; i >= 0; i--) if (typeof tics[chain[i]!] === "number") return chain[i]!
  return null
}

function mostSpecificFirst(a: { id: string; mpath?: string | null }, b: { id: string; mpath?: string | null }): number {
  return ancestry(b).length - ancestry(a).length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** The resolved TIC of one target and every level considered. */
export async function describeTic(scope: Scope, type: TicTargetType, id: string): Promise<AdminTicResponse | null> {
  const target = await loadTarget(scope, type, id)
  if (!target) return null
  const defaultTic = pluginOptions(scope).defaultTic
  const svc = ticService(scope)
  const own = (await svc.getTics(MODEL_TARGET[type], [id]))[id]
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

  if (type !== "product") {
    const t = target as { id: string; name: string | null }
    const source: TicSource = assigned ? MODEL_TARGET[type] : "default"
    return {
      target: { type, id, name: t.name },
      assigned,
      resolved: { tic: assigned ?? (await info(defaultTic)), source, sourceId: assigned ? id : null },
      chain: { default: await info(defaultTic) },
    }
  }

  const p = target as ProductRow
  const typeTics = p.type ? await svc.getTics("product_type", [p.type.id]) : {}
  // a category without a TIC inherits its nearest ancestor's (as the provider resolves it)
  const chainIds = [...new Set(p.categories.flatMap((c) => ancestry(c)))]
  const catTics = chainIds.length ? await svc.getTics("product_category", chainIds) : {}
  for (const t of [...Object.values(typeTics), ...Object.values(catTics)]) void info(t)
  const productType: TicTargetRef | null = p.type
    ? { id: p.type.id, name: p.type.value ?? null, tic: typeTics[p.type.id] !== undefined ? await info(typeTics[p.type.id]!) : null }
    : null
  const categories: TicTargetRef[] = await Promise.all(
    p.categories.map(async (c) => {
      const from = nearestWithTic(c, catTics)
      return {
        id: c.id,
        name: c.name ?? null,
        tic: from ? await info(catTics[from]!) : null,
        ...(from && from !== c.id ? { inheritedFrom: from } : {}),
      }
    }),
  )
  const r = resolveTic({
    product: own ?? undefined,
    productType: productType?.tic?.ticId,
    categories: categoryTics(p.categories, catTics),
    defaultTic,
  })
  let sourceId: string | null = null
  if (r.source === "product") sourceId = p.id
  else if (r.source === "product_type") sourceId = productType?.id ?? null
  else if (r.source === "product_category") {
    const c = [...p.categories].sort(mostSpecificFirst).find((x) => catTics[nearestWithTic(x, catTics) ?? ""] === r.tic)
    sourceId = c ? nearestWithTic(c, catTics) : null
  }
  await Promise.all(infos.values()) // no lookup outlives the answer
  return {
    target: { type, id, name: p.title },
    assigned,
    resolved: { tic: await info(r.tic), source: r.source, sourceId },
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
    await ticService(req.scope).setTic(MODEL_TARGET[type], id, body.tic)
    const out: AdminTicSetResponse = (await describeTic(req.scope, type, id))!
    if (lookup.status === "unverified") out.warning = TIC_UNVERIFIED_WARNING
    res.json(out)
  })
  const DELETE = handle(async (req: MedusaRequest, res: MedusaResponse) => {
    const id = req.params.id!
    if (!(await loadTarget(req.scope, type, id))) return notFound(res, LABEL[type], id)
    await ticService(req.scope).setTic(MODEL_TARGET[type], id, null)
    res.json(await describeTic(req.scope, type, id))
  })
  return { GET, POST, DELETE }
}
