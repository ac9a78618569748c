// The admin's TIC routes beyond one target's TIC (targets.ts): search, bulk CSV export, dry run and
// apply, and the unclassified products with their suggestions.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { TicSearchRequest, type TicSearchResponse } from "../../packages/contract/src/index"
import { getPluginOptions } from "../options"
import { bodyOf, parseOr400, salesTaxClient, sendError } from "../http/answers"
import { notAField } from "../http/validate"
import { IMPORT_LIMITS, type PlannedChange } from "./bulk"
import { MIN_ACCEPT_ALL } from "./classify/combine"
import { acceptedSuggestions, listUnclassified, pickedChanges } from "./classify/medusa"
import { currentTicImport, exportProductsCsv, previewImport, startTicImport } from "./medusa"
import { rememberTics } from "./lookup"

export const AdminTicImportBody = z
  .object({
    csv: z
      .string({ error: "csv is required: the file's text" })
      .min(1, "csv must not be empty")
      .max(IMPORT_LIMITS.bytes, `csv must be at most ${IMPORT_LIMITS.bytes / 1024 / 1024} MB`),
  })
  .catchall(notAField)

// mode "all" applies nothing when any line is refused; "valid_rows" applies the valid lines only
export const AdminTicApplyBody = AdminTicImportBody.extend({
  mode: z.enum(["all", "valid_rows"], { error: 'mode must be "all" or "valid_rows"' }).default("all"),
  preview_hash: z
    .string({ error: "preview_hash must be the preview's plan.hash" })
    .regex(/^[0-9a-f]{64}$/, "preview_hash must be the preview's plan.hash (64 hexadecimal characters)")
    .optional(),
}).catchall(notAField)

const limitRange = "limit must be between 1 and 100"
export const AdminUnclassifiedQuery = z
  .object({
    limit: z.coerce.number().int("limit must be an integer").min(1, limitRange).max(100, limitRange).default(20),
    offset: z.coerce
      .number()
      .int("offset must be an integer")
      .min(0, "offset must be 0 or more")
      .max(1_000_000, "offset is too large")
      .default(0),
  })
  .catchall(notAField)

const PickedItem = z
  .object({
    product_id: z.string().regex(/^prod_[A-Za-z0-9]{1,64}$/, "product_id must be a product id (prod_…)"),
    tic: z.number().int("tic must be an integer").min(0, "tic must be 0 or more").max(99_999_999, "tic is too large"),
  })
  .catchall(notAField)

// the products picked, each with its TIC, or every suggestion at or above `min_confidence`
export const AdminUnclassifiedApplyBody = z
  .object({
    items: z.array(PickedItem).min(1, "items must not be empty").max(10_000, "at most 10,000 items").optional(),
    min_confidence: z
      .number()
      .min(MIN_ACCEPT_ALL, `min_confidence must be at least ${MIN_ACCEPT_ALL}: a lower suggestion is never accepted in bulk`)
      .max(1, "min_confidence must be at most 1")
      .optional(),
  })
  .catchall(notAField)
  .refine((b) => (b.items === undefined) !== (b.min_confidence === undefined), {
    error: "give either items or min_confidence",
    path: ["items"],
  })

/** POST /admin/sales-tax/tics/search { query, limit?, cursor? } */
export async function searchTics(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const r = await salesTaxClient(req.scope).searchTics(bodyOf(req, TicSearchRequest))
  rememberTics(getPluginOptions(req.scope), r.results) // the admin sets TICs picked from these
  res.json({ query: r.query, results: r.results, nextCursor: r.nextCursor } satisfies TicSearchResponse)
}

/** GET /admin/sales-tax/tics/export */
export async function exportTics(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const csv = await exportProductsCsv(req.scope, getPluginOptions(req.scope).defaultTic)
  res.setHeader("content-type", "text/csv; charset=utf-8")
  res.setHeader("content-disposition", 'attachment; filename="sales-tax-product-tics.csv"')
  res.status(200).send(csv)
}

/** POST /admin/sales-tax/tics/import { csv }: the dry run; writes nothing. */
export async function previewTicImport(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  res.json({ plan: await previewImport(req.scope, getPluginOptions(req.scope), bodyOf(req, AdminTicImportBody).csv) })
}

/** POST /admin/sales-tax/tics/import/apply { csv, mode, preview_hash? }: the file checked again (a preview is never trusted). */
export async function applyTicImport(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const body = bodyOf(req, AdminTicApplyBody)
  const plan = await previewImport(req.scope, getPluginOptions(req.scope), body.csv)
  if (body.preview_hash && body.preview_hash !== plan.hash) {
    const message = "the plan differs from the preview's: a TIC of the file's targets changed since; preview the file again"
    return sendError(res, 409, MedusaError.Types.CONFLICT, message, [{ location: "body.preview_hash", message }])
  }
  if (body.mode === "all" && plan.refused.length) {
    const message = `${plan.refused.length} line(s) refused; nothing was applied (fix them, or apply the valid lines with mode "valid_rows")`
    const errors = plan.refused.slice(0, 100).map((r) => ({ location: `csv.line ${r.row}.${r.column}`, message: r.reason }))
    return sendError(res, 422, MedusaError.Types.INVALID_DATA, message, errors)
  }
  const job = await startTicImport(req.scope, plan.changes)
  if (!job) return importRunning(res)
  res.status(202).json({ job, plan: { changes: plan.changes.length, unchanged: plan.unchanged, refused: plan.refused.length } })
}

/** GET /admin/sales-tax/tics/import/apply: the running (or last) import. */
export function ticImportProgress(_req: MedusaRequest, res: MedusaResponse): void {
  res.json({ job: currentTicImport() })
}

const importRunning = (res: MedusaResponse) =>
  sendError(res, 409, MedusaError.Types.CONFLICT, "another TIC import is running; wait for it to finish")

/** GET /admin/sales-tax/tics/unclassified?limit=&offset=: products on the default TIC, with suggestions. */
export async function getUnclassified(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const q = parseOr400(req, res, AdminUnclassifiedQuery, "query")
  if (q) res.json(await listUnclassified(req.scope, getPluginOptions(req.scope), q.offset, q.limit))
}

/** POST /admin/sales-tax/tics/unclassified/apply { items } | { min_confidence }: through the bulk import's job. */
export async function applyUnclassified(req: MedusaRequest, res: MedusaResponse): Promise<void> {
  const body = bodyOf(req, AdminUnclassifiedApplyBody)
  const options = getPluginOptions(req.scope)
  let changes: PlannedChange[]
  let summary: Record<string, unknown> = {}
  if (body.items) {
    const picked = await pickedChanges(req.scope, options, body.items)
    if ("errors" in picked) {
      const message = `${picked.errors.length} item(s) refused; nothing was applied`
      return sendError(res, 422, MedusaError.Types.INVALID_DATA, message, picked.errors.slice(0, 100))
    }
    changes = picked.changes
  } else {
    const accepted = await acceptedSuggestions(req.scope, options, body.min_confidence!)
    changes = accepted.changes
    summary = { below_threshold: accepted.below, without_suggestion: accepted.without, searches: accepted.searches }
  }
  const job = await startTicImport(req.scope, changes)
  if (!job) return importRunning(res)
  res.status(202).json({ job, changes: changes.length, ...summary })
}
