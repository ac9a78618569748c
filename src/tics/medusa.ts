/**
 * Bulk TICs, Medusa side: the export's products, an import's references and TICs checked, and the
 * apply: a background job writing the plan in ONE transaction (nothing half-applied), one import
 * at a time across instances. The pure part is ./bulk.ts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { ContainerRegistrationKeys, Modules } from "../medusa/keys"
import pLimit from "p-limit"
import { randomUUID } from "node:crypto"
import { graph, type QueryScope } from "../query"
import { assignedTics, productTicRow, ticModule, type ProductTicFields, type TicModule } from "../service/tics/product-tics"
import { resolveProductTic } from "../service/tics/tic-resolution"
import { SALES_TAX_MODULE } from "../constants"
import type { SalesTaxModuleService } from "../modules/sales-tax/service"
import type { PluginOptions } from "../options"
import { lookupTic } from "./lookup"
import { ticAssignmentsChanged } from "../service/tics/tic-generation"
import { runtimeOf, runtimeSlot } from "../runtime"
import {
  changedSincePlan,
  exportCsv,
  parseImport,
  planImport,
  type BulkTarget,
  type ExportProduct,
  type ImportPlan,
  type PlannedChange,
  type Refusal,
  type TicVerdict,
} from "./bulk"

const PAGE = 1000

interface ExportFields extends ProductTicFields {
  handle?: string | null
  title?: string | null
  type?: { value?: string | null } | null
  categories?: { id: string; mpath?: string | null; handle?: string | null }[] | null
}

/** Every product as the export's CSV (pages of 1,000 through Query). */
export async function exportProductsCsv(scope: QueryScope, defaultTic: number): Promise<string> {
  const out: ExportProduct[] = []
  for (let skip = 0; ; skip += PAGE) {
    const page = await graph<ExportFields>(scope, {
      entity: "product",
      fields: ["id", "handle", "title", "type_id", "type.value", "categories.id", "categories.mpath", "categories.handle"],
      pagination: { skip, take: PAGE, order: { created_at: "ASC" } },
    })
    const rows = page.map(productTicRow)
    const assigned = await assignedTics(scope, rows)
    page.forEach((p, i) => {
      const r = resolveProductTic(rows[i]!, assigned, defaultTic)
      out.push({
        id: p.id,
        handle: p.handle ?? null,
        title: p.title ?? null,
        productType: p.type?.value ?? null,
        categories: (p.categories ?? []).map((c) => c.handle ?? c.id),
        tic: assigned.product[p.id] ?? null,
        resolvedTic: r.tic,
        resolvedFrom: r.source,
      })
    })
    if (page.length < PAGE) return exportCsv(out)
  }
}

const ENTITY: Record<BulkTarget, { entity: string; handle: string }> = {
  product: { entity: "product", handle: "handle" },
  product_type: { entity: "product_type", handle: "value" },
  product_category: { entity: "product_category", handle: "handle" },
}

const chunks = <T>(xs: readonly T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n))

/** `${target}|${by}|${ref}` → the target's id, for every reference the file names that Medusa has. */
async function resolveTargets(
  scope: QueryScope,
  refs: readonly { target: BulkTarget; by: "id" | "handle"; ref: string }[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  for (const target of Object.keys(ENTITY) as BulkTarget[]) {
    for (const by of ["id", "handle"] as const) {
      const wanted = [...new Set(refs.filter((r) => r.target === target && r.by === by).map((r) => r.ref))]
      const field = by === "id" ? "id" : ENTITY[target].handle
      for (const part of chunks(wanted, PAGE)) {
        const rows = await graph<Record<string, string>>(scope, {
          entity: ENTITY[target].entity,
          fields: ["id", field],
          filters: { [field]: part },
        })
        for (const row of rows) found.set(`${target}|${by}|${row[field]}`, row.id!)
      }
    }
  }
  return found
}

/** The salesTax module for a route: the plugin registers it, so its absence is a broken install. */
export function requireTicModule(scope: QueryScope): TicModule {
  const svc = ticModule(scope)
  if (!svc) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "the salesTax module is not registered")
  return svc
}

/** The TIC set on each target id now. */
async function currentTics(scope: QueryScope, ids: Map<BulkTarget, string[]>): Promise<Map<string, number>> {
  const svc = requireTicModule(scope)
  const out = new Map<string, number>()
  for (const [target, list] of ids) {
    for (const part of chunks(list, PAGE)) for (const [id, tic] of Object.entries(await svc.getTics(target, part))) out.set(id, tic)
  }
  return out
}

