// Bulk TICs, Medusa side: the export, an import's references and TICs checked, and the apply: a
// background job writing the plan in ONE transaction, one import at a time across instances.
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { ContainerRegistrationKeys, Modules } from "../medusa/keys"
import pLimit from "p-limit"
import { randomUUID } from "node:crypto"
import { graph, type QueryScope } from "../query"
import {
  assignedTics,
  productTicRow,
  ticModule,
  type ProductTicFields,
  type TicModule,
  type TicTargetType,
} from "../service/tics/product-tics"
import { resolveProductTic } from "../service/tics/tic-resolution"
import { SALES_TAX_MODULE } from "../constants"
import type { SalesTaxModuleService } from "../modules/sales-tax/service"
import type { PluginOptions } from "../options"
import { lookupTic } from "./lookup"
import { ticAssignmentsChanged } from "../service/tics/product-tic-cache"
import { runtimeOf, runtimeSlot } from "../runtime"
import {
  changedSincePlan,
  exportCsv,
  parseImport,
  planImport,
  type ExportProduct,
  type ImportPlan,
  type ImportRow,
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
        product_type: p.type?.value ?? null,
        categories: (p.categories ?? []).map((c) => c.handle ?? c.id).join("|"),
        tic: assigned.product[p.id] ?? null,
        resolved_tic: r.tic,
        resolved_from: r.source,
      })
    })
    if (page.length < PAGE) return exportCsv(out)
  }
}

/** The field a file's `handle` column names, per target. */
const HANDLE: Record<TicTargetType, string> = { product: "handle", product_type: "value", product_category: "handle" }

/** The salesTax module; the plugin registers it, so its absence is a broken install. */
export function requireTicModule(scope: QueryScope): TicModule {
  const svc = ticModule(scope)
  if (!svc) throw new MedusaError(MedusaError.Types.UNEXPECTED_STATE, "the salesTax module is not registered")
  return svc
}

/** For each reference Medusa has, `${target}|${by}|${ref}` → its id (`targets`), and each such id's TIC now (`current`). */
async function readTargets(scope: QueryScope, refs: readonly ImportRow[]) {
  const svc = requireTicModule(scope)
  const targets = new Map<string, string>()
  const current = new Map<string, number>()
  for (const target of Object.keys(HANDLE) as TicTargetType[]) {
    for (const by of ["id", "handle"] as const) {
      const wanted = [...new Set(refs.filter((r) => r.target === target && r.by === by).map((r) => r.ref))]
      const field = by === "id" ? "id" : HANDLE[target]
      for (let i = 0; i < wanted.length; i += PAGE) {
        const part = wanted.slice(i, i + PAGE)
        const rows = await graph<Record<string, string>>(scope, { entity: target, fields: ["id", field], filters: { [field]: part } })
        for (const row of rows) targets.set(`${target}|${by}|${row[field]}`, row.id!)
        const found = rows.map((r) => r.id!)
        const tics = await svc.getTics(target, found)
        for (const [id, tic] of Object.entries(tics)) current.set(id, tic)
      }
    }
  }
  return { targets, current }
}

/** The service's word on each distinct TIC (cached lookups, four at a time). */
export async function verdictsOf(options: PluginOptions, tics: readonly number[]): Promise<Map<number, TicVerdict>> {
  const limit = pLimit(4)
  // a failure (refused credentials and the like): the line cannot be checked now
  const unverified = (): TicVerdict => "unverified"
  const verdict = (t: number) => lookupTic(options, t).then((r) => r.status, unverified)
  return new Map(await Promise.all([...new Set(tics)].map(async (t) => [t, await limit(verdict, t)] as const)))
}

export async function previewImport(scope: QueryScope, options: PluginOptions, csv: string): Promise<ImportPlan> {
  const parsed = parseImport(csv)
  const tics = parsed.rows.flatMap((r) => (r.tic === null ? [] : [r.tic]))
  const [{ targets, current }, verdicts] = await Promise.all([readTargets(scope, parsed.rows), verdictsOf(options, tics)])
  return planImport(parsed, targets, current, verdicts)
}

export interface TicImportJob {
  id: string
  status: "running" | "done" | "failed"
  total: number
  done: number
  error: string | null
  /** lines not written: their target's TIC changed after the plan */
  changed: Refusal[]
}

export const TIC_IMPORT_LOCK = "sales-tax:tic-import"
/** How long a crashed instance's import can hold the lock. */
const TIC_IMPORT_LOCK_EXPIRE_S = 60 * 60

const imports = runtimeSlot("ticImport", (): { job: TicImportJob | null } => ({ job: null }))

/** This instance's running (or last) import. */
export function currentTicImport(): TicImportJob | null {
  const { job } = imports()
  return job ? { ...job } : null
}

/** Starts applying `changes` in the background (null while another import runs); one whose target moved is reported, not written. */
export async function startTicImport(container: MedusaContainer, changes: readonly PlannedChange[]): Promise<TicImportJob | null> {
  if (imports().job?.status === "running") return null
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `tic-import-${randomUUID()}`
  try {
    await locking.acquire(TIC_IMPORT_LOCK, { ownerId, expire: TIC_IMPORT_LOCK_EXPIRE_S })
  } catch {
    return null // another instance's import
  }
  const mine: TicImportJob = { id: `stti_${randomUUID()}`, status: "running", total: changes.length, done: 0, error: null, changed: [] }
  imports().job = mine
  const svc = container.resolve<Pick<SalesTaxModuleService, "applyTicChanges">>(SALES_TAX_MODULE)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const rows = changes.map((c) => ({ target_type: c.target, target_id: c.targetId, tic: c.to, from: c.from }))
  void svc
    .applyTicChanges(rows, (done) => void (mine.done = done))
    .then(
      (moved) => {
        // the checkout's cached product TICs are read again (after the commit, not only inside the transaction)
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
  return { ...mine }
}
