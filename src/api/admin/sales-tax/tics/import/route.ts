import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { previewImport } from "../../../../../tics/medusa"
import { bodyOf, handle, pluginOptions } from "../../../../../http/answers"
import { AdminTicImportBody } from "../validators"

/**
 * POST /admin/sales-tax/tics/import { csv }: the dry run. Every line is checked (its target exists,
 * its TIC is in the service's list); the answer lists the changes (from → to), the count unchanged,
 * and every refused line with its line, column and reason. Nothing is written.
 */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const { csv } = bodyOf(req, AdminTicImportBody)
  res.json({ plan: await previewImport(req.scope, pluginOptions(req.scope), csv) })
})
