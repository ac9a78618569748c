import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { AdminTicSearchResponse } from "../../../../../http/types"
import { bodyOf, handle, pluginOptions, salesTaxClient } from "../../../../../http/answers"
import { rememberTics } from "../../../../../tics/lookup"
import { TicSearchRequest } from "../../../../../service/contract"

/** POST /admin/sales-tax/tics/search { query, limit?, cursor? }: natural-language TIC search at the service. */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const body = bodyOf(req, TicSearchRequest)
  const r = await salesTaxClient(req.scope).searchTics(body)
  rememberTics(pluginOptions(req.scope), r.results) // the admin sets TICs picked from these
  const out: AdminTicSearchResponse = { query: r.query, results: r.results, nextCursor: r.nextCursor }
  res.json(out)
})
