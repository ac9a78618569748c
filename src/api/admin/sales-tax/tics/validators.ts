import { z } from "zod"
import { notAField } from "../../../../http/validate"
import { IMPORT_LIMITS } from "../../../../tics/bulk"
import { MIN_ACCEPT_ALL } from "../../../../tics/classify/combine"

/** POST /admin/sales-tax/tics/import: the CSV file's text (a dry run). */
export const AdminTicImportBody = z
  .object({
    csv: z
      .string({ error: "csv is required: the file's text" })
      .min(1, "csv must not be empty")
      .max(IMPORT_LIMITS.bytes, `csv must be at most ${IMPORT_LIMITS.bytes / 1024 / 1024} MB`),
  })
  .catchall(notAField)

/**
 * POST /admin/sales-tax/tics/import/apply: the same file, checked again, then applied. mode "all"
 * (default) applies nothing when any line is refused; "valid_rows" applies the valid lines only.
 */
export const AdminTicApplyBody = AdminTicImportBody.extend({
  mode: z.enum(["all", "valid_rows"], { error: 'mode must be "all" or "valid_rows"' }).default("all"),
  /** the preview's `plan.hash`: the apply is refused when its own plan differs (a TIC changed since) */
  preview_hash: z
    .string({ error: "preview_hash must be the preview's plan.hash" })
    .regex(/^[0-9a-f]{64}$/, "preview_hash must be the preview's plan.hash (64 hexadecimal characters)")
    .optional(),
}).catchall(notAField)
export type AdminTicApplyBody = z.infer<typeof AdminTicApplyBody>

/** GET /admin/sales-tax/tics/unclassified: a page of the list (limit 1-100, default 20). */
export const AdminUnclassifiedQuery = z
  .object({
    limit: z.coerce
      .number()
      .int("limit must be an integer")
      .min(1, "limit must be between 1 and 100")
      .max(100, "limit must be between 1 and 100")
      .default(20),
    offset: z.coerce
      .number()
      .int("offset must be an integer")
      .min(0, "offset must be 0 or more")
      .max(1_000_000, "offset is too large")
      .default(0),
  })
  .catchall(notAField)

/**
 * POST /admin/sales-tax/tics/unclassified/apply: either the products picked, each with its TIC
 * (a suggestion, an alternative or one found with the search), or every suggestion at or above
 * `min_confidence` (0.5-1).
 */
export const AdminUnclassifiedApplyBody = z
  .object({
    items: z
      .array(
        z
          .object({
            product_id: z.string().regex(/^prod_[A-Za-z0-9]{1,64}$/, "product_id must be a product id (prod_…)"),
            tic: z.number().int("tic must be an integer").min(0, "tic must be 0 or more").max(99_999_999, "tic is too large"),
          })
          .catchall(notAField),
      )
      .min(1, "items must not be empty")
      .max(10_000, "at most 10,000 items")
      .optional(),
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
export type AdminUnclassifiedApplyBody = z.infer<typeof AdminUnclassifiedApplyBody>
