import { z } from "zod"
import { IMPORT_LIMITS } from "../../../../tics/bulk"

/** Any other field: refused at its own location (`body.<field>`), not as an unknown key of the whole body. */
const notAField = z.unknown().refine(() => false, { error: "not a field of this request" })

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
