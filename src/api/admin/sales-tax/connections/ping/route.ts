import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { SalesTaxError } from "../../../../../service/client"
import { getBackgroundClient } from "../../../../../service/client-factory"
import { connectionById, optionsOn } from "../../../../../service/connections"
import type { CheckResult } from "../../../../../http/types"
import { notAField } from "../../../../../http/validate"
import { handle, pluginOptions, sendError, sendZodError, serviceText } from "../../../../../http/answers"

export const PingConnectionBody = z
  .object({ connection_id: z.string({ error: "connection_id is required" }).min(1, "connection_id is required").max(200) })
  .catchall(notAField)

/**
 * POST /admin/sales-tax/connections/ping { connection_id }: the service's ping on that connection
 * (the settings page's "Test connection"). 200 with the check's result (ok, duration, status and a
 * scrubbed error when it failed); 404 for a connection the options do not have.
 */
export const POST = handle(async (req: MedusaRequest, res: MedusaResponse) => {
  const parsed = PingConnectionBody.safeParse(req.body ?? {})
  if (!parsed.success) return sendZodError(res, parsed.error, req.body)
  const options = pluginOptions(req.scope)
  const conn = connectionById(options, parsed.data.connection_id)
  if (!conn) return sendError(res, 404, MedusaError.Types.NOT_FOUND, `No connection ${parsed.data.connection_id} in the plugin options`)
  const client = getBackgroundClient(optionsOn(options, conn))
  const t0 = Date.now()
  let out: CheckResult<{ message: string }>
  try {
    out = { ok: true, durationMs: Date.now() - t0, result: await client.ping() }
    out.durationMs = Date.now() - t0
  } catch (e) {
    const err = e instanceof SalesTaxError ? e : null
    out = {
      ok: false,
      durationMs: Date.now() - t0,
      status: err ? err.status : null,
      error: err ? serviceText(req.scope, err.message) : "unexpected error",
    }
  }
  res.json({ connectionId: conn.connectionId, ping: out })
})