/** The service's word on each TIC (one cached lookup per distinct TIC, four at a time). */
export async function verdictsOf(options: PluginOptions, tics: readonly number[]): Promise<Map<number, TicVerdict>> {
  const limit = pLimit(4)
  const out = new Map<number, TicVerdict>()
  await Promise.all(
    [...new Set(tics)].map((t) =>
      limit(async () => {
        try {
          out.set(t, (await lookupTic(options, t)).status)
        } catch {
          out.set(t, "unverified") // refused credentials and the like: the line cannot be checked now
        }
      }),
    ),
  )
  return out
}

/** The dry run of an import: what it would change, what is unchanged, and every refused line. */
export async function previewImport(scope: QueryScope, options: PluginOptions, csv: string): Promise<ImportPlan> {
  const parsed = parseImport(csv)
  const targets = await resolveTargets(scope, parsed.rows)
  const ids = new Map<BulkTarget, string[]>()
  for (const r of parsed.rows) {
    const id = targets.get(`${r.target}|${r.by}|${r.ref}`)
    if (id) ids.set(r.target, [...(ids.get(r.target) ?? []), id])
  }
  const [current, verdicts] = await Promise.all([
    currentTics(scope, ids),
    verdictsOf(
      options,
      parsed.rows.flatMap((r) => (r.tic === null ? [] : [r.tic])),
    ),
  ])
  return planImport(parsed, targets, current, verdicts)
}

export interface TicImportJob {
  id: string
  status: "running" | "done" | "failed"
  total: number
  done: number
  error: string | null
  /** lines not written: their target's TIC changed after the plan (another import or a single edit) */
  changed: Refusal[]
}

/** The one lock of the imports (Medusa's Locking Module: across instances with a shared provider). */
export const TIC_IMPORT_LOCK = "sales-tax:tic-import"
/** How long a crashed instance's import can hold the lock. */
const TIC_IMPORT_LOCK_EXPIRE_S = 60 * 60

const imports = runtimeSlot("ticImport", (): { job: TicImportJob | null } => ({ job: null }))

/** This instance's running (or last) import. */
export function currentTicImport(): TicImportJob | null {
  const { job } = imports()
  return job ? { ...job } : null
}

type ApplyModule = Pick<SalesTaxModuleService, "applyTicChanges">

/**
 * Starts applying `changes` in the background under the imports' lock; a change whose target's
 * TIC is no longer its `from` is not written and is reported on the job.
 */
export async function startTicImport(
  container: MedusaContainer,
  changes: readonly PlannedChange[],
): Promise<{ ok: true; job: TicImportJob } | { ok: false; job: TicImportJob | null }> {
  const running = imports().job
  if (running?.status === "running") return { ok: false, job: { ...running } }
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `tic-import-${randomUUID()}`
  try {
    await locking.acquire(TIC_IMPORT_LOCK, { ownerId, expire: TIC_IMPORT_LOCK_EXPIRE_S })
  } catch {
    return { ok: false, job: currentTicImport() } // another instance's import
  }
  const mine: TicImportJob = { id: `stti_${randomUUID()}`, status: "running", total: changes.length, done: 0, error: null, changed: [] }
  imports().job = mine
  const svc = container.resolve<ApplyModule>(SALES_TAX_MODULE)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const rows = changes.map((c) => ({ target_type: c.target, target_id: c.targetId, tic: c.to, from: c.from }))
  void svc
    .applyTicChanges(rows, (done) => void (mine.done = done))
    .then(
      (moved) => {
        // the checkout's product TICs are read again (after the commit, not only inside the transaction)
        ticAssignmentsChanged(runtimeOf(container))
        mine.changed = changedSincePlan(changes, moved)
        mine.done = mine.total
        mine.status = "done"
        logger.info(`sales-tax TIC import: ${mine.total - mine.changed.length} TICs set, ${mine.changed.length} changed since the plan`)
      },
      (e: unknown) => {
        mine.status = "failed"
        mine.done = 0
        // a plain message for the admin (never a statement); the log has the detail
        mine.error = "the import could not be written; nothing was changed. Try again."
        logger.error(`sales-tax TIC import failed, rolled back: ${(e as Error)?.message ?? e}`)
      },
    )
    .finally(() => locking.release(TIC_IMPORT_LOCK, { ownerId }).catch(() => undefined))
  return { ok: true, job: { ...mine } }
}
