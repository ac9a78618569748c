import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { BackfillRangeInput } from "../../../../../filing/backfill/range"
import { currentBackfill, startBackfill } from "../../../../../filing/backfill/jobs"
import { parseOr400 } from "../../../../../http/answers"

/** GET /admin/sales-tax/reconciliation/backfill: the running (or last) backfill of this server and its progress. */
export const GET = async (_req: MedusaRequest, res: MedusaResponse) => {
  res.json({ backfill: currentBackfill() })
}

/** POST { from, to, batch_size?, concurrency? }: files the range's orders without a record (202 with the job; 409 while one runs). */
export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const body = parseOr400(req, res, BackfillRangeInput, "body")
  if (!body) return
  const job = startBackfill(req.scope, body)
  if (!job) {
    res.status(409).json({ type: "conflict", message: "A backfill is already running on this server", backfill: currentBackfill() })
    return
  }
  res.status(202).json({ backfill: job })
}
